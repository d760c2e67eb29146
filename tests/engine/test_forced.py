"""Forced answers (engine/forced.py) read public information only: in random games of the preset
decks, every decision of a kind whose one answer may be given for the player names nothing in a
hand or a library, and such decisions with one answer do come up."""

from __future__ import annotations

import random

import pytest

from game.engine.bot import random_answer
from game.engine.forced import forced_answer
from game.engine.kinds import KINDS

from .helpers import new_game


@pytest.mark.parametrize("seed", range(4))
def test_a_forced_answer_is_given_only_where_every_option_is_public(seed):
    game = new_game(seed)
    rng = random.Random(seed)
    public_kinds = 0
    for _ in range(1500):
        d = game.pending
        if d is None:
            break
        if KINDS[d.kind].forced_public:
            public_kinds += 1
            g = game.state
            for o in d.options:
                for obj_id in o.objs:
                    thing = g.find(obj_id)
                    zone = getattr(thing, "zone", "battlefield")
                    assert zone not in ("hand", "library"), (d.kind, o.label, zone)
        game.answer(d.player, random_answer(d, rng))
    assert public_kinds > 0


def test_some_random_game_has_a_forced_answer():
    found = 0
    for seed in range(4):
        game = new_game(seed)
        rng = random.Random(seed)
        for _ in range(1500):
            d = game.pending
            if d is None:
                break
            found += forced_answer(d) is not None
            game.answer(d.player, random_answer(d, rng))
    assert found > 0
