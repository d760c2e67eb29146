"""Random play: seeded games between the preset decks never crash, keep the invariants, end,
and replay from their answer log to the identical state. Every pairing of preset decks plays."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.game import Engine, replay
from tests.sizes import sized

from .helpers import new_game

BLOCKS = 10
GAMES_PER_BLOCK = sized(small=4, full=20)
MAX_DECISIONS = 20000
LIFE_LINE = re.compile(r"^(\w+) .*\(now (-?\d+)\)")
PAIRINGS = list(itertools.permutations(STARTER_DECKS.values(), 2))


def _zone_count(game: Engine, owner: str) -> int:
    g = game.state
    p = g.player(owner)
    n = sum(1 for z in (p.library, p.hand, p.graveyard, p.exile) for o in z if not o.token)
    n += sum(1 for o in g.battlefield if o.owner == owner and not o.token)
    n += sum(
        1 for s in g.stack if s.card is not None and s.card.owner == owner and not s.card.token
    )
    return n


def _card_ids(game: Engine) -> list[int]:
    g = game.state
    ids = [o.id for o in g.battlefield if not o.token]
    for p in g.players:
        ids += [o.id for z in (p.library, p.hand, p.graveyard, p.exile) for o in z if not o.token]
    ids += [s.card.id for s in g.stack if s.card is not None]
    return ids


def play_checked(seed: int) -> Engine:
    alice, bob = PAIRINGS[seed % len(PAIRINGS)]
    game = new_game(seed, {"alice": alice, "bob": bob})
    g = game.state
    sizes = {p.name: _zone_count(game, p.name) for p in g.players}
    rng = random.Random(seed)
    completed = {p.name: [] for p in g.players}
    for _ in range(MAX_DECISIONS):
        d = game.pending
        if d is None:
            break
        life = {p.name: p.life for p in g.players}
        log_len = len(g.log)
        game.answer(d.player, random_answer(d, rng))
        # Every card is in exactly one zone.
        ids = _card_ids(game)
        assert len(ids) == len(set(ids)), f"seed {seed}: a card is in two zones"
        for p in g.players:
            assert _zone_count(game, p.name) == sizes[p.name], f"seed {seed}: {p.name} lost a card"
            # Life only changes through logged events.
            if p.life != life[p.name]:
                new_lines = g.log[log_len:]
                assert any(
                    (m := LIFE_LINE.match(line))
                    and m.group(1) == p.name
                    and int(m.group(2)) == p.life
                    for line in new_lines
                ) or any(
                    f"{p.name} " in line and f"(now {p.life})" in line for line in new_lines
                ), f"seed {seed}: {p.name}'s life changed to {p.life} without a log line"
            # One dungeon at most, its marker in one of its rooms; completions only grow.
            if p.dungeon is not None:
                assert p.dungeon.room in p.dungeon.spec.rooms
            assert p.completed[: len(completed[p.name])] == completed[p.name]
            completed[p.name] = list(p.completed)
        assert sum(p.initiative for p in g.players) <= 1, f"seed {seed}: two initiatives"
    assert game.pending is None and g.over, f"seed {seed}: the game did not end"
    assert g.winner is not None
    return game


@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_games_keep_invariants_and_replay_identically(block):
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        game = play_checked(seed)
        again = replay(game.setup, game.answers)
        assert again.state_json() == game.state_json(), f"seed {seed}: replay differs"
