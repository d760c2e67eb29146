"""What every family of rules of thumb builds on: the seat it answers for, its random source and
its sloppiness (Easy's slips), and the facts about the position that several families read."""

from __future__ import annotations

import random
from collections import Counter

from game.engine.continuous import chars
from game.engine.state import GameState, Obj


class Rules:
    def __init__(self, seat: str, rng: random.Random, *, sloppy: float = 0.0) -> None:
        self.seat = seat
        self.rng = rng
        self.sloppy = sloppy

    def slip(self, chance: float) -> bool:
        """An Easy player's slip, at `chance` times its sloppiness."""
        return self.sloppy > 0 and self.rng.random() < chance * self.sloppy


def is_creature(g: GameState, o: Obj) -> bool:
    return "Creature" in chars(g, o).types


def colors_needed(g: GameState, seat: str) -> Counter[str]:
    """The coloured mana the seat's hand asks for, by colour."""
    need: Counter[str] = Counter()
    for o in g.player(seat).hand:
        if o.card.cost is not None:
            for color, n in o.card.cost.colored:
                need[color] += n
    return need
