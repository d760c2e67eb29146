"""The editor's live preview: the map of the dungeon the unsaved form describes, every problem
of it at once (dungeons/problems.py), and the parts of the form that depend on the whole
dungeon (each room's choice of exits, each step in words), swapped in as the designer types."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from markupsafe import Markup

from game.engine.dungeon import DungeonSpec, RoomSpec

from .forms import dungeon_from_forms, dungeon_problems, live_forms, ordered
from .mapdraw import read_only_map
from .maplayout import layout
from .problems import Problem


def sketch(data: dict[str, Any]) -> tuple[DungeonSpec | None, list[str]]:
    """The dungeon's shape, drawn even while a room's ability or text is unfinished: the top
    room and the named rooms its arrows reach; and the rooms no arrow reaches yet (drawn beside
    the map until they are connected)."""
    named: dict[str, dict[str, Any]] = {}
    for room in data["rooms"]:
        if room["name"] and room["name"] not in named:
            named[room["name"]] = room
    if not named:
        return None, []
    top = next(iter(named))
    reached = [top]
    for name in reached:  # grows as it goes: breadth first from the top room
        for nxt in named[name]["leads_to"]:
            if nxt in named and nxt not in reached:
                reached.append(nxt)
    rooms = {
        name: RoomSpec(
            name,
            named[name]["text"] or "…",
            tuple(n for n in named[name]["leads_to"] if n in reached and n != name),
            (),
            (),
        )
        for name in named
        if name in reached
    }
    spec = DungeonSpec(data["name"] or "(no name yet)", data.get("subtype"), rooms)
    return spec, [n for n in named if n not in reached]


def map_html(spec: DungeonSpec | None) -> Markup | None:
    if spec is None:
        return None
    try:
        return read_only_map(layout(spec))
    except (KeyError, ValueError):
        return None  # a shape the layout can't draw


def _anchored(problem: Problem, room_formset: Any) -> Problem:
    """The problem with the id of the input it is about, when the editor has one, so that its
    link in the list jumps to the field."""
    if problem.anchor or problem.room is None:
        return problem
    room_form = next((f for f in room_formset.forms if f.current_name() == problem.room), None)
    if room_form is None:
        return problem
    form, field = room_form, problem.field or "name"
    if problem.step is not None:
        steps = [
            f
            for nested in getattr(room_form, "nested_formsets", [])
            for f in ordered(live_forms(nested))
        ]
        if not 0 < problem.step <= len(steps):
            return problem
        form, field = steps[problem.step - 1], problem.field or "op"
    if field not in form.fields:
        return problem
    return replace(problem, anchor=form[field].auto_id or "")


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
    problems = [_anchored(p, room_formset) for p in problems]
    spec, unconnected = sketch(data)
    return {
        "map": map_html(spec),
        "unconnected": unconnected,
        "problems": problems,
        "room_forms": room_formset.forms,
        "step_forms": steps,
        "rooms_count": len(data["rooms"]),
    }
