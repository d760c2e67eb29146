"""Snapshots (engine/snapshots.py): a game resumed from a copy of its state at any point where
a snapshot may be taken goes on exactly as the game it was copied from. Random games between
the preset decks, with both kinds of seed (a whole number and a secret keyed stream), are
resumed from every such point and given the rest of their answers; the views at every later
point and the final state must be the same as the original's."""

from __future__ import annotations

import itertools
import random

import pytest

from dungeons.official import official_dungeons
from game.decks import STARTER_DECKS
from game.engine import snapshots
from game.engine.bot import play_random_game
from game.engine.game import Engine, GameSetup
from game.engine.rng import new_secret_seed

PAIRINGS = list(itertools.permutations(STARTER_DECKS.values(), 2))


def _played(i: int, seed: int | str) -> Engine:
    alice, bob = PAIRINGS[i % len(PAIRINGS)]
    game = Engine(
        GameSetup(["alice", "bob"], seed, {"alice": alice, "bob": bob}, official_dungeons())
    )
    play_random_game(game, i, max_decisions=600)
    return game


@pytest.mark.parametrize("i", range(6))
def test_a_game_resumed_from_a_snapshot_goes_on_as_the_original(i: int) -> None:
    original = _played(i, new_secret_seed() if i % 2 else i)
    log = original.answers
    # Walk the log once, taking a snapshot wherever one may be taken, and each view on the way.
    walker = Engine(original.setup)
    views = [walker.state_json()]
    taken: list[snapshots.Snapshot] = []
    for who, answer in log:
        serial = walker.state.step_serial
        walker.apply_logged(who, answer)
        views.append(walker.state_json())
        if snapshots.resumable(walker, serial):
            taken.append(snapshots.take(walker))
    assert len(taken) >= 10, "a 600-answer game has many step starts"
    rng = random.Random(i)
    for snap in rng.sample(taken, 8) + taken[-1:]:
        resumed = Engine.resumed(original.setup, snapshots.restore(snap), log[: snap.version])
        assert resumed.state_json() == views[snap.version]
        for k in range(snap.version, len(log)):
            resumed.apply_logged(*log[k])
            assert resumed.state_json() == views[k + 1], f"resumed at {snap.version}, answer {k}"
        assert resumed.state.rng.getstate() == original.state.rng.getstate()


def test_a_snapshot_is_not_changed_by_the_game_resumed_from_it() -> None:
    game = _played(1, 1)
    walker = Engine(game.setup)
    snap = None
    for who, answer in game.answers:
        serial = walker.state.step_serial
        walker.apply_logged(who, answer)
        if snap is None and walker.state.turn >= 3 and snapshots.resumable(walker, serial):
            snap = snapshots.take(walker)
    assert snap is not None
    before = Engine.resumed(game.setup, snapshots.restore(snap), game.answers[: snap.version])
    first = before.state_json()
    for who, answer in game.answers[snap.version :]:
        before.apply_logged(who, answer)
    again = Engine.resumed(game.setup, snapshots.restore(snap), game.answers[: snap.version])
    assert again.state_json() == first
