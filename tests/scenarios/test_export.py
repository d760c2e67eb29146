"""A point of a game written as a scenario file (game/scenario/export.py) reads back, through the
same loader as any uploaded file, as the same position: at many points of random games between
the preset decks, wherever `unwritable` says a file can start."""

from __future__ import annotations

import itertools
import random

import pytest

from dungeons.official import official_dungeons
from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine, GameSetup
from game.scenario.export import position_file, unwritable
from game.scenario.loader import parse_scenario
from game.services.lifecycle import _plain

PAIRINGS = list(itertools.permutations(STARTER_DECKS.values(), 2))


def comparable(engine: Engine) -> dict:
    """What a position sets, from the judge's view (ids, aliases and timestamps aside)."""
    view = engine.state_json()
    out = {"turn": view["turn"], "pending": view["pending"]["player"]}
    for name, p in view["players"].items():
        keys = ("life", "hand", "library", "graveyard", "exile", "dungeon", "initiative")
        out[name] = {key: p[key] for key in keys}
        out[name]["completed"] = [c["dungeon"] for c in p["completed"]]
        out[name]["battlefield"] = sorted(
            (repr({k: v for k, v in perm.items() if k not in ("id", "alias")}))
            for perm in p["battlefield"]
        )
    return out


@pytest.mark.parametrize("i", range(4))
def test_every_writable_point_reads_back_as_the_same_position(i: int) -> None:
    alice, bob = PAIRINGS[i % len(PAIRINGS)]
    dungeons = official_dungeons()
    game = Engine(GameSetup(["alice", "bob"], 50 + i, {"alice": alice, "bob": bob}, dungeons))
    rng = random.Random(i)
    written = 0
    while game.pending is not None and len(game.answers) < 700:
        if unwritable(game) is None and rng.random() < 0.15:
            text = position_file(game, f"point {len(game.answers)}")
            scenario = parse_scenario(text, "point.yaml")
            again = Engine(
                GameSetup(
                    scenario.players, 0, dungeons=dungeons, position=_plain(scenario.position)
                )
            )
            assert comparable(again) == comparable(game), text
            assert again.pending is not None and again.pending.kind == "priority"
            written += 1
        d = game.pending
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)
    assert written >= 10


def test_what_a_point_cannot_say_is_named() -> None:
    dungeons = official_dungeons()
    alice, bob = PAIRINGS[0]
    game = Engine(GameSetup(["alice", "bob"], 7, {"alice": alice, "bob": bob}, dungeons))
    assert unwritable(game) == "a scenario starts with the active player holding priority"
    rng = random.Random(7)
    reasons = set()
    while game.pending is not None and len(game.answers) < 1500:
        reasons.add(unwritable(game))
        d = game.pending
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)
    assert None in reasons
    assert "something is on the stack" in reasons
