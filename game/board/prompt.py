"""The viewer's own decision as the page shows it: the `Prompt` (its options grouped for the
panel, whose each named object is, the keys) and the options tied to an object, drawn as
buttons on the card or permanent they name."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from game.engine.kinds import (
    ASSIGN_COMBAT_DAMAGE,
    ASSIGN_COMBAT_DAMAGE_PART,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    DIVIDE,
    PLACEMENT,
    PLACEMENT_MAX,
    PRIORITY,
    layout_of,
)

from .text import library_places, pick_label
from .viewmodel import Division, Option, OptionGroup, Prompt

if TYPE_CHECKING:
    from game.engine.decisions import Decision

    from . import whose

ObjActions = dict[int, tuple[Option, ...]]
_NUMBERED = re.compile(r" #\d+$")  # the suffix that tells identical options apart
# Decisions whose options are read as a whole (a division of damage among several objects):
# shown in the prompt only, not as a button on the first object each names.
LIST_ONLY = frozenset({DIVIDE, ASSIGN_COMBAT_DAMAGE, ASSIGN_COMBAT_DAMAGE_PART})
# Decisions whose first option is the usual answer (combat damage: lethal damage to each blocker
# in order, the rest to the last one), said so on it; it is not styled as recommended.
USUAL_FIRST = frozenset({ASSIGN_COMBAT_DAMAGE})


def prompt_of(d: Decision, owners: dict[str, whose.Owned], split: Division | None = None) -> Prompt:
    """The viewer's decision. Outside a priority decision an option that names objects or
    players says whose they are ("your Goblin", "Bob's Varis", whose.py); each option names
    its objects for the board's highlighting (`marks`) and gets a key of the keyboard. In a
    priority decision the panel shows the same action on identical cards in the hand once
    (whose.Owned.alike): the engine's options, and their labels, stay one per card."""
    options = []
    for i, o in enumerate(d.options):
        owned = owners.get(o.id)
        options.append(
            Option(
                id=o.id,
                dom_id=f"opt-{i}",
                label=o.label,
                objs=tuple(o.objs),
                mana=o.data == "mana",
                text=o.data if isinstance(o.data, str) and o.data != "mana" else "",
                display=(owned.display if owned else o.label)
                + (" (the usual division)" if i == 0 and d.kind in USUAL_FIRST else ""),
                marks=owned.marks if owned else " ".join(f"o{x}" for x in o.objs),
                ticked=o.id in d.ticked,
            )
        )
    groups: dict[str, list[Option]] = {"pass": [], "play": [], "act": [], "mana": []}
    layout = layout_of(d.kind, d.multi)
    shown: tuple[Option, ...] = ()
    if d.kind == PRIORITY:
        alike = {o_id: owned.alike for o_id, owned in owners.items() if owned.alike}
        options = _unnumbered(options, alike)
        for o in options:
            if o.id == "pass":
                groups["pass"].append(o)
            elif o.mana:
                groups["mana"].append(o)
            elif o.label.startswith(("cast ", "play ")):
                groups["play"].append(o)
            else:
                groups["act"].append(o)
        # The panel shows one button per choice; the keys 1-9 go to its buttons in its order.
        play, act = _one_per_choice(groups["play"], alike), _one_per_choice(groups["act"], alike)
        keyed = _with_keys(play + act)
        groups["play"], groups["act"] = keyed[: len(play)], keyed[len(play) :]
        # Every option stays in `options` (each card in the hand keeps its own button).
        keys = {o.id: o.key for o in keyed}
        options = [replace(o, key=keys.get(o.id, "")) for o in options]
    sided: tuple[OptionGroup, ...] = ()
    if d.kind != PRIORITY:
        alike = {o_id: owned.alike for o_id, owned in owners.items() if owned.alike}
        if layout == "buttons" and alike:
            # Identical hidden cards are one choice in the panel ("Forest (2)"); each card keeps
            # its own button, and any of them answers for one copy. They are the viewer's own
            # cards, so there is one side and nothing to group.
            options = _counted(options, alike)
            shown = tuple(_with_keys(_one_per_choice(options, alike)))
            keys = {o.id: o.key for o in shown}
            options = [replace(o, key=keys.get(o.id, "")) for o in options]
        else:
            if layout in ("buttons", "checkboxes") and d.kind not in UNGROUPED:
                options, sided = _by_side(options, owners)
            options = _with_keys(options)  # in the order shown: the keys follow the groups
            keyed = {o.id: o for o in options}
            sided = tuple(replace(g, options=tuple(keyed[o.id] for o in g.options)) for g in sided)
    if layout == "division" and split is None:
        layout = "buttons"  # options that do not read as amounts: the list alone (division.py)
    if layout == PLACEMENT and len(options) > PLACEMENT_MAX:
        layout = "checkboxes"  # more than its form may send: the engine's two prompts
    return Prompt(
        kind=d.kind,
        layout=layout,
        text=d.prompt,
        options=tuple(options),
        pass_options=tuple(groups["pass"]),
        play_options=tuple(groups["play"]),
        act_options=tuple(groups["act"]),
        mana_options=tuple(groups["mana"]),
        multi=d.multi,
        ordered=d.ordered,
        min=d.min_count,
        max=d.max_count,
        positions=tuple(range(1, len(options) + 1)),
        division=split,
        all_ids=_attack_all(d),
        shown=shown,
        groups=sided,
        places=library_places(len(options)) if layout == PLACEMENT else (),
    )


# Decisions whose options pair things of both sides (an attacker and whom it attacks, a blocker
# and its attacker): not grouped by side.
UNGROUPED = frozenset({DECLARE_ATTACKERS, DECLARE_BLOCKERS}) | LIST_ONLY


def _by_side(
    options: list[Option], owners: dict[str, whose.Owned]
) -> tuple[list[Option], tuple[OptionGroup, ...]]:
    """The options in the table's order when they name things of both sides: the other
    player's (the top of the table) first, then the viewer's, then those that name nobody's
    (each group keeps the engine's order; the ids and labels are the engine's)."""
    sides: dict[str, list[Option]] = {}
    mine = ""
    for o in options:
        owned = owners.get(o.id)
        side = owned.side if owned else ""
        if owned and owned.mine:
            mine = side
        sides.setdefault(side, []).append(o)
    if len([side for side in sides if side]) < 2:
        return options, ()
    order = sorted(sides, key=lambda side: (side == "", side == mine))
    groups = tuple(OptionGroup(side, tuple(sides[side])) for side in order)
    return [o for g in groups for o in g.options], groups


def _attack_all(d: Decision) -> tuple[str, ...]:
    """The options of "Attack with all": each creature able to attack, attacking the player
    (an option's data is the creature and whom it attacks: a player's name or a planeswalker's
    id, combat.declare_attackers)."""
    if d.kind != DECLARE_ATTACKERS:
        return ()
    return tuple(
        o.id for o in d.options if isinstance(o.data, tuple) and isinstance(o.data[1], str)
    )


def _unnumbered(options: list[Option], alike: dict[str, str]) -> list[Option]:
    """Interchangeable options (the same action on identical cards in the hand) shown without
    the number that tells them apart in the engine's labels: "play Plains", on each card too."""
    counts = Counter(alike.values())
    return [
        replace(o, display=_NUMBERED.sub("", o.display))
        if counts[alike.get(o.id, "")] > 1 and o.id in alike
        else o
        for o in options
    ]


def _counted(options: list[Option], alike: dict[str, str]) -> list[Option]:
    """A choice of a card hidden in the viewer's hand or library as its name, and how many
    identical ones there are ("Forest (2)"): which copy, or where it lies, is nothing to
    choose, and the prompt says where they are."""
    counts = Counter(alike.values())
    shown = []
    for o in options:
        if o.id in alike:
            n = counts[alike[o.id]]
            o = replace(o, display=_NUMBERED.sub("", o.label) + (f" ({n})" if n > 1 else ""))
        shown.append(o)
    return shown


def _one_per_choice(options: list[Option], alike: dict[str, str]) -> list[Option]:
    """The panel's buttons: one for each group of interchangeable options, answering with the
    first one's id and marking every copy on the board."""
    shown: list[Option] = []
    first: dict[str, int] = {}  # a group's place among `shown`
    for o in options:
        group = alike.get(o.id)
        if group is None:
            shown.append(o)
        elif group in first:
            i = first[group]
            shown[i] = replace(shown[i], marks=f"{shown[i].marks} {o.marks}".strip())
        else:
            first[group] = len(shown)
            shown.append(o)
    return shown


# The keys of the options, in order: the digits, then letters that no other key of the table
# takes (A attacks with all; I and Z open a card's zoom, static/js/zoom.js). Passing is Space.
OPTION_KEYS = "1234567890bcdefghjklmnopqrstuvwxy"


def _with_keys(options: list[Option]) -> list[Option]:
    """The options with their keys, in order (passing has Space instead; past the 33rd, none)."""
    keys = iter(OPTION_KEYS)
    return [o if o.id == "pass" else replace(o, key=next(keys, "")) for o in options]


def obj_actions(prompt: Prompt | None) -> ObjActions:
    """Options tied to an object: buttons on the hand card or the permanent they name (in a
    multi-select, the checkbox's label, with a short text; a mana ability, the source's button
    to tap it by hand: the mana waits in the pool for the next spell)."""
    found: dict[int, list[Option]] = {}
    if prompt is None:
        return {}
    if prompt.layout == PLACEMENT:  # cards of a library: nothing on the table to put it on
        return {}
    for o in prompt.options:
        if not o.objs or prompt.multi or prompt.ordered or prompt.kind in LIST_ONLY:
            continue
        if o.mana:  # tapping a source by hand: a "tap" button on it, its cost as the title
            cost = _NUMBERED.sub("", o.label.split(": ", 1)[-1])
            short = "tap" if cost == "{T}" else cost
            o = replace(o, short=short, text=f"{cost}: add its mana to your pool now")
        elif prompt.kind != PRIORITY:  # on the card itself its name goes without saying
            o = replace(o, short=pick_label(prompt.kind, o.display))
        found.setdefault(o.objs[0], []).append(o)
    if prompt.multi:
        for o in prompt.options:
            for obj in o.objs[:1]:
                short = pick_label(prompt.kind, o.display)
                found.setdefault(obj, []).append(replace(o, checkbox=True, short=short))
    return {obj: tuple(opts) for obj, opts in found.items()}
