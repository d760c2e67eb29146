"""A bot that picks uniformly among the legal options (for property tests and benchmarks)."""

from __future__ import annotations

import random

from .decisions import Decision, IllegalAnswer
from .game import Engine


def random_answer(d: Decision, rng: random.Random) -> str | list[str]:
    ids = [o.id for o in d.options]
    if d.ordered:
        rng.shuffle(ids)
        return ids
    if not d.multi:
        return rng.choice(ids)
    for _ in range(50):
        k = rng.randint(d.min_count, d.max_count)
        pick = rng.sample(ids, k)
        if d.check is None or d.check([d.option(i) for i in pick]) is None:
            return pick
    return ids[: d.min_count]  # the smallest legal choice (an empty declaration, usually)


def play_random_game(game: Engine, seed: int, max_decisions: int = 5000) -> int:
    """Play until the game ends or the cap is reached; returns the number of decisions."""
    rng = random.Random(seed)
    n = 0
    while game.pending is not None and n < max_decisions:
        d = game.pending
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)
        n += 1
    return n
