"""The editor's live preview: the map of the dungeon the unsaved form describes, every problem
of it at once (dungeons/problems.py), and the parts of the form that depend on the whole
dungeon (each room's choice of exits, each step in words), swapped in as the designer types."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from game.engine.dungeon import DungeonSpec, RoomSpec

from .forms import dungeon_from_forms, dungeon_problems
from .mapdraw import read_only_map
from .maplayout import layout


def sketch(data: dict[str, Any]) -> DungeonSpec | None:
    """The dungeon's shape, drawn even while a room's ability or text is unfinished: rooms by
    name with their arrows to other named rooms (None while no map can be drawn yet)."""
    rooms: dict[str, RoomSpec] = {}
    names = [r["name"] for r in data["rooms"] if r["name"]]
    for room in data["rooms"]:
        if not room["name"] or room["name"] in rooms:
            continue
        leads = tuple(n for n in room["leads_to"] if n in names and n != room["name"])
        rooms[room["name"]] = RoomSpec(room["name"], room["text"] or "…", leads, (), ())
    if not rooms:
        return None
    return DungeonSpec(data["name"] or "(no name yet)", data.get("subtype"), rooms)


def map_html(data: dict[str, Any]) -> Markup | None:
    spec = sketch(data)
    if spec is None:
        return None
    try:
        return read_only_map(layout(spec))
    except (KeyError, ValueError):
        return None  # a shape the layout can't draw (a room nothing leads to, a cycle)


def editor_preview(card_form: Any, room_formset: Any) -> dict[str, Any]:
    """The template context of the preview for the POSTed editor."""
    card = card_form.instance
    name = (card_form.data.get("name") or card.name or "").strip()
    data = dungeon_from_forms(name, card_form.data.get("subtype") or "", card.text, room_formset)
    problems = dungeon_problems(card_form, room_formset, data)
    steps = [
        step_form
        for room_form in room_formset.forms
        for nested in getattr(room_form, "nested_formsets", [])
        for step_form in nested.forms
    ]
    return {
        "map": map_html(data),
        "problems": problems,
        "room_forms": room_formset.forms,
        "step_forms": steps,
        "rooms_count": len(data["rooms"]),
    }
