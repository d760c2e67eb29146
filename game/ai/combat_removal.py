"""Removal in combat: once blocks are known (the declare blockers step, on either side of the
attack), a spell or ability that takes one of the other player's creatures in the fight away
(destroys, exiles or returns it, or deals it damage that kills it) is played where that changes
the fight by at least what removal is kept for: the blocker that would kill the seat's attacker,
the attacker that would kill its blocker or deal it lethal damage. A good player's "kill the
blocker after blocks", where holding the removal for later would lose the creature now.

The gain is measured with the combat calculator (tricks.combat_after_blocks): the fight with the
creature taken out against the fight as it stands, plus the creature itself, which is gone either
way once the spell resolves. It must reach `spells.THREAT`, the worth of a creature removal is
kept for, and beat the spell's best target outside the fight.

`priority.py` asks `combat_removal` for a play; the targets rule asks `removal_targets` where the
spell goes.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.carddef import Step, TargetSpec
from game.engine.decisions import Decision, Option
from game.engine.ops import reading
from game.engine.state import GameState, Obj
from game.engine.targets import candidates

from .answers import Answer
from .spells import THREAT, Text, dies, gain
from .tricks import combat_after_blocks, effect_of


def combat_removal(g: GameState, seat: str, options: Sequence[Option]) -> str | None:
    """The removal worth playing in the fight now, if any (the one that gains most)."""
    if not _after_blocks(g):
        return None
    best: tuple[float, str] | None = None
    for o in options:
        found = effect_of(g, o)
        if found is None:
            continue
        effect, specs, _source = found
        plan = _best_target(g, seat, effect, specs)
        if plan is not None and (best is None or plan[0] > best[0]):
            best = (plan[0], o.id)
    return best[1] if best else None


def removal_targets(g: GameState, seat: str, d: Decision) -> Answer | None:
    """The target of the seat's removal being cast in the fight now: the creature whose going
    changes the fight most. None when `d` is not about such a spell (the targets rule decides)."""
    if not _after_blocks(g):
        return None
    name = d.prompt.split(": ", 1)[0]
    item = next((i for i in reversed(g.stack) if i.controller == seat and i.name == name), None)
    if item is None or item.targets:
        return None
    plan = _best_target(g, seat, item.effect, item.target_specs)
    if plan is None:
        return None
    for opt in d.options:
        if opt.data == ("obj", plan[1]):
            return [opt.id] if d.multi else opt.id
    return None


def _after_blocks(g: GameState) -> bool:
    c = g.combat
    return g.step == "declare_blockers" and c is not None and bool(c.attackers)


def _best_target(
    g: GameState, seat: str, effect: Sequence[Step], specs: Sequence[TargetSpec]
) -> tuple[float, int] | None:
    """What taking the best creature of the other player's out of the fight gains, and its id;
    None when no creature of the fight is worth the removal (see the module's docstring)."""
    if len(specs) != 1 or specs[0].divided:
        return None
    text = Text(list(effect), list(specs))
    steps = text.steps(0)
    refs = candidates(g, specs[0].kind, seat)
    bodies, worth = combat_after_blocks(g, seat)
    base = worth(bodies)
    elsewhere = max(
        (gain(g, seat, text, 0, r) for r in refs if r[0] != "obj" or r[1] not in bodies),
        default=0.0,
    )
    best: tuple[float, int] | None = None
    for what, oid in refs:
        obj = g.find(oid) if what == "obj" and oid in bodies else None
        if obj is None or obj.controller == seat or not _takes_away(g, steps, obj):
            continue
        rest = {i: b for i, b in bodies.items() if i != oid}
        gained = worth(rest) + bodies[oid].value - base
        if gained >= max(THREAT, elsewhere) and (best is None or gained > best[0]):
            best = (gained, oid)
    return best


def _takes_away(g: GameState, steps: Sequence[Step], obj: Obj) -> bool:
    """Do the steps take the creature out of the fight: destroyed, exiled or returned, or dealt
    damage that kills it?"""
    for s in steps:
        r = reading(s)
        if r.removes and r.hurts(s):
            return True
        if r.damage and dies(g, obj, int(s.get("amount", 0) or 0)):
            return True
    return False


__all__ = ["combat_removal", "removal_targets"]
