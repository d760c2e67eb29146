"""Issue 7 through the services: every action is versioned and carries an action id (applied at
most once, whatever races), chess clocks, abandonment, and no silent default for a player who
waits. Time is passed in (each use-case's `at`, and the pure `clock.Clock`), never slept."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from django.db import close_old_connections
from django.utils import timezone

from game import services
from game.engine.game import replay
from game.models import ActionReceipt, Connection, Game, GameAction, Seat
from game.services import engines
from game.services.clock import Clock

from .helpers import (
    make_player,
    option_id,
    pending,
    position_text,
    start_game,
    start_position,
)


class WallClock:
    """A wall clock moved by hand: each use-case is given `clock.now` as the time it acts at."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> WallClock:
    return WallClock()


def refused(fn, *args, code: str, **kwargs) -> str:
    with pytest.raises(services.ActionRefused) as e:
        fn(*args, **kwargs)
    assert e.value.code == code, e.value.message
    return e.value.message


def replayed_winner(game: Game) -> str | None:
    answers = list(game.actions.order_by("index").values_list("seat__engine_name", "answer"))
    return replay(services.engine_setup(game), answers).state.winner


# every action: version and action id ------------------------------------------------------------
@pytest.mark.django_db
def test_concede_and_pace_carry_a_version_and_are_applied_once(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    v = game.version
    services.set_pace(game.pk, bob, full_control=True, version=v, action_id="pace-1")
    assert "already received" in refused(
        services.set_pace, game.pk, bob, full_control=False, version=v, action_id="pace-1",
        code="repeat",
    )  # fmt: skip
    assert Seat.objects.get(game=game, player=bob).full_control  # the repeat changed nothing
    assert "newer than the game" in refused(
        services.concede, game.pk, bob, version=v + 5, action_id="c-1", code="stale"
    )
    services.submit_answer(
        game.pk, alice, option_id(game, "cast Keen-Eared Sentry"), version=v, action_id="a-1"
    )
    # bob's concede was made on the view before alice's answer: refused, not applied.
    assert "already answered" in refused(
        services.concede, game.pk, bob, version=v, action_id="c-2", code="already_answered"
    )
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    services.concede(game.pk, bob, version=game.version, action_id="c-3")
    assert "already received" in refused(
        services.concede, game.pk, bob, version=game.version, action_id="c-3", code="repeat"
    )
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == "alice"
    kinds = dict(ActionReceipt.objects.filter(game=game).values_list("action_id", "kind"))
    assert kinds == {"pace-1": "pace", "a-1": "answer", "c-3": "concede"}


@pytest.mark.django_db(transaction=True)
def test_concurrent_answers_to_one_decision_apply_exactly_once():
    """Real threads, each with its own database connection, answer the same decision at once:
    a double click (one action id), two tabs (two ids) and the other player. The game row's
    lock serialises them; exactly one is applied and every other one is told why."""
    alice, bob = make_player("alice"), make_player("bob")
    game = start_position(alice, bob, "varis_fork.yaml")
    v = game.version
    cast = option_id(game, "cast Keen-Eared Sentry")
    senders = [
        (alice, cast, "click"),
        (alice, cast, "click"),  # the double click: the same form twice
        (alice, cast, "tab-2"),
        (alice, cast, "tab-3"),
        (bob, "pass", "bob"),
    ]
    start = threading.Barrier(len(senders))
    results: list[str] = [""] * len(senders)

    def send(i: int, player, answer, action_id) -> None:
        try:
            start.wait()
            services.submit_answer(game.pk, player, answer, version=v, action_id=action_id)
            results[i] = "applied"
        except services.ActionRefused as e:
            results[i] = e.code
        finally:
            close_old_connections()

    threads = [threading.Thread(target=send, args=(i, *s)) for i, s in enumerate(senders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results.count("applied") == 1, results
    assert results[4] in ("not_yours", "already_answered")
    assert set(results[:4]) - {"applied"} <= {"repeat", "already_answered"}
    game.refresh_from_db()
    manual = GameAction.objects.filter(game=game, auto=False)
    assert manual.count() == 1 and manual.get().answer == cast
    assert game.version == GameAction.objects.filter(game=game).count()


# the chess clock --------------------------------------------------------------------------------
def test_the_clock_is_a_value_that_is_told_the_time():
    start = timezone.now()
    clock = Clock({"alice": 60_000, "bob": 60_000}, increment_ms=2_000).start("alice", start)
    later = start + timedelta(seconds=45)
    assert (clock.remaining("alice", later), clock.remaining("bob", later)) == (15_000, 60_000)
    assert clock.flagged(later) is None
    assert clock.flagged(start + timedelta(seconds=60)) == "alice"
    assert clock.remaining("alice", start + timedelta(seconds=90)) == 0  # never below zero
    # Her own answer earns the increment; an automatic answer (nobody's) does not.
    assert clock.stop(later, answered_by="alice").remaining_ms["alice"] == 17_000
    stopped = clock.stop(later)
    assert stopped.remaining_ms["alice"] == 15_000 and stopped.running is None
    assert stopped.remaining("alice", start + timedelta(hours=1)) == 15_000  # stopped: no charge


def clocked_game(alice, bob, clock: WallClock, minutes: int = 5, increment: int = 3) -> Game:
    scenario = services.check_scenario(position_text("varis_fork.yaml"), "varis_fork.yaml")
    game = services.create_game(
        alice, scenario=scenario, clock_seconds=minutes * 60, clock_increment=increment
    )
    services.join_game(game.pk, bob, at=clock.now)
    game.refresh_from_db()
    return game


def clocks(game: Game, at: datetime) -> dict[str, int | None]:
    game.refresh_from_db()
    seats = list(game.seats.all())
    timing = services.timings(game, seats, at)
    return {s.engine_name: timing[s.pk].clock_ms for s in seats}


@pytest.mark.django_db
def test_the_clock_runs_for_the_player_who_must_decide_and_an_answer_earns_the_increment(
    alice, bob, clock
):
    game = clocked_game(alice, bob, clock)
    assert clocks(game, clock.now) == {"alice": 300_000, "bob": 300_000}
    clock.advance(40)
    assert clocks(game, clock.now) == {"alice": 260_000, "bob": 300_000}  # only alice decides
    cast = option_id(game, "cast Keen-Eared Sentry")
    services.submit_answer(game.pk, alice, cast, version=game.version, at=clock.now)
    # 40 s spent, 3 s back; bob's automatic passes took no time; alice chooses a dungeon now.
    assert pending(game).kind == "choose_dungeon"
    assert clocks(game, clock.now) == {"alice": 263_000, "bob": 300_000}
    clock.advance(10)
    assert clocks(game, clock.now)["alice"] == 253_000


@pytest.mark.django_db
def test_running_out_of_time_loses_and_the_log_replays_to_the_same_winner(alice, bob, clock):
    game = clocked_game(alice, bob, clock, minutes=1, increment=0)
    d = pending(game)
    clock.advance(59)
    assert services.check_time(game.pk, at=clock.now) is False  # one second left
    clock.advance(1)
    # Her answer comes too late: it is not applied; the loss is recorded and she is told.
    message = refused(
        services.submit_answer,
        game.pk,
        alice,
        option_id(game, "cast Keen-Eared Sentry"),
        version=game.version,
        action_id="late",
        at=clock.now,
        code="over",
    )
    assert "alice ran out of time" in message
    game.refresh_from_db()
    assert (game.status, game.winner, game.end_reason) == (
        Game.FINISHED,
        "bob",
        "alice ran out of time",
    )
    last = game.actions.order_by("index").last()
    assert (last.seat.engine_name, last.answer, last.note) == ("alice", "!concede", "time")
    assert not game.actions.filter(client_action_id="late").exists()
    assert not ActionReceipt.objects.filter(action_id="late").exists()
    assert replayed_winner(game) == "bob"
    # Nothing was answered for her: the decision she faced got no answer but the concession.
    assert game.actions.filter(index__gte=game.version - 1).count() == 1
    assert d.kind == "priority"


@pytest.mark.django_db
def test_a_flag_is_found_without_anyone_acting(alice, bob, clock):
    game = clocked_game(alice, bob, clock, minutes=2)
    clock.advance(121)
    assert services.check_time(game.pk, at=clock.now) is True
    assert services.check_time(game.pk, at=clock.now) is False  # recorded once
    game.refresh_from_db()
    assert game.winner == "bob" and game.actions.filter(note="time").count() == 1


@pytest.mark.django_db
def test_without_a_clock_a_waiting_decision_is_never_answered_for_anyone(alice, bob, clock):
    """A player who leaves a prompt unanswered gets no default choice: hours later the same
    decision is pending and the log has not grown."""
    game = start_position(alice, bob, "varis_fork.yaml")
    before = (game.version, pending(game).kind, pending(game).player)
    clock.advance(6 * 3600)
    assert services.check_time(game.pk, at=clock.now) is False
    game.refresh_from_db()
    assert (game.version, pending(game).kind, pending(game).player) == before
    assert game.status == Game.ACTIVE


@pytest.mark.django_db
def test_a_rematch_keeps_the_clock(alice, bob, clock):
    game = clocked_game(alice, bob, clock, minutes=3, increment=2)
    services.concede(game.pk, bob)
    services.rematch(game.pk, alice)  # an offer; bob accepts
    new = services.rematch(game.pk, bob)
    assert (new.clock_seconds, new.clock_increment) == (180, 2)
    assert set(new.seats.values_list("clock_ms", flat=True)) == {180_000}


# abandonment ------------------------------------------------------------------------------------
def connect(seat: Seat, channel: str, at: datetime) -> None:
    services.viewer_connected(seat.game_id, seat.player, channel, at=at)


@pytest.mark.django_db
def test_a_player_who_left_can_be_claimed_against_after_the_countdown(alice, bob, clock, settings):
    settings.VENTURE_ABANDON_SECONDS = 120
    game = start_game(alice, bob)
    a, b = game.seats.order_by("position")
    connect(a, "ch.alice", clock.now)
    connect(b, "ch.bob", clock.now)

    def claim(player, **kwargs) -> None:
        services.claim_win(game.pk, player, at=clock.now, **kwargs)

    assert "connected" in refused(claim, alice, code="present")

    services.viewer_disconnected("ch.bob", at=clock.now)
    clock.advance(100)
    message = refused(claim, alice, code="too_soon")
    assert "in 20 s" in message
    # Bob comes back in time: the countdown is over.
    connect(b, "ch.bob.2", clock.now)
    clock.advance(60)
    refused(claim, alice, code="present")

    services.viewer_disconnected("ch.bob.2", at=clock.now)
    clock.advance(121)
    assert "watching" in refused(claim, make_player("carol"), code="no_seat")
    claim(alice, version=game.version, action_id="claim-1")
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == "alice"
    assert game.end_reason == "bob left the game; alice claimed the win"
    last = game.actions.order_by("index").last()
    assert (last.seat.engine_name, last.answer, last.note) == ("bob", "!concede", "abandoned")
    assert replayed_winner(game) == "alice"


@pytest.mark.django_db
def test_a_dead_server_leaves_connections_that_count_as_absence_from_their_last_beat(
    alice, bob, clock, settings
):
    settings.VENTURE_ABANDON_SECONDS = 120
    game = start_game(alice, bob)
    a, b = game.seats.order_by("position")
    connect(a, "ch.alice", clock.now)
    connect(b, "ch.bob", clock.now)  # its server then dies: no disconnect, the heartbeat stops
    clock.advance(Connection.PRESENCE_TTL_SECONDS - 1)
    services.viewer_alive("ch.alice", game.pk, at=clock.now)
    assert services.timings(game, [a, b], clock.now)[b.pk].absent_since is None  # not expired
    clock.advance(2)
    t = services.timings(game, [a, b], clock.now)[b.pk]
    assert t.absent_seconds == pytest.approx(Connection.PRESENCE_TTL_SECONDS + 1)
    clock.advance(120 - Connection.PRESENCE_TTL_SECONDS)
    services.claim_win(game.pk, alice, at=clock.now)
    game.refresh_from_db()
    assert game.winner == "alice"


@pytest.mark.django_db
def test_a_game_is_created_with_a_clock_from_the_lobby_and_shows_it(client, alice, bob):
    client.force_login(alice.user)
    deck = "Varis (green-white)"
    response = client.post(
        "/games/new/", {"deck": deck, "clock_minutes": "5", "clock_increment": "2"}
    )
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert (game.clock_seconds, game.clock_increment) == (300, 2)
    services.join_game(game.pk, bob, deck_name=deck, deck=list(game.seats.get().deck))
    page = client.get(game.get_absolute_url()).content.decode()
    assert page.count('class="clock') == 2 and "5:00" in page
    # Out of range is a form error, not a game.
    response = client.post("/games/new/", {"deck": deck, "clock_minutes": "-1"})
    assert response.status_code == 200 and Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)  # the cache is filled on commit
def test_finished_games_leave_the_cache_of_games_in_progress(monkeypatch):
    """A server's memory stays flat however many games end (bench/soak.py): a finished game's
    engine moves to a small cache of its own, and is replayed if it is looked at later."""
    monkeypatch.setattr(engines.CACHE.finished, "size", 2)
    alice, bob = make_player("alice"), make_player("bob")
    games = [start_game(alice, bob) for _ in range(3)]
    playing = start_game(alice, bob)
    for game in games:
        services.concede(game.pk, bob)
    keys = [engines.key_of(g) for g in games]
    assert engines.key_of(playing) in engines.CACHE.in_progress
    assert not any(k in engines.CACHE.in_progress for k in keys)
    assert engines.CACHE.finished.keys() == keys[1:]
    games[0].refresh_from_db()
    with services.reading(games[0]) as engine:  # evicted: replayed from its log
        assert engine.over and engine.state.winner == "alice"
    assert engines.key_of(playing) in engines.CACHE.in_progress


@pytest.mark.django_db
def test_a_process_heartbeat_refreshes_all_its_connections_in_one_statement(
    alice, bob, clock, django_assert_num_queries
):
    # game/runtime/heartbeats.py: one UPDATE for every socket of the process, one read of who is
    # online in all their games.
    first = start_game(alice, bob)
    second = start_game(alice, bob)
    a1, b1 = first.seats.order_by("position")
    a2, _ = second.seats.order_by("position")
    for seat, channel in ((a1, "ch.a1"), (b1, "ch.b1"), (a2, "ch.a2")):
        connect(seat, channel, clock.now)
    clock.advance(Connection.PRESENCE_TTL_SECONDS - 1)
    with django_assert_num_queries(2):
        online = services.viewers_alive(["ch.a1", "ch.a2"], [first.pk, second.pk], at=clock.now)
    assert online == {first.pk: frozenset({a1.pk, b1.pk}), second.pk: frozenset({a2.pk})}
    clock.advance(2)  # ch.b1 was not refreshed: it expired; the others were
    online = services.viewers_alive([], [first.pk, second.pk], at=clock.now)
    assert online == {first.pk: frozenset({a1.pk}), second.pk: frozenset({a2.pk})}
    assert services.viewer_alive(None, first.pk, at=clock.now) == frozenset({a1.pk})
