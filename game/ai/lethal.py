"""Lethal first: before any other play, a play that wins the game now. Burn for at least the
other player's life at their face, or an effect whose steps read as winning (a room that drains
their last life, reached by a venture: the steps' `Reading.worth` says `WINS`). Attacks look
for lethal in combat.py, a pump after blocks in tricks.py."""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.decisions import Option
from game.engine.ops import WINS, reading
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
    effect, specs, _ = found
    face = ("player", g.opponent(seat))
    total = 0
    for step in effect:
        target = step.get("target")
        if not reading(step).damage or not isinstance(target, int) or target >= len(specs):
            continue
        if face in candidates(g, specs[target].kind, seat):
            total += int(step.get("amount") or specs[target].divided or 0)
    return total


__all__ = ["face_damage", "lethal_play"]
