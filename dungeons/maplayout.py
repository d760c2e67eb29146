"""Where each room of a dungeon card goes when it is drawn, and the arrows between them. Used by
the game page and by the admin's preview, both drawing the map with `mapdraw.py` (the
`dungeon_map` macro of `templates/jinja2/dungeons/_map.html`).

Rooms go in rows by depth (the longest path from the top room, so every arrow points down). An
arrow that skips rows (Tomb of Annihilation's Oubliette -> Cradle of the Death God) gets a slot
of its own in every row it passes, a narrow gap between the rooms of that row, and is drawn as a
line through those slots: an arrow never crosses a room that is not one of its ends
(tests/dungeons/test_maplayout.py checks the official dungeons and random valid graphs). Within a
row, rooms and slots keep the printed order, then are sorted by where the arrows into them come
from (the barycentre heuristic of layered graph drawing), which keeps arrows from crossing
where it can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.engine.dungeon import DungeonSpec

BOX_W = 150
BOX_H = 92
GAP_X = 18
GAP_Y = 34
SLOT_W = 20  # the width an arrow passing through a row takes in it
HEAD_LEN = 8  # the arrowhead, drawn at an arrow's end
HEAD_HALF_W = 5


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
    """An arrow from one room to another: a line through `points` (the first on the bottom edge
    of the room it leaves, the last on the top edge of the room it leads to)."""

    points: tuple[tuple[float, float], ...]
    live: bool = False  # leads from the current room
    start: str = ""
    end: str = ""

    @property
    def x1(self) -> float:
        return self.points[0][0]

    @property
    def y1(self) -> float:
        return self.points[0][1]

    @property
    def x2(self) -> float:
        return self.points[-1][0]

    @property
    def y2(self) -> float:
        return self.points[-1][1]

    def _last_direction(self) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.points[-2], self.points[-1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        return (bx - ax) / length, (by - ay) / length

    @property
    def line(self) -> str:
        """The SVG points of the line, its end pulled back under the arrowhead."""
        dx, dy = self._last_direction()
        end = (self.x2 - dx * (HEAD_LEN - 1), self.y2 - dy * (HEAD_LEN - 1))
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in (*self.points[:-1], end))

    @property
    def head(self) -> str:
        """The SVG points of the arrowhead, pointing along the line's last segment."""
        dx, dy = self._last_direction()
        bx, by = self.x2 - dx * HEAD_LEN, self.y2 - dy * HEAD_LEN
        px, py = -dy * HEAD_HALF_W, dx * HEAD_HALF_W
        corners = ((bx + px, by + py), (bx - px, by - py), (self.x2, self.y2))
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


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


# An item of a row: a room's name, or ("slot", from, to, depth) for an arrow passing the row.
Item = str | tuple[str, str, str, int]


def _rows(spec: DungeonSpec, depth: dict[str, int]) -> dict[int, list[Item]]:
    rows: dict[int, list[Item]] = {d: [] for d in set(depth.values())}
    for name in spec.rooms:
        rows[depth[name]].append(name)
    for name, room in spec.rooms.items():
        for nxt in room.leads_to:
            for d in range(depth[name] + 1, depth[nxt]):
                rows[d].append(("slot", name, nxt, d))
    return rows


def _parents(spec: DungeonSpec, depth: dict[str, int]) -> dict[Item, list[Item]]:
    """What each row item's arrows come from, in the row above."""
    parents: dict[Item, list[Item]] = {}
    for name, room in spec.rooms.items():
        for nxt in room.leads_to:
            above: Item = name
            for d in range(depth[name] + 1, depth[nxt]):
                slot = ("slot", name, nxt, d)
                parents.setdefault(slot, []).append(above)
                above = slot
            parents.setdefault(nxt, []).append(above)
    return parents


def _order(rows: dict[int, list[Item]], parents: dict[Item, list[Item]]) -> None:
    """Sort each row by the mean position of its items' parents (stable: ties keep the printed
    order); a room without parents keeps its place."""
    for d in sorted(rows)[1:]:
        above = {item: i for i, item in enumerate(rows[d - 1])}
        here = rows[d]

        def key(item: Item, here: list[Item] = here, above: dict[Item, int] = above) -> float:
            ps = [above[p] for p in parents.get(item, []) if p in above]
            return sum(ps) / len(ps) if ps else float(here.index(item))

        here.sort(key=key)


def _width(item: Item) -> int:
    return BOX_W if isinstance(item, str) else SLOT_W


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
    rows = _rows(spec, depth)
    _order(rows, _parents(spec, depth))
    row_w = {d: sum(map(_width, items)) + GAP_X * (len(items) - 1) for d, items in rows.items()}
    width = max(row_w.values())
    reachable = set(spec.rooms[current].leads_to) if current in spec.rooms else set()
    boxes: dict[str, RoomBox] = {}
    slot_x: dict[Item, float] = {}
    for d, items in sorted(rows.items()):
        x = (width - row_w[d]) // 2
        for item in items:
            if isinstance(item, str):
                room = spec.rooms[item]
                boxes[item] = RoomBox(
                    name=item,
                    text=room.text,
                    x=x,
                    y=0,
                    current=item == current,
                    reachable=item in reachable,
                    option_id=room_options.get(item),
                    bottommost=room.bottommost,
                    top=item == spec.top,
                )
            else:
                slot_x[item] = x + SLOT_W / 2
            x += _width(item) + GAP_X
    row_top, row_h, height = _fit_rows(rows, boxes)
    arrows = []
    for name, room in spec.rooms.items():
        a = boxes[name]
        for nxt in room.leads_to:
            b = boxes[nxt]
            points: list[tuple[float, float]] = [(a.x + a.w / 2, a.y + a.h)]
            for d in range(depth[name] + 1, depth[nxt]):
                x = slot_x[("slot", name, nxt, d)]
                points += [(x, row_top[d]), (x, row_top[d] + row_h[d])]
            points.append((b.x + b.w / 2, b.y))
            arrows.append(Arrow(tuple(points), live=name == current, start=name, end=nxt))
    rooms = [boxes[name] for name in spec.rooms]
    return DungeonMap(spec.name, spec.subtype, width, height, rooms, arrows, card_option)


def _lines(text: str, width: int, char_px: float) -> int:
    per_line = max(8, int(width / char_px))
    return max(1, math.ceil(len(text) * 1.12 / per_line))


def _fit_rows(
    rows: dict[int, list[Item]], boxes: dict[str, RoomBox]
) -> tuple[dict[int, int], dict[int, int], int]:
    """Make each row tall enough for its longest text (Throne of the Dead Three needs more
    than the others); returns each row's top and height, and the map's height."""
    y = 0
    tops: dict[int, int] = {}
    heights: dict[int, int] = {}
    for d in sorted(rows):
        row = [boxes[n] for n in rows[d] if isinstance(n, str)]
        need = max(
            (
                14 + 15 * _lines(b.name, b.w - 16, 7.4) + 4 + 14 * _lines(b.text, b.w - 16, 5.9)
                for b in row
            ),
            default=BOX_H,
        )
        h = max(BOX_H, need)
        for b in row:
            b.y, b.h = y, h
        tops[d], heights[d] = y, h
        y += h + GAP_Y
    return tops, heights, y - GAP_Y
