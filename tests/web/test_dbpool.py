"""game/runtime/dbpool.py: the pool's threads check their connections as Django does
(CONN_HEALTH_CHECKS)
but at most once every HEALTH_CHECK_EVERY_SECONDS; a call whose trusted connection was gone at
its first statement runs again on a new one, a connection that failed later is checked after
the call and closed if broken; and a pool call hands work to the loop awaiting it (the
game.changed broadcast) without waiting."""

from __future__ import annotations

import pytest
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from game.models import Player
from game.runtime import dbpool

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def checks(monkeypatch):
    """How many times a connection was checked (is_usable, Django's SELECT 1)."""
    counted = {"n": 0, "usable": True}
    wrapper = type(connections["default"])
    original = wrapper.is_usable

    def is_usable(self: BaseDatabaseWrapper) -> bool:
        counted["n"] += 1
        return original(self) and counted["usable"]

    monkeypatch.setattr(wrapper, "is_usable", is_usable)
    monkeypatch.setattr(wrapper, "health_check_enabled", True, raising=False)
    return counted


@dbpool.in_pool
def _query() -> object:
    """The pool thread's own connection to the database (the driver's object: kept, its id
    is not reused), after a query."""
    from django.db import connection as conn

    Player.objects.count()
    return conn.connection


async def test_a_connection_checked_a_moment_ago_is_not_checked_again(checks, monkeypatch):
    first = await _query()  # opened in this call: opening counts as a check
    n = checks["n"]
    for _ in range(5):
        assert await _query() is first
    assert checks["n"] == n  # no SELECT 1 before each call
    monkeypatch.setattr(dbpool, "HEALTH_CHECK_EVERY_SECONDS", 0.0)
    assert await _query() is first
    assert checks["n"] == n + 1  # idle "longer" than that: checked as Django checks it
    await _query()
    assert checks["n"] == n + 2


async def test_a_connection_that_failed_is_checked_after_the_call_and_closed_if_broken(checks):
    first = await _query()

    @dbpool.in_pool
    def failing() -> None:
        from django.db import connection as conn

        Player.objects.count()  # a statement made: the call is not run again (see below)
        with pytest.raises(Exception), conn.cursor() as cursor:  # noqa: B017 - any database error
            cursor.execute("SELECT no_such_column FROM no_such_table")
        assert conn.errors_occurred

    n = checks["n"]
    checks["usable"] = False  # as a server that went away would answer
    await failing()
    assert checks["n"] == n + 1  # checked after the call, found broken: closed
    checks["usable"] = True
    assert await _query() is not first  # a new connection, not the broken one


def _cut_at(statement: int, calls: list[int]) -> object:
    """A pool call whose `statement`-th statement (first call only) fails as a connection the
    server dropped would (OperationalError); returns how many statements it made."""

    @dbpool.in_pool
    def call() -> int:
        from django.db import OperationalError
        from django.db import connection as conn

        calls.append(1)
        made = {"n": 0}

        def cut(execute, sql, params, many, context):  # noqa: ANN001, ANN202
            made["n"] += 1
            if len(calls) == 1 and made["n"] == statement:
                raise OperationalError("server closed the connection unexpectedly")
            return execute(sql, params, many, context)

        with conn.execute_wrapper(cut):
            Player.objects.count()
            Player.objects.count()
        return made["n"]

    return call


async def test_a_trusted_connection_gone_at_its_first_statement_reruns_the_call(checks):
    await _query()  # the thread's connection, checked: trusted for the next second
    calls: list[int] = []
    checks["usable"] = False  # the connection is gone when asked
    assert await _cut_at(1, calls)() == 2
    assert len(calls) == 2  # nothing of the first run reached the database: run again


async def test_a_connection_gone_later_in_a_call_fails_the_call(checks):
    await _query()
    calls: list[int] = []
    checks["usable"] = False
    with pytest.raises(Exception, match="closed the connection"):
        await _cut_at(2, calls)()  # the first statement was made: not run again
    assert len(calls) == 1


async def test_a_pool_call_knows_the_loop_that_awaits_it():
    import asyncio

    @dbpool.in_pool
    def inside() -> object:
        return dbpool.calling_loop()

    assert await inside() is asyncio.get_running_loop()
    assert dbpool.calling_loop() is None  # not in a pool call


async def test_a_broadcast_from_a_pool_call_is_handed_to_the_loop_and_a_failure_logged(
    monkeypatch, caplog
):
    import asyncio
    import threading
    from types import SimpleNamespace

    from django.db import transaction

    from game import services
    from game.services import broadcast

    sent = []
    released = asyncio.Event()  # a send finishes only when the test lets it

    class Layer:
        async def group_send(self, group: str, message: dict) -> None:
            await released.wait()
            sent.append((group, message["version"], threading.get_ident()))
            if message["version"] == 2:
                raise RuntimeError("the channel layer is down")

    monkeypatch.setattr(broadcast, "get_channel_layer", Layer)

    @dbpool.in_pool
    def commit(version: int) -> None:
        with transaction.atomic():
            services.notify_game_changed(SimpleNamespace(group_name="game-1", version=version))

    # Each call returns while its send is still waiting: the pool's thread does not wait for
    # the loop (a thread that did would never return here: the timeout fails the test).
    await asyncio.wait_for(commit(1), timeout=10)
    await asyncio.wait_for(commit(2), timeout=10)
    assert sent == []
    released.set()
    # The sends and the failure's callback take a few turns of the loop; on a busy machine the
    # thread that set the future may also need a moment (a deadline, not a count of turns).
    for _ in range(500):
        if "was not sent" in caplog.text:
            break
        await asyncio.sleep(0.01)
    loop_thread = threading.get_ident()  # the sends ran on the loop, not on the pool's thread
    assert sent == [("game-1", 1, loop_thread), ("game-1", 2, loop_thread)]
    assert "game.changed 2 for game-1 was not sent" in caplog.text
