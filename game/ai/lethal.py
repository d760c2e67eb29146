"""Lethal first: before any other play, a play that wins the game now. Burn for at least the
other player's life at their face, or an effect whose steps read as winning (a room that drains
their last life, reached by a venture: the steps' `Reading.worth` says `WINS`). Attacks look
for lethal in combat.py (with the burn the seat can still cast after combat, `burn_reach`), a
pump after blocks in tricks.py."""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.carddef import Step, TargetSpec
from game.engine.decisions import Option
from game.engine.mana import plan_payment
from game.engine.ops import WINS, reading
from game.engine.payment import mana_sources
from game.engine.state import GameState
from game.engine.targets import candidates

from .tricks import effect_of


def lethal_play(g: GameState, seat: str, options: Sequence[Option]) -> str | None:
    """The first option that wins now, if any."""
    life = g.player(g.opponent(seat)).life
    for o in options:
        found = effect_of(g, o)
        if found is None:
            continue
        if face_damage(g, seat, o) >= life:
            return o.id
        if sum(reading(s).value(g, seat, s) for s in found[0]) >= WINS:
            return o.id
    return None


def face_damage(g: GameState, seat: str, o: Option) -> int:
    """The damage a priority option (a spell cast, an ability activated) can deal to the other
    player's face: its damage steps whose target may be that player (0 for anything else)."""
    found = effect_of(g, o)
    if found is None:
        return 0
    return _at_the_face(g, seat, found[0], found[1])


def burn_reach(g: GameState, seat: str) -> int:
    """The most damage one spell of the seat's hand can deal to the other player's face with the
    mana the seat has now (its untapped sources and its pool): what is left for after combat.
    One spell, because after combat `lethal_play` casts one at the face when it is lethal alone
    (and its divided damage goes there only then). Medium had kept a Yuan-Ti Malison home, which
    could not be blocked attacking alone, with Magic Missile in hand and the other player at 4:
    2 and 3 (the scripted aggro player's game)."""
    p = g.player(seat)
    sources = mana_sources(g, seat)
    best = 0
    for o in p.hand:
        face = o.card
        if face.cost is None or "Land" in face.types:
            continue
        damage = _at_the_face(g, seat, list(face.spell), list(face.spell_targets))
        if damage > best and plan_payment(face.cost, p.pool, sources) is not None:
            best = damage
    return best


def _at_the_face(g: GameState, seat: str, effect: list[Step], specs: list[TargetSpec]) -> int:
    """The damage `effect`'s steps deal to the other player's face where their target may be that
    player."""
    face = ("player", g.opponent(seat))
    total = 0
    for step in effect:
        target = step.get("target")
        if not reading(step).damage or not isinstance(target, int) or target >= len(specs):
            continue
        if face in candidates(g, specs[target].kind, seat):
            total += int(step.get("amount") or specs[target].divided or 0)
    return total


__all__ = ["burn_reach", "face_damage", "lethal_play"]
