"""Two processes, one game: the one that did not serve the last actions catches up by applying
only the answers it missed, so an action costs the same whichever process served the one before
(issue "Scale-out"). Each process's engine cache is simulated by swapping the module's cache;
the work is counted in answers applied, not timed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from game import services
from game.engine.bot import random_answer
from game.engine.game import Engine
from game.models import Game
from game.services import broadcast, engines
from tests.web.helpers import make_player, start_game

pytestmark = [
    pytest.mark.scale,
    pytest.mark.timeout(600),
    pytest.mark.django_db(transaction=True),
]


class Process:
    """One server process's engine cache, and the work it did: full replays and answers
    applied from the log."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cache = engines.EngineCache()
        self.replays = 0
        self.applied = 0

    @contextmanager
    def running(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        real_replay, real_apply = engines.replay_game, Engine.apply_logged

        replaying = False

        def replay_game(game: Game):
            nonlocal replaying
            self.replays += 1
            replaying = True
            try:
                return real_replay(game)
            finally:
                replaying = False

        def apply_logged(engine, player, answer, **kwargs) -> None:
            if not replaying:
                self.applied += 1
            real_apply(engine, player, answer, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(engines, "CACHE", self.cache)
            m.setattr(engines, "replay_game", replay_game)
            m.setattr(Engine, "apply_logged", apply_logged)
            yield


def act(game: Game, rng: random.Random) -> int:
    """The player to decide answers at random; returns how many answers the log grew by."""
    game.refresh_from_db()
    before = game.version
    with services.reading(game) as engine:
        d = engine.pending
        assert d is not None
        answer = random_answer(d, rng)
    seat = game.seats.get(engine_name=d.player)
    try:
        services.submit_answer(game.pk, seat.player, answer, version=game.version)
    except services.ActionRefused as e:
        assert e.code == "illegal", e.message  # a random multi-select the rules refuse
        return 0
    game.refresh_from_db()
    return game.version - before


def view(game: Game) -> dict:
    game.refresh_from_db()
    with services.reading(game) as engine:
        return engine.state_json()


def test_a_process_behind_the_game_applies_only_the_answers_it_missed(monkeypatch):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob, seed=8)  # the same game every run: still on after 40 answers
    rng = random.Random(8)
    one, two = Process("one"), Process("two")

    with one.running(monkeypatch):
        for _ in range(40):  # a game well under way, served by process one only
            act(game, rng)
        game.refresh_from_db()
        assert game.status == Game.ACTIVE
    with two.running(monkeypatch):
        view(game)  # process two sees the game for the first time: one replay, nothing else
    assert (two.replays, two.applied) == (1, 0)

    # The players now alternate between the processes; each action is answered by the process
    # that did not serve the one before.
    missed = {"one": 0, "two": 0}
    processes = [one, two]
    for turn in range(60):
        game.refresh_from_db()
        if game.status != Game.ACTIVE:
            break
        proc, other = processes[turn % 2], processes[(turn + 1) % 2]
        with proc.running(monkeypatch):
            grew = act(game, rng)
            seen = view(game)
        missed[other.name] += grew
        with other.running(monkeypatch):
            assert view(game) == seen  # the other process's view is the same state
    assert one.replays == 1 and two.replays == 1  # never a second replay of the whole log
    # Catching up cost exactly the answers each process had not served itself.
    assert one.applied == missed["one"]
    assert two.applied == missed["two"]
    assert one.applied + two.applied > 0


def test_a_process_behind_catches_up_from_the_answers_the_message_carried(monkeypatch):
    """The game.changed message of an action carries the answers it added; a process whose
    engine is behind applies those and does not read the log back (a query less per answer).
    A message that does not cover everything missed leaves the log to be read as before."""
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob, seed=8)
    rng = random.Random(8)
    one, two = Process("one"), Process("two")
    sent: list[dict] = []

    class Layer:
        async def group_send(self, group: str, message: dict) -> None:
            sent.append(message)

    monkeypatch.setattr(broadcast, "get_channel_layer", Layer)
    with one.running(monkeypatch):
        for _ in range(10):
            act(game, rng)
    with two.running(monkeypatch):
        view(game)  # process two has the game now (one replay)
    log_reads = []
    real_slice = engines.LOG_SLICE

    def log_slice(*args: int):
        log_reads.append(args)
        return real_slice(*args)

    monkeypatch.setattr(engines, "LOG_SLICE", log_slice)

    for _ in range(20):
        sent.clear()
        with one.running(monkeypatch):
            grew = act(game, rng)
            seen = view(game)
        if not grew:
            continue
        (message,) = sent
        game.refresh_from_db()
        assert message["version"] == game.version
        assert message["from"] + len(message["answers"]) == game.version
        # As a consumer does with the message (GameConsumer.game_changed):
        services.offer_answers(game.pk, game.code, 0, message["from"], message["answers"])
        with two.running(monkeypatch):
            assert view(game) == seen
    assert two.replays == 1 and two.applied > 0
    assert log_reads == []  # every catch-up came from the messages

    # Two actions, only the second's message offered: the first's answers are read from the log.
    sent.clear()
    with one.running(monkeypatch):
        while not act(game, rng):
            pass
        while not act(game, rng):
            pass
        seen = view(game)
    services.offer_answers(game.pk, game.code, 0, sent[-1]["from"], sent[-1]["answers"])
    with two.running(monkeypatch):
        assert view(game) == seen
    assert len(log_reads) == 1
    assert two.replays == 1
