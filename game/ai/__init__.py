"""The computer opponent: three levels that decide from what their seat may know.

`decide(level, game, seat, seed)` returns an answer that `game.answer(seat, ...)` accepts for
`game.pending` (which must be `seat`'s decision). It never changes `game`, and for the same
visible information and seed it returns the same answer (docs/ai.md).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from game.engine.bot import random_answer

if TYPE_CHECKING:
    from game.engine.game import Engine

LEVELS = ("easy", "medium", "hard")


def decide(level: str, game: Engine, seat: str, seed: int) -> str | list[str]:
    """The computer's answer to `seat`'s pending decision in `game`."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    d = game.pending
    if d is None or d.player != seat:
        raise ValueError(f"there is no pending decision for {seat!r}")
    return random_answer(d, random.Random(seed))


__all__ = ["LEVELS", "decide"]
