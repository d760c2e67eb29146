"""game/runtime/dbpool.py: the pool's threads check their connections as Django does around a
request (close_old_connections, CONN_HEALTH_CHECKS on each call's first use), a connection gone
between calls is replaced, one that failed is checked after the call and closed if broken; and
a pool call hands work to the loop awaiting it (the game.changed broadcast) without waiting."""

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


async def test_each_call_checks_its_connection_as_django_does(checks):
    first = await _query()  # opened in this call: opening counts as a check
    n = checks["n"]
    for i in range(1, 4):
        assert await _query() is first  # the thread's persistent connection
        assert checks["n"] == n + i  # Django's SELECT 1 on the first use of each call


async def test_a_connection_gone_between_calls_is_replaced(checks):
    first = await _query()
    checks["usable"] = False  # the server went away while the thread was idle
    assert await _query() is not first  # the call's check found it: a new connection


async def test_a_connection_that_failed_is_checked_after_the_call_and_closed_if_broken(checks):
    first = await _query()

    @dbpool.in_pool
    def failing() -> None:
        from django.db import connection as conn

        Player.objects.count()  # checked on this first use, then used
        checks["usable"] = False  # as a server that went away would answer from now on
        with pytest.raises(Exception), conn.cursor() as cursor:  # noqa: B017 - any database error
            cursor.execute("SELECT no_such_column FROM no_such_table")
        assert conn.errors_occurred

    n = checks["n"]
    await failing()
    assert checks["n"] == n + 2  # on its first use, and after the call: found broken, closed
    checks["usable"] = True
    assert await _query() is not first  # a new connection, not the broken one


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
