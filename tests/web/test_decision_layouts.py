"""Each layout of the registry of decision kinds (game/engine/kinds.py, LAYOUTS) is a branch of
the prompt panel (`prompt_panel` in templates/jinja2/game/_macros.html), and what it sends is
what the registry says, each a field the action parser takes (game/forms/actions.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dungeons.maplayout import layout as map_layout
from dungeons.official import official_dungeons
from game import board
from game.board.text import library_places
from game.board.viewmodel import Division, Option, Prompt, Recipient
from game.engine.kinds import KINDS, LAYOUTS
from game.forms.actions import FIELDS

MACROS = Path(__file__).resolve().parents[2] / "templates" / "jinja2" / "game" / "_macros.html"
# What every form of the board sends, whatever the decision.
EVERY_FORM = {"action", "version", "action_id", "csrfmiddlewaretoken"}
_FIELD = re.compile(r'\bname="([^"]+)"')


def test_the_prompt_panel_has_a_branch_for_each_layout_and_no_other():
    panel = MACROS.read_text(encoding="utf-8").partition("{% macro prompt_panel(")[2]
    panel = panel.partition("{%- endmacro %}")[0]
    branches = re.findall(r'\{% (?:el)?if prompt\.layout == "(\w+)" %\}', panel)
    assert sorted(branches) == sorted(LAYOUTS)


def test_every_kind_shows_in_a_layout_of_the_panel():
    assert {k.layout for k in KINDS.values()} <= set(LAYOUTS)


def _option(i: int, option_id: str, label: str, objs: tuple[int, ...] = ()) -> Option:
    return Option(id=option_id, dom_id=f"opt-{i}", label=label, objs=objs, mana=False, text="")


def _prompt(layout: str) -> tuple[Prompt, list, object]:
    """A prompt of `layout` with two options, and the maps the panel draws for it."""
    dungeons = official_dungeons()
    spec = next(iter(dungeons.values()))
    options: tuple[Option, ...] = (_option(0, "o1", "Goblin", (1,)), _option(1, "o2", "Zombie"))
    choice_maps: list = []
    room_map = None
    division = None
    if layout == "priority":
        options = (_option(0, "pass", "pass"), _option(1, "cast:7", "cast Goblin", (7,)))
    elif layout == "dungeons":
        options = tuple(_option(i, f"dungeon:{n}", n) for i, n in enumerate(dungeons))
        choice_maps = [map_layout(s, card_option=f"dungeon:{n}") for n, s in dungeons.items()]
    elif layout == "rooms":
        rooms = spec.rooms[spec.top].leads_to
        options = tuple(_option(i, f"room:{r}", r) for i, r in enumerate(rooms))
        room_map = map_layout(spec, current=spec.top, room_options={o.label: o.id for o in options})
    elif layout == "division":
        options = (
            _option(0, "cd:3,0", "3 to Goblin"),
            _option(1, "cd:2,1", "2 to Goblin, 1 to Zombie"),
        )
        division = Division(
            total=3,
            recipients=(Recipient("Goblin", "o1", 3, 2), Recipient("Zombie", "o2", 0, 2)),
            filled_id="cd:3,0",
            legal_ids="cd:3,0 cd:2,1",
        )
    prompt = Prompt(
        kind="test",
        layout=layout,
        text="Decide",
        options=options,
        pass_options=options[:1] if layout == "priority" else (),
        play_options=options[1:] if layout == "priority" else (),
        act_options=(),
        mana_options=(),
        multi=layout in ("checkboxes", "placement"),
        ordered=layout == "order",
        min=0,
        max=len(options),
        positions=tuple(range(1, len(options) + 1)),
        division=division,
        places=library_places(len(options)) if layout == "placement" else (),
    )
    return prompt, choice_maps, room_map


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_each_layout_sends_the_fields_the_registry_names(name):
    prompt, choice_maps, room_map = _prompt(name)
    m = board.macros()
    f = board.FormData("/g/abc/act/", 3, "token", m)
    html = str(m.prompt_panel(prompt, f, choice_maps, room_map, "Pass"))
    sent = {re.sub(r"^pos:.*", "pos:<id>", n) for n in _FIELD.findall(html)} - EVERY_FORM
    assert sent == set(LAYOUTS[name].sends), (name, sent)
    for field in LAYOUTS[name].sends:
        assert field in FIELDS or field.startswith("pos:"), field
