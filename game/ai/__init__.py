"""The computer opponent: three levels that decide from what their seat may know.

`decide(level, game, seat, seed)` returns an answer that `game.answer(seat, ...)` accepts for
`game.pending` (which must be `seat`'s decision). It never changes `game`, and for the same
visible information and seed it returns the same answer (docs/ai.md), unless a `deadline` cuts
Hard's search short.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .policy import Policy

if TYPE_CHECKING:
    from game.engine.game import Engine

LEVELS = ("easy", "medium", "hard")


def decide(
    level: str, game: Engine, seat: str, seed: int, *, deadline: float | None = None
) -> str | list[str]:
    """The computer's answer to `seat`'s pending decision in `game`. `deadline`, a
    `time.monotonic()` instant, makes Hard answer with the best it has found when it comes
    (the answer then depends on the machine's speed; without one it does not)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    d = game.pending
    if d is None or d.player != seat:
        raise ValueError(f"there is no pending decision for {seat!r}")
    rng = random.Random(seed)
    if level == "easy":
        return Policy(seat, rng, sloppy=1.0).answer(game)
    if level == "medium":
        return Policy(seat, rng).answer(game)
    from .search import search_answer

    return search_answer(game, seat, seed, deadline)


__all__ = ["LEVELS", "decide"]
