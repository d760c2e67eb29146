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
    opp = g.opponent(seat)
    life = g.player(opp).life
    for o in options:
        found = effect_of(g, o)
        if found is None:
            continue
        effect, specs, _ = found
        face = 0
        for step in effect:
            target = step.get("target")
            if not reading(step).damage or not isinstance(target, int) or target >= len(specs):
                continue
            spec = specs[target]
            if ("player", opp) in candidates(g, spec.kind, seat):
                face += int(step.get("amount") or spec.divided or 0)
        if face >= life:
            return o.id
        if sum(reading(s).value(g, seat, s) for s in effect) >= WINS:
            return o.id
    return None


__all__ = ["lethal_play"]
