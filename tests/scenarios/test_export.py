"""A point of a game written as a scenario file (game/scenario/export.py) reads back, through the
same loader as any uploaded file, as the same position: at many points of random games between
the preset decks, wherever `unwritable` says a file can start."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

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
    g = engine.state
    out = {
        "turn": view["turn"],
        "pending": view["pending"]["player"],
        "creatures_died": g.creatures_died_this_turn,
    }
    for name, p in view["players"].items():
        keys = ("life", "poison", "mana_pool", "hand", "library", "graveyard", "exile")
        out[name] = {key: p[key] for key in (*keys, "dungeon", "initiative")}
        out[name]["lands_played"] = g.player(name).lands_played
        out[name]["ventured"] = g.player(name).ventures_this_turn
        out[name]["completed"] = [c["dungeon"] for c in p["completed"]]
        out[name]["revealed"] = sorted(o.name for o in g.player(name).hand if o.revealed)
        out[name]["battlefield"] = sorted(
            (repr({k: v for k, v in perm.items() if k not in ("id", "alias")}))
            for perm in p["battlefield"]
        )
    return out


def assert_reads_back(game: Engine, dungeons: dict) -> str:
    """Write this point, read the file through the loader, start a game from it: the same
    position, the active player holding priority. Returns the file."""
    text = position_file(game, f"point {len(game.answers)}")
    scenario = parse_scenario(text, "point.yaml")
    again = Engine(
        GameSetup(scenario.players, 0, dungeons=dungeons, position=_plain(scenario.position))
    )
    assert comparable(again) == comparable(game), text
    assert again.pending is not None and again.pending.kind == "priority"
    return text


def random_game(i: int, rng: random.Random | None = None) -> Iterator[Engine]:
    """Game `i` between two preset decks, played by random answers, at each of its points."""
    alice, bob = PAIRINGS[i % len(PAIRINGS)]
    game = Engine(
        GameSetup(["alice", "bob"], 50 + i, {"alice": alice, "bob": bob}, official_dungeons())
    )
    rng = rng or random.Random(i)
    while game.pending is not None and len(game.answers) < 700:
        yield game
        d = game.pending
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)


@pytest.mark.parametrize("i", range(4))
def test_every_writable_point_reads_back_as_the_same_position(i: int) -> None:
    dungeons = official_dungeons()
    rng = random.Random(i)
    written = 0
    for game in random_game(i, rng):
        if unwritable(game) is None and rng.random() < 0.15:
            assert_reads_back(game, dungeons)
            written += 1
    assert written >= 10


# What a point says of the turn so far, the file key that says it.
THIS_TURN = {
    "mana in a pool": (lambda g: any(any(p.pool.values()) for p in g.players), "mana_pool:"),
    "a venture this turn": (
        lambda g: any(p.ventures_this_turn for p in g.players),
        "ventured_this_turn:",
    ),
    "a creature died this turn": (lambda g: g.creatures_died_this_turn > 0, "creatures_died:"),
}


def test_a_point_with_mana_a_venture_or_a_death_this_turn_is_written_and_reads_back() -> None:
    dungeons = official_dungeons()
    seen = dict.fromkeys(THIS_TURN, 0)
    for i in range(4):
        for game in random_game(i):
            found = [what for what, (has, _) in THIS_TURN.items() if has(game.state)]
            if not found:
                continue
            reason = unwritable(game)
            if reason is not None:  # something else is in the way: a spell on the stack…
                assert not any(w in reason for w in ("pool", "ventured", "died")), reason
                continue
            text = assert_reads_back(game, dungeons)
            for what in found:
                assert THIS_TURN[what][1] in text, (what, text)
                seen[what] += 1
    assert all(seen.values()), seen


def test_poison_counters_are_written_and_read_back() -> None:
    # No card in the preset decks gives poison counters: they are set on a point that can be
    # written, as a position (or a card to come) would.
    dungeons = official_dungeons()
    game = next(g for g in random_game(0) if unwritable(g) is None and g.state.turn >= 3)
    game.state.player("bob").poison = 9
    assert unwritable(game) is None
    text = assert_reads_back(game, dungeons)
    assert "poison: 9" in text


def test_a_card_revealed_into_a_hand_is_written_and_read_back_revealed() -> None:
    """Secret Entrance and the like reveal the land they put into a hand: a point after it is
    written with `revealed:`, and the card is known to the other player again when read back
    (random games 1 and 8 of the preset decks have such points)."""
    dungeons = official_dungeons()
    written = 0
    for i in (1, 8):
        for game in random_game(i):
            shown = [o for p in game.state.players for o in p.hand if o.revealed]
            if shown and unwritable(game) is None and len(game.answers) % 5 == 0:
                text = assert_reads_back(game, dungeons)
                assert "revealed:" in text
                written += 1
    assert written >= 4


def test_a_revealed_card_in_a_position_is_shown_to_the_other_player_only() -> None:
    text = (
        "name: n\nplayers: [alice, bob]\n"
        "setup:\n  alice: {hand: [Forest, Forest, Island], revealed: [Forest]}\n"
    )
    scenario = parse_scenario(text, "revealed.yaml")
    game = Engine(GameSetup(scenario.players, 0, position=_plain(scenario.position)))
    assert [o.revealed for o in game.state.player("alice").hand] == [True, False, False]
    assert game.view_for("bob")["players"]["alice"]["revealed_hand"] == ["Forest"]
    assert "    revealed:\n    - Forest\n" in position_file(game, "again")


def test_a_permission_to_play_from_exile_is_refused_until_its_turn_is_over() -> None:
    text = "name: n\nplayers: [alice, bob]\nturn: {number: 5}\nsetup:\n  alice: {exile: [Swamp]}\n"
    scenario = parse_scenario(text, "exiled.yaml")
    game = Engine(GameSetup(scenario.players, 0, position=_plain(scenario.position)))
    swamp = game.state.player("alice").exile[0]
    swamp.play_until, swamp.play_free = ("alice", 5), True
    assert unwritable(game) == "a card that may be played from exile (Swamp)"
    swamp.play_until = ("alice", 4)  # "this turn", on turn 4: the Swamp stays in exile for good
    assert unwritable(game) is None
    assert_reads_back(game, {})


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


def test_a_token_whose_kind_shares_a_name_is_written_by_its_kind() -> None:
    """The 4/1 Skeleton with menace and the 1/1 Skeleton share a name: each is written as its
    own kind and reads back as it."""
    from tests.web.helpers import position_text

    text = position_text("two_skeletons.yaml")
    scenario = parse_scenario(text, "skeletons.yaml")
    dungeons = official_dungeons()
    game = Engine(
        GameSetup(scenario.players, 0, dungeons=dungeons, position=_plain(scenario.position))
    )
    assert unwritable(game) is None
    written = assert_reads_back(game, dungeons)
    assert "token: Skeleton 4/1 menace" in written and "token: Skeleton\n" in written
