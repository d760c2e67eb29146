"""Dividing an attacker's combat damage among its blockers (CR 510.1c), as its controller.

The division chosen kills the most worth: each blocker given lethal damage (its toughness less
the damage already marked, 1 with deathtouch: `combat_damage.lethal_damage`) counts its whole
worth, damage trampled over to the player half a point each (all of it when it is lethal). In a
first-strike damage step it also keeps the attacker alive where it can: a blocker killed by
first-strike damage deals none in the regular step (CR 510.4), so the division that kills the
deathtouch blocker first, or enough power, saves the attacker; a double striker blocked by a
2/1 and a 2/2 deathtouch kills the deathtouch one first. Ties keep the usual division (the
engine's first option). Hard's sampled games divide by this rule too, so the blocks it weighs
against a division are weighed against the one a player makes.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.combat_damage import lethal_damage
from game.engine.continuous import chars
from game.engine.decisions import Decision
from game.engine.state import GameState, Obj
from game.engine.worth import permanent_value

from .answers import Answer
from .features import WIN
from .rules import Rules

FIRST = frozenset({"first strike", "double strike"})
# A point of damage trampled over to the player, against a blocker's worth (a 2/2 is 4.2).
FACE_POINT = 0.5


class DivisionRules(Rules):
    def on_assign_combat_damage(self, g: GameState, d: Decision) -> Answer:
        attacker_id = (d.constraints or {}).get("attacker")
        attacker = g.permanent(attacker_id) if isinstance(attacker_id, int) else None
        if attacker is None or g.combat is None:
            return d.options[0].id
        blockers = [
            b for b in (g.permanent(x) for x in g.combat.blockers.get(attacker.id, ())) if b
        ]

        def score(i: int) -> tuple[float, int]:
            share = d.options[i].data
            assert isinstance(share, tuple)
            return (round(division_worth(g, attacker, blockers, share), 6), -i)

        return d.options[max(range(len(d.options)), key=score)].id


def division_worth(g: GameState, attacker: Obj, blockers: Sequence[Obj], share: tuple) -> float:
    """What a division of `attacker`'s damage (`share`: one amount per blocker in order, then
    with trample the amount to the player or planeswalker attacked) gains its controller."""
    killed = [
        b
        for b, amount in zip(blockers, share, strict=False)
        if amount > 0 and amount >= lethal_damage(g, attacker, b)
    ]
    worth = sum(permanent_value(g, b) for b in killed)
    over = share[len(blockers)] if len(share) > len(blockers) else 0
    defender = g.combat.attackers.get(attacker.id) if g.combat else None
    if over and isinstance(defender, str) and over >= g.player(defender).life:
        worth += WIN
    worth += over * FACE_POINT
    if _first_strike_step(g, attacker) and not _dies(g, attacker, blockers, killed):
        worth += permanent_value(g, attacker)
    return worth


def _first_strike_step(g: GameState, attacker: Obj) -> bool:
    """Whether `attacker` is dividing its first-strike damage (CR 510.4): it has first strike or
    double strike and has not dealt it yet."""
    c = g.combat
    return (
        c is not None
        and bool(FIRST & chars(g, attacker).keywords)
        and attacker.id not in c.dealt_first_strike
    )


def _dies(g: GameState, attacker: Obj, blockers: Sequence[Obj], killed: Sequence[Obj]) -> bool:
    """Whether the blockers' damage, this step's and the regular step's, kills `attacker` when
    first-strike damage kills `killed`: a blocker with first strike deals its damage now
    whatever happens to it; one without, only if it lives."""
    ac = chars(g, attacker)
    damage, deadly = attacker.damage, False
    for b in blockers:
        bc = chars(g, b)
        power = max(0, bc.power)
        lives = b not in killed
        if "double strike" in bc.keywords:
            strikes = 1 + lives  # now, and in the regular step if it lives
        elif "first strike" in bc.keywords:
            strikes = 1  # now only
        else:
            strikes = int(lives)  # in the regular step, if it lives
        dealt = power * strikes
        damage += dealt
        deadly = deadly or (dealt > 0 and "deathtouch" in bc.keywords)
    return deadly or damage >= ac.toughness
