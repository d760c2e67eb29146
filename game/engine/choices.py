"""Asking players: the small decision helpers every rules module uses.

Each helper is a generator: it yields a `Decision` and returns the answer, so callers write
`chosen = yield from choose_cards(...)`.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from .carddef import TargetSpec
from .decisions import Decision, Option
from .kinds import CHOOSE_TARGETS, DIVIDE, YES_NO
from .state import GameState, Obj, StackItem
from .targets import Ref, candidates, ref_name, ref_objs

Gen = Generator[Decision, Any, Any]


def ask(decision: Decision) -> Gen:
    answer = yield decision
    return answer


def yes_no(g: GameState, player: str, prompt: str) -> Gen:
    d = Decision(player, YES_NO, prompt, [Option("yes", "yes"), Option("no", "no")])
    return (yield d) == "yes"


def choose_objects(
    g: GameState,
    player: str,
    objs: list[Obj],
    n: int,
    prompt: str,
    kind: str,
    *,
    up_to: bool = False,
    auto_single: bool = True,
) -> Gen:
    """Choose `n` of `objs` (all of them if there are no more than `n` and the choice is forced).

    A mandatory choice with no real alternative is made for the player and logged
    (docs/scenarios.md, "Which choices are asked").
    """
    if not objs or n <= 0:
        return []
    if not up_to and len(objs) <= n and auto_single:
        if len(objs) == 1:
            g.note(f"{player} has exactly one choice for {kind}: {objs[0].name}")
        return list(objs)
    options = [Option(f"o{o.id}", o.name, (o.id,)) for o in objs]
    multi = n > 1 or up_to
    d = Decision(
        player,
        kind,
        prompt,
        options,
        multi=multi,
        min_count=0 if up_to else min(n, len(objs)),
        max_count=min(n, len(objs)),
    )
    answer = yield d
    ids = answer if isinstance(answer, list) else [answer]
    by_id = {f"o{o.id}": o for o in objs}
    return [by_id[i] for i in ids]


def one_per_name(cards: list[Obj]) -> list[Option]:
    """Cards in a hidden zone offered once per name, in the order of their names: copies are
    interchangeable, and which copy, or where it lies, is nothing to choose. Each option takes
    the first copy; the other copies' ids and the numbered labels they were offered under before
    ("Swamp #2") are still accepted (a stored game's answers, a scenario file's)."""
    copies: dict[str, list[Obj]] = {}
    for c in cards:
        copies.setdefault(c.name, []).append(c)
    return [
        Option(
            f"o{same[0].id}",
            name,
            (same[0].id,),
            former=tuple(f"{name} #{i}" for i in range(1, len(same) + 1)) if len(same) > 1 else (),
            former_ids=tuple(f"o{c.id}" for c in same[1:]),
        )
        for name, same in sorted(copies.items())
    ]


def choose_targets(g: GameState, item: StackItem) -> Gen:
    """Choose every target phrase of `item` in printed order (CR 601.2c, 603.3d).

    Returns False when a phrase that needs a target has no legal choice.
    """
    chosen_so_far: set[Ref] = set()
    item.targets = []
    for spec in item.target_specs:
        exclude = chosen_so_far if spec.other else None
        legal = candidates(
            g, spec.kind, item.controller, exclude, item.extra.get("source_is_creature", False)
        )
        if len(legal) < spec.min:
            return False
        if not legal:
            item.targets.append([])
            continue
        options = [Option(f"t{i}", ref_name(g, r), ref_objs(r), r) for i, r in enumerate(legal)]
        multi = spec.max > 1 or spec.min == 0
        d = Decision(
            item.controller,
            CHOOSE_TARGETS,
            f"{item.name}: choose {spec.phrase}{what_it_gets(item, spec)}",
            options,
            multi=multi,
            min_count=spec.min,
            max_count=min(spec.max, len(legal)),
        )
        answer = yield d
        ids = answer if isinstance(answer, list) else [answer]
        refs = [d.option(i).data for i in ids]
        item.targets.append(refs)  # type: ignore[arg-type]
        chosen_so_far.update(refs)  # type: ignore[arg-type]
        if spec.divided and refs:
            item.division = yield from choose_division(g, item, refs, spec.divided)  # type: ignore[arg-type]
    return True


def what_it_gets(item: StackItem, spec: TargetSpec) -> str:
    """For a text with several target phrases, what this phrase's target gets, from the
    sentence the phrase begins (", which gets +2/+0 and gains first strike until end of turn"):
    "choose target creature", then "choose up to one other target creature", did not say which
    of Rally Maneuver's two creatures gets first strike (a playtest). The phrases are matched to
    the sentences in order, so two alike take one sentence each. "" otherwise."""
    if len(item.target_specs) < 2:
        return ""
    sentences = iter(re.split(r"(?<=\.)\s+", item.text))  # taken in order, each once
    for other in item.target_specs:
        begins = other.phrase.lower() + " "
        sentence = next((x for x in sentences if x.lower().startswith(begins)), None)
        if other is spec:
            rest = sentence[len(spec.phrase) :].strip().rstrip(".") if sentence else ""
            return f", which {rest}" if rest else ""
    return ""


def choose_division(g: GameState, item: StackItem, refs: list[Ref], total: int) -> Gen:
    """Divide damage among targets, at least one to each (CR 601.2d)."""
    if len(refs) == 1:
        return [total]
    splits = sorted(
        {p for p in _compositions(total, len(refs))},
        reverse=True,
    )
    names = [ref_name(g, r) for r in refs]
    # Each option names its recipients' objects in label order, so a scenario alias can stand
    # for a name and the board can point at the cards.
    objs = tuple(obj_id for r in refs for obj_id in ref_objs(r))
    options = [
        Option(f"d{i}", ", ".join(f"{n} to {name}" for n, name in zip(s, names, strict=True)), objs)
        for i, s in enumerate(splits)
    ]
    d = Decision(item.controller, DIVIDE, f"{item.name}: divide {total} damage", options)
    answer = yield d
    return list(splits[int(answer[1:])])


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)] if total >= 1 else []
    out = []
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            out.append((first, *rest))
    return out


def order_items(
    g: GameState,
    player: str,
    names: list[str],
    prompt: str,
    kind: str,
    objs: list[int | None] | None = None,
) -> Gen:
    """Ask for an order of several things; the answer lists them first-to-last."""
    ids = objs or [None] * len(names)
    options = [
        Option(f"i{i}", n, (o,) if o is not None else ())
        for i, (n, o) in enumerate(zip(names, ids, strict=True))
    ]
    d = Decision(player, kind, prompt, options, ordered=True)
    answer = yield d
    return [int(a[1:]) for a in answer]


__all__ = [
    "Gen",
    "ask",
    "choose_division",
    "choose_objects",
    "choose_targets",
    "order_items",
    "yes_no",
]
