"""game/runtime/prepared.py: a queryset compiled once gives what the queryset itself gives."""

from __future__ import annotations

import contextlib
import itertools
import random
import tempfile
import time

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from game import board, services
from game.engine.bot import random_answer
from game.models import ActionReceipt, Connection, Game, GameAction, Seat
from game.runtime.prepared import PreparedQuery, together
from game.services import engines, store

from .helpers import make_player, start_game

pytestmark = pytest.mark.django_db


def _fields(obj):
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def _compare(prepared, build, value):
    ours, theirs = prepared(value), list(build(value))
    assert [_fields(o) for o in ours] == [_fields(o) for o in theirs]
    return ours, theirs


def test_the_boards_query_equals_the_querysets_for_every_game():
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    first, second = start_game(alice, bob), start_game(carol, alice)
    services.viewer_connected(first.pk, bob, "chan-1")
    build = board.query.BOARD_SEATS.build
    for game in (first, second, first):  # one compilation, run with each game's id
        ours, theirs = _compare(board.query.BOARD_SEATS, build, game.pk)
        assert len(ours) == 2
        for o, t in zip(ours, theirs, strict=True):
            assert _fields(o.game) == _fields(t.game) and _fields(o.player) == _fields(t.player)
            assert o.latest_seen == t.latest_seen
    seats = board.query.BOARD_SEATS(first.pk)
    assert seats[1].latest_seen == Connection.objects.get(channel_name="chan-1").last_seen
    assert seats[0].latest_seen is None
    # Deferred columns load on access, as with the queryset.
    assert seats[0].deck == Seat.objects.get(pk=seats[0].pk).deck
    assert board.query.BOARD_SEATS(10**9) == []


@pytest.mark.django_db(transaction=True)
def test_a_row_lock_outside_a_transaction_is_refused_as_by_the_queryset():
    game = start_game(make_player("alice"), make_player("bob"))
    build = lambda pk: Game.objects.select_for_update().filter(pk=pk)  # noqa: E731
    locking = PreparedQuery(build)
    with transaction.atomic():
        assert [g.pk for g in locking(game.pk)] == [g.pk for g in build(game.pk)] == [game.pk]
    outcomes = []
    for run in (lambda: list(build(game.pk)), lambda: locking(game.pk)):
        try:
            run()
            outcomes.append("ran")
        except TransactionManagementError:
            outcomes.append("refused")
    assert outcomes[0] == outcomes[1]  # (refused on PostgreSQL; SQLite has no row locks)


def test_a_query_without_its_placeholder_is_refused():
    with pytest.raises(ValueError, match="a placeholder appears 0 times"):
        PreparedQuery(lambda pk: Game.objects.filter(pk=1))(5)


def test_a_values_list_gives_the_same_tuples():
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob, seed=4)
    players = {s.engine_name: s.player for s in game.seats.select_related("player")}
    rng = random.Random(4)
    for _ in range(12):
        with services.reading(game) as engine:
            d = engine.pending
            choice = random_answer(d, rng)
        with contextlib.suppress(services.ActionRefused):  # a random multi-pick may be illegal
            services.submit_answer(game.pk, players[d.player], choice, version=game.version)
        game.refresh_from_db()
    assert game.version > 5
    build = engines.LOG_SLICE.build
    for start, stop in ((0, game.version), (2, 3), (3, 3), (1, game.version + 5)):
        assert engines.LOG_SLICE(game.pk, start, stop) == list(build(game.pk, start, stop))


def test_the_writes_store_what_the_orm_stores():
    game = start_game(make_player("alice"), make_player("bob"))
    seat = game.seats.first()
    made = {"game": game, "seat": seat, "answer": ["opt:1", "opt:2"], "note": "time"}
    with together() as batch:
        store.INSERT_ACTIONS.send(batch, [GameAction(index=i, **made) for i in (900, 901)])
    GameAction.objects.bulk_create([GameAction(index=902, **made)])
    rows = list(GameAction.objects.filter(index__gte=900).order_by("index").values())
    assert len(rows) == 3 and all(r["created"] is not None for r in rows)  # auto_now_add
    for r in rows:
        r.pop("id"), r.pop("index"), r.pop("created")
    assert rows[0] == rows[1] == rows[2]

    game.refresh_from_db()
    game.turn, game.deciding, game.winner = 7, "bob", "alice"
    with together() as batch:
        store.UPDATE_PROGRESS.send(batch, game)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.turn, stored.deciding, stored.winner) == (7, "bob", "alice")
    missing = Game(pk=10**9, **{f: getattr(game, f) for f in store.PROGRESS_FIELDS})
    with pytest.raises(DatabaseError, match="0 rows updated"), together() as batch:
        store.UPDATE_PROGRESS.send(batch, missing)


def _record(game, player, action_id, version):
    with transaction.atomic(), together() as batch:
        receipt = store.Receipt(player, action_id, "answer", version, timezone.now())
        sent = store.send_receipt(batch, game.pk, receipt)
    return sent.rowcount


def test_a_receipt_is_recorded_once_and_only_for_a_seated_player():
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob)
    assert _record(game, alice, "click-1", 3) == 1
    assert _record(game, alice, "click-1", 3) == 0  # the repeat: the unique constraint
    assert _record(game, bob, "click-1", 5) == 0  # the id is the game's, whoever sends it
    assert _record(game, make_player("carol"), "click-2", 3) == 0  # watching: no seat
    assert _record(game, None, "click-3", 3) == 0  # anonymous
    assert _record(game, bob, "click-4", None) == 1  # no version given: the game's
    stored = {r.action_id: r for r in ActionReceipt.objects.filter(game=game)}
    assert set(stored) == {"click-1", "click-4"}
    assert stored["click-1"].seat.player == alice and stored["click-1"].version == 3
    assert stored["click-4"].seat.player == bob and stored["click-4"].version == game.version
    assert stored["click-4"].created is not None


def test_statements_sent_together_give_their_results_after_the_block():
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob)
    with transaction.atomic(), together() as batch:
        locked = store.LOCKED_GAME.send(batch, game.pk)
        seats = store.ACTING_SEATS.send(batch, game.pk)
        store.UPDATE_PROGRESS.send(batch, game)
    assert [g.pk for g in locked.rows] == [game.pk]
    assert [s.player for s in seats.rows] == [alice, bob]
    missing = Game(pk=10**9, **{f: getattr(game, f) for f in store.PROGRESS_FIELDS})
    refused = pytest.raises(DatabaseError, match="0 rows updated")
    with refused, transaction.atomic(), together() as batch:
        store.UPDATE_PROGRESS.send(batch, missing)
        after = store.ACTING_SEATS.send(batch, game.pk)
    assert after.rows  # a check fails at the end of the batch, after every statement ran


@pytest.mark.django_db(transaction=True)
def test_a_statement_that_fails_in_a_batch_raises_djangos_error_and_rolls_the_block_back():
    game = start_game(make_player("alice"), make_player("bob"))
    seat = game.seats.first()
    made = {"game": game, "seat": seat, "answer": "pass"}
    before = game.actions.count()
    with transaction.atomic():
        with pytest.raises(IntegrityError), together() as batch:
            store.INSERT_ACTIONS.send(batch, [GameAction(index=900, **made)])
            store.INSERT_ACTIONS.send(batch, [GameAction(index=900, **made)])  # same index
            time.sleep(0.2)  # on PostgreSQL the error may arrive at the next send
            game.turn = 99
            store.UPDATE_PROGRESS.send(batch, game)
        # Caught, it still rolls the block back (as the ORM's own writes do).
        assert connection.needs_rollback
    assert game.actions.count() == before
    assert Game.objects.get(pk=game.pk).turn != 99
    # The connection is usable afterwards.
    with transaction.atomic(), together() as batch:
        store.INSERT_ACTIONS.send(batch, [GameAction(index=900, **made)])
    assert game.actions.count() == before + 1


@pytest.mark.django_db(transaction=True)
def test_an_error_of_the_blocks_own_code_leaves_the_connection_usable():
    game = start_game(make_player("alice"), make_player("bob"))
    with pytest.raises(ValueError, match="mid-batch"), transaction.atomic(), together() as batch:
        seats = store.ACTING_SEATS.send(batch, game.pk)
        raise ValueError("mid-batch")
    with pytest.raises(RuntimeError, match="after its batch"):
        seats.rows  # noqa: B018 - the batch never finished
    with transaction.atomic(), together() as batch:
        seats = store.ACTING_SEATS.send(batch, game.pk)
    assert len(seats.rows) == 2


def test_results_are_read_after_the_block_on_every_database():
    game = start_game(make_player("alice"), make_player("bob"))
    with transaction.atomic(), together() as batch:
        seats = store.ACTING_SEATS.send(batch, game.pk)
        with pytest.raises(RuntimeError, match="after its batch"):
            seats.rows  # noqa: B018 - on SQLite they are there already: refused all the same
    assert len(seats.rows) == 2


@pytest.mark.django_db(transaction=True)
def test_a_batch_is_sent_inside_a_transaction():
    game = start_game(make_player("alice"), make_player("bob"))
    refused = pytest.raises(TransactionManagementError, match="inside atomic")
    with refused, together() as batch:
        store.ACTING_SEATS.send(batch, game.pk)
    with together(pipeline=False) as batch:  # one by one: fine anywhere
        seats = store.ACTING_SEATS.send(batch, game.pk)
    assert len(seats.rows) == 2


def _update_alone(game):
    with together(pipeline=False) as batch:
        store.UPDATE_PROGRESS.send(batch, game)


def test_only_the_batchs_own_statements_run_in_a_pipelined_block():
    game = start_game(make_player("alice"), make_player("bob"))
    pipelined = connection.vendor == "postgresql"
    outcomes = []
    for other in (
        lambda: Game.objects.filter(pk=game.pk).update(turn=5),  # its row count would be -1
        lambda: _update_alone(game),  # a batch of its own, inside
    ):
        try:
            with transaction.atomic(), together() as batch:
                store.ACTING_SEATS.send(batch, game.pk)
                other()
            outcomes.append("ran")
        except TransactionManagementError:
            outcomes.append("refused")
    # On PostgreSQL they are refused; on SQLite, where nothing waits, they run.
    assert outcomes == (["refused", "refused"] if pipelined else ["ran", "ran"])


@contextlib.contextmanager
def _round_trips():
    """Count the round trips to PostgreSQL inside the block, from libpq's own trace of the
    protocol: each time the server answers what the client sent is one."""
    from psycopg.pq import Trace

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    found = []
    with tempfile.NamedTemporaryFile("r") as trace:
        with open(trace.name, "w") as out:
            pgconn.trace(out.fileno())
            pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)
            try:
                yield found
            finally:
                pgconn.untrace()
        directions = [line.split("\t", 1)[0] for line in trace]
    found.append(sum(a == "F" and b == "B" for a, b in itertools.pairwise(directions)))


@pytest.mark.django_db(transaction=True)  # real transactions: BEGIN and COMMIT, not savepoints
def test_an_answer_makes_four_round_trips_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL (psycopg's pipeline mode); `make test-postgresql` (part of "
            "`make test-all`) runs this module on it"
        )
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob, seed=4)
    players = {s.engine_name: s.player for s in game.seats.select_related("player")}
    rng = random.Random(4)
    counts = []
    while len(counts) < 6:
        with services.reading(game) as engine:  # the engine is cached: no replay is counted
            d = engine.pending
            choice = random_answer(d, rng)
        with _round_trips() as found, contextlib.suppress(services.ActionRefused):
            services.submit_answer(
                game.pk,
                players[d.player],
                choice,
                version=game.version,
                action_id=f"a{len(counts)}",
            )
            counts.append(found)
        game.refresh_from_db()
    # BEGIN; the lock, the seats and the receipt; the answers and the progress; COMMIT.
    assert [found[0] for found in counts] == [4] * 6
