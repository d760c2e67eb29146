"""The pace feature's stops and the game's random generator: neither tells a player anything
about the opponent's hidden cards."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.decisions import IllegalAnswer
from game.engine.game import Game, GameSetup, replay
from game.engine.priority import priority_decision
from game.engine.rng import KeyedStream, make_rng, new_secret_seed
from game.engine.state import GameState
from game.engine.stops import stops_at

from .helpers import new_game

DECKS = list(STARTER_DECKS.values())


def _swap_hand_with_library(g: GameState, player: str, k: int) -> None:
    """Exchange the player's hand with `k`-th window of their library (same number of cards),
    so the hand holds other cards while everything public stays as it was."""
    p = g.player(player)
    n = len(p.hand)
    window = p.library[k : k + n]
    for a, b in zip(p.hand, window, strict=True):
        a.zone, b.zone = "library", "hand"
    p.hand[:], p.library[k : k + n] = window, p.hand[:]


def _priority_moments(seed: int) -> Iterator[tuple[Game, str]]:
    """Every priority decision of a random game between two preset decks."""
    rng = random.Random(seed)
    decks = rng.sample(DECKS, 2)
    game = new_game(seed, {"alice": list(decks[0]), "bob": list(decks[1])})
    for _ in range(1500):
        d = game.pending
        if d is None:
            return
        if d.kind == "priority":
            yield game, d.player
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)


@pytest.mark.parametrize("seed", range(6))
def test_the_stop_decision_is_the_same_whatever_the_hand_holds(seed):
    checked = leaky_differs = 0
    for game, player in _priority_moments(seed):
        g = game.state
        p = g.player(player)
        if not p.hand or len(p.library) < len(p.hand):
            continue
        original = stops_at(g, priority_decision(g, player))
        could_act = _could_act(g, player)
        for k in (0, max(0, len(p.library) - len(p.hand))):
            _swap_hand_with_library(g, player, k)
            try:
                assert stops_at(g, priority_decision(g, player)) == original, (
                    g.turn,
                    g.step,
                    player,
                )
                leaky_differs += _could_act(g, player) != could_act
            finally:
                _swap_hand_with_library(g, player, k)
        checked += 1
    assert checked > 50
    # The samples can tell: stopping only when the player could act (the rule this replaces)
    # does change with the hand in these same moments.
    assert leaky_differs > 0


def _could_act(g: GameState, player: str) -> bool:
    d = priority_decision(g, player)
    return any(o.id != "pass" and o.data != "mana" for o in d.options)


def test_an_empty_hand_with_nothing_to_activate_is_passed_and_a_held_card_stops_in_windows():
    game = new_game(3)
    for _ in range(400):  # to the first main phase with a priority decision
        d = game.pending
        if d.kind == "priority" and game.state.step == "precombat_main":
            break
        game.answer(d.player, [] if d.multi else random_answer(d, random.Random(1)))
    g = game.state
    me = game.pending.player
    assert g.active == me and not g.stack
    assert stops_at(g, priority_decision(g, me))  # your own main phase, cards in hand
    held = list(g.player(me).hand)
    g.player(me).hand.clear()
    try:
        d = priority_decision(g, me)
        public = any(
            o.id != "pass" and o.data != "mana" for o in d.options
        )  # e.g. a land's ability
        assert stops_at(g, d) == public
    finally:
        g.player(me).hand[:] = held


# the random generator ------------------------------------------------------------------------
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
    assert type(make_rng(7)) is random.Random  # scenario files and stored games keep theirs


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
    game = Game(setup)
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
        g = Game(GameSetup(["alice", "bob"], new_secret_seed(), decks, dungeons))
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
