"""Where each room of a dungeon card goes when it is drawn: rooms in rows by depth (the longest
path from the top room, so every arrow points down), spread evenly across each row, and the
arrows between them. Used by the game page and by the admin's preview, both drawing the map with
`mapdraw.py` (the `dungeon_map` macro of `templates/jinja2/dungeons/_map.html`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.engine.dungeon import DungeonSpec

BOX_W = 150
BOX_H = 92
GAP_X = 18
GAP_Y = 34


@dataclass
class RoomBox:
    name: str
    text: str
    x: int
    y: int
    w: int = BOX_W
    h: int = BOX_H
    current: bool = False
    reachable: bool = False
    option_id: str | None = None  # set when the viewer may click this room to choose it
    bottommost: bool = False
    top: bool = False


@dataclass
class Arrow:
    x1: int
    y1: int
    x2: int
    y2: int
    live: bool = False  # leads from the current room


@dataclass
class DungeonMap:
    name: str
    subtype: str | None
    width: int
    height: int
    rooms: list[RoomBox] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    option_id: str | None = None  # set when the viewer may click the whole card to enter it


def depths(spec: DungeonSpec) -> dict[str, int]:
    depth = {spec.top: 0}
    for name in spec.rooms:  # printed order lists every room after the rooms leading to it
        for nxt in spec.rooms[name].leads_to:
            depth[nxt] = max(depth.get(nxt, 0), depth.get(name, 0) + 1)
    # A second pass settles rooms printed before a room that leads to them.
    for _ in range(len(spec.rooms)):
        for name, room in spec.rooms.items():
            for nxt in room.leads_to:
                depth[nxt] = max(depth[nxt], depth.get(name, 0) + 1)
    return depth


def layout(
    spec: DungeonSpec,
    *,
    current: str | None = None,
    room_options: dict[str, str] | None = None,
    card_option: str | None = None,
) -> DungeonMap:
    """Lay out `spec`. `current` is the marker's room; `room_options` maps a reachable room to
    the option id that chooses it (only for the deciding player); `card_option` is the option id
    that enters this dungeon (choosing a dungeon to start)."""
    room_options = room_options or {}
    depth = depths(spec)
    rows: dict[int, list[str]] = {}
    for name in spec.rooms:
        rows.setdefault(depth[name], []).append(name)
    widest = max(len(r) for r in rows.values())
    width = widest * BOX_W + (widest - 1) * GAP_X
    reachable = set(spec.rooms[current].leads_to) if current in spec.rooms else set()
    boxes: dict[str, RoomBox] = {}
    for d, names in sorted(rows.items()):
        row_w = len(names) * BOX_W + (len(names) - 1) * GAP_X
        left = (width - row_w) // 2
        for i, name in enumerate(names):
            room = spec.rooms[name]
            boxes[name] = RoomBox(
                name=name,
                text=room.text,
                x=left + i * (BOX_W + GAP_X),
                y=d * (BOX_H + GAP_Y),
                current=name == current,
                reachable=name in reachable,
                option_id=room_options.get(name),
                bottommost=room.bottommost,
                top=name == spec.top,
            )
    height = _fit_rows(rows, boxes)
    arrows = []
    for name, room in spec.rooms.items():
        a = boxes[name]
        for nxt in room.leads_to:
            b = boxes[nxt]
            arrows.append(
                Arrow(a.x + a.w // 2, a.y + a.h, b.x + b.w // 2, b.y, live=name == current)
            )
    return DungeonMap(
        spec.name, spec.subtype, width, height, list(boxes.values()), arrows, card_option
    )


def _lines(text: str, width: int, char_px: float) -> int:
    per_line = max(8, int(width / char_px))
    return max(1, math.ceil(len(text) * 1.12 / per_line))


def _fit_rows(rows: dict[int, list[str]], boxes: dict[str, RoomBox]) -> int:
    """Make each row tall enough for its longest text (Throne of the Dead Three needs more
    than the others); returns the map's height."""
    y = 0
    for d in sorted(rows):
        row = [boxes[n] for n in rows[d]]
        need = max(
            14 + 15 * _lines(b.name, b.w - 16, 7.4) + 4 + 14 * _lines(b.text, b.w - 16, 5.9)
            for b in row
        )
        h = max(BOX_H, need)
        for b in row:
            b.y, b.h = y, h
        y += h + GAP_Y
    return y - GAP_Y
