"""The game's random generator: a secret of 256 bits for games between people, a keyed stream
that replays exactly and that no number of seen outputs helps to predict."""

from __future__ import annotations

import random

import pytest

from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine, GameSetup, replay
from game.engine.rng import KeyedStream, make_rng, new_secret_seed

from .helpers import new_game

DECKS = list(STARTER_DECKS.values())


def test_a_game_between_people_is_seeded_with_256_secret_bits_from_the_os(monkeypatch):
    import secrets

    asked = []
    real = secrets.token_hex
    monkeypatch.setattr(secrets, "token_hex", lambda n: asked.append(n) or real(n))
    seed = new_secret_seed()
    assert asked == [32]
    assert seed.startswith("k256:") and len(bytes.fromhex(seed[5:])) * 8 == 256
    assert new_secret_seed() != new_secret_seed()
    assert isinstance(make_rng(seed), KeyedStream)
    # Scenario files and stored games keep Python's stream (counted, for takebacks).
    counted, plain = make_rng(7), random.Random(7)
    deck, same = list(range(40)), list(range(40))
    counted.shuffle(deck)
    plain.shuffle(same)
    assert deck == same and counted.random() == plain.random()
    assert counted.draws > 0


def test_the_keyed_stream_is_reproducible_and_replays_a_game_exactly():
    seed = new_secret_seed()
    a, b = make_rng(seed), make_rng(seed)
    assert [a.getrandbits(k) for k in (1, 7, 64, 600)] == [
        b.getrandbits(k) for k in (1, 7, 64, 600)
    ]
    deck = list(range(40))
    a.shuffle(deck)
    b_deck = list(range(40))
    b.shuffle(b_deck)
    assert deck == b_deck and sorted(deck) == list(range(40))
    assert 0 <= a.random() < 1

    decks = {"alice": list(DECKS[0]), "bob": list(DECKS[1])}
    setup = GameSetup(["alice", "bob"], seed, decks, new_game().setup.dungeons)
    game = Engine(setup)
    rng = random.Random(5)
    for _ in range(300):
        d = game.pending
        if d is None:
            break
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)
    assert replay(setup, list(game.answers)).state_json() == game.state_json()


def test_two_secrets_shuffle_differently_and_a_bad_seed_is_refused():
    decks = {"alice": list(DECKS[0]), "bob": list(DECKS[1])}
    dungeons = new_game().setup.dungeons
    hands = set()
    for _ in range(4):
        g = Engine(GameSetup(["alice", "bob"], new_secret_seed(), decks, dungeons))
        hands.add(tuple(o.name for o in g.state.player("alice").library))
    assert len(hands) == 4
    for bad in ("k256:abc", "mt:12", "k256:" + "zz" * 32):
        with pytest.raises(ValueError):
            make_rng(bad)


def test_the_stream_is_uniform_enough_for_a_shuffle():
    # Each of 10 cards lands on top about as often as the others (a loose chi-square bound:
    # a biased stream, e.g. one that ignored the counter, fails it at once).
    rng = make_rng(new_secret_seed())
    counts = [0] * 10
    for _ in range(5000):
        cards = list(range(10))
        rng.shuffle(cards)
        counts[cards[0]] += 1
    chi2 = sum((c - 500) ** 2 / 500 for c in counts)
    assert chi2 < 40, counts
