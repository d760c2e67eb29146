"""game/prepared.py: a queryset compiled once gives what the queryset itself gives."""

from __future__ import annotations

import contextlib
import random

import pytest
from django.db import DatabaseError, transaction
from django.db.transaction import TransactionManagementError

from game import board, services
from game.engine.bot import random_answer
from game.models import Connection, Game, GameAction, Seat
from game.prepared import PreparedQuery

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
    build = board._BOARD_SEATS.build
    for game in (first, second, first):  # one compilation, run with each game's id
        ours, theirs = _compare(board._BOARD_SEATS, build, game.pk)
        assert len(ours) == 2
        for o, t in zip(ours, theirs, strict=True):
            assert _fields(o.game) == _fields(t.game) and _fields(o.player) == _fields(t.player)
            assert o.latest_seen == t.latest_seen
    seats = board._BOARD_SEATS(first.pk)
    assert seats[1].latest_seen == Connection.objects.get(channel_name="chan-1").last_seen
    assert seats[0].latest_seen is None
    # Deferred columns load on access, as with the queryset.
    assert seats[0].deck == Seat.objects.get(pk=seats[0].pk).deck
    assert board._BOARD_SEATS(10**9) == []


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
    build = services._LOG_SLICE.build
    for start, stop in ((0, game.version), (2, 3), (3, 3), (1, game.version + 5)):
        assert services._LOG_SLICE(game.pk, start, stop) == list(build(game.pk, start, stop))


def test_the_writes_store_what_the_orm_stores():
    game = start_game(make_player("alice"), make_player("bob"))
    seat = game.seats.first()
    made = {"game": game, "seat": seat, "answer": ["opt:1", "opt:2"], "note": "time"}
    services._INSERT_ACTIONS([GameAction(index=900, **made), GameAction(index=901, **made)])
    GameAction.objects.bulk_create([GameAction(index=902, **made)])
    rows = list(GameAction.objects.filter(index__gte=900).order_by("index").values())
    assert len(rows) == 3 and all(r["created"] is not None for r in rows)  # auto_now_add
    for r in rows:
        r.pop("id"), r.pop("index"), r.pop("created")
    assert rows[0] == rows[1] == rows[2]

    game.refresh_from_db()
    game.turn, game.deciding, game.winner = 7, "bob", "alice"
    services._UPDATE_PROGRESS(game)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.turn, stored.deciding, stored.winner) == (7, "bob", "alice")
    missing = Game(pk=10**9, **{f: getattr(game, f) for f in services._PROGRESS_FIELDS})
    with pytest.raises(DatabaseError, match="0 rows updated"):
        services._UPDATE_PROGRESS(missing)


def test_a_repeated_receipt_is_refused_by_the_constraint():
    game = start_game(make_player("alice"), make_player("bob"))
    seat = game.seats.first()
    services._receipt(game, seat, "click-1", "answer", 3)
    with pytest.raises(services.ActionRefused) as refused, transaction.atomic():
        services._receipt(game, seat, "click-1", "answer", 3)
    assert refused.value.code == "repeat"
