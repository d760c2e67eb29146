"""The thread pool the websockets' blocking work runs on (`in_pool`), and how its threads keep
their database connections.

Guarantees. A consumer's database work and renders run on VENTURE_DB_THREADS threads
(default 1: the work is mostly Python, and more threads only contend for the interpreter's
lock), not on Channels' single `database_sync_to_async` thread, each thread with its own
persistent connection. Around each call a thread tidies its connections as Django does around a
request (`close_if_unusable_or_obsolete`: a connection left in error, with the wrong
autocommit, or past CONN_MAX_AGE is closed). Django's CONN_HEALTH_CHECKS round trip
(`SELECT 1` on a connection's first use in each call) is made at most once every
HEALTH_CHECK_EVERY_SECONDS per connection; a connection checked (or opened) less than that ago
is trusted. When a trusted connection turns out to be gone at its first statement of a call,
nothing of the call reached the database, so the call runs again, once, on a new connection; a
connection that breaks later in a call fails that call as it would with Django's own check.
While a call runs, `calling_loop()` is the event loop awaiting it.

Private APIs it relies on (tests/web/test_runtime_private_apis.py checks each one):
- asgiref: `SyncToAsync.thread_handler(self, loop, *args, **kwargs)` (overridden) and
  `SyncToAsync(func, thread_sensitive=False, executor=...)`;
- Django: `BaseDatabaseWrapper.health_check_done` (set to skip the check),
  `health_check_enabled`, `errors_occurred` and `connection` (read),
  `close_if_unusable_or_obsolete()` resetting `health_check_done`, `close_if_health_check_failed`
  consulting it, `connections.all(initialized_only=True)`, and an execute wrapper's
  `context["connection"]`.

Re-measure: `bench/latency.py --scale --games 200` against a copy where `in_pool(func)` is
`channels.db.database_sync_to_async(func)` (the pool), and against one with
HEALTH_CHECK_EVERY_SECONDS = 0 (the trusted connections); docs/performance.md has the figures.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections

log = logging.getLogger(__name__)

HEALTH_CHECK_EVERY_SECONDS = 1.0

_POOL = ThreadPoolExecutor(settings.VENTURE_DB_THREADS, thread_name_prefix="venture-db")
_NEVER = float("-inf")
_CALL = threading.local()  # the event loop of the consumer whose call this thread runs


def calling_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that awaits the pool call this thread is running (None outside one):
    work for the loop can be handed to it without this thread waiting for it."""
    return getattr(_CALL, "loop", None)


def _before_call() -> list[Any]:
    """Tidy this thread's connections; returns those trusted without a check this call."""
    now = time.monotonic()
    trusted = []
    for conn in connections.all(initialized_only=True):
        conn.close_if_unusable_or_obsolete()  # this also asks for a check on first use
        checked_at = conn.__dict__.get("venture_checked_at", _NEVER)
        conn.venture_trusted = now - checked_at < HEALTH_CHECK_EVERY_SECONDS
        if conn.venture_trusted and conn.connection is not None:
            conn.health_check_done = True  # checked a moment ago: no SELECT 1 this time
            trusted.append(conn)
    return trusted


class _FirstStatement:
    """An execute wrapper on a trusted connection: did its first statement of the call fail
    because the connection is gone?"""

    def __init__(self) -> None:
        self.done = False
        self.gone = False

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.done:
            return execute(sql, params, many, context)
        self.done = True
        try:
            return execute(sql, params, many, context)
        except (OperationalError, InterfaceError):
            # Asked now: leaving the transaction, Django may open a new connection at once.
            self.gone = not context["connection"].is_usable()
            raise


def _after_call() -> None:
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        # Checked during the call: it was not trusted and its first use checked it (or it was
        # opened in this call, which counts as a check too).
        checked = conn.health_check_done and not conn.__dict__.get("venture_trusted", False)
        had_errors = conn.errors_occurred
        conn.close_if_unusable_or_obsolete()  # after an error: checks it, closes it if broken
        if conn.connection is None:
            conn.venture_checked_at = _NEVER
        elif checked or had_errors:
            conn.venture_checked_at = now


class _PoolCall(SyncToAsync):
    """SyncToAsync on the pool, with the connection tidying above instead of Channels'
    DatabaseSyncToAsync (close_old_connections before and after every call)."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        trusted = _before_call()
        _CALL.loop = loop
        try:
            if not trusted:
                return super().thread_handler(loop, *args, **kwargs)
            watches = [(conn, _FirstStatement()) for conn in trusted]
            try:
                with ExitStack() as stack:
                    for conn, watch in watches:
                        stack.enter_context(conn.execute_wrapper(watch))
                    return super().thread_handler(loop, *args, **kwargs)
            except Exception:
                gone = [conn for conn, watch in watches if watch.gone]
                if not gone:
                    raise
                # Nothing of this call reached the database: run it again, on a new connection.
                log.warning("a database connection was gone; the call runs again on a new one")
                for conn in gone:
                    conn.close_if_unusable_or_obsolete()  # the dead one, if still there
                    conn.venture_checked_at = _NEVER
                return super().thread_handler(loop, *args, **kwargs)
        finally:
            _CALL.loop = None
            _after_call()


def in_pool(func: Callable[..., Any]) -> Any:
    """`func` (blocking: the ORM, the engine, templates) as a coroutine run on the pool."""
    return _PoolCall(func, thread_sensitive=False, executor=_POOL)
