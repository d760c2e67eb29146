"""The thread pool the websockets' blocking work runs on (`in_pool`).

Guarantees. A consumer's database work and renders run on VENTURE_DB_THREADS threads (default
1: the work is mostly Python, and more threads only contend for the interpreter's lock), not on
Channels' single `database_sync_to_async` thread, each thread with its own persistent
connection, so the sockets of a process no longer queue behind one thread's database waits.
Around each call a thread tidies its connections as Django does around a request and Channels
around a `database_sync_to_async` call (`close_old_connections`: a connection left in error,
with the wrong autocommit, or past CONN_MAX_AGE is closed, and CONN_HEALTH_CHECKS checks each
connection again on its first use in the call). While a call runs, `calling_loop()` is the event
loop awaiting it, so work for the loop can be handed to it without the thread waiting.

Private APIs: none (asgiref's public `SyncToAsync(func, thread_sensitive=False, executor=...)`
and Django's `close_old_connections`).

Re-measure: `bench/latency.py --games 50` and `--scale --games 100` against a copy where
`in_pool(func)` is `channels.db.database_sync_to_async(func)`; docs/performance.md has the
figures.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import close_old_connections

_POOL = ThreadPoolExecutor(settings.VENTURE_DB_THREADS, thread_name_prefix="venture-db")
_CALL = threading.local()  # the event loop of the consumer whose call this thread runs


def calling_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that awaits the pool call this thread is running (None outside one):
    work for the loop can be handed to it without this thread waiting for it."""
    return getattr(_CALL, "loop", None)


def _run(loop: asyncio.AbstractEventLoop, func: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    close_old_connections()
    _CALL.loop = loop
    try:
        return func(*args, **kw)
    finally:
        _CALL.loop = None
        close_old_connections()


_IN_POOL = SyncToAsync(_run, thread_sensitive=False, executor=_POOL)


def in_pool(func: Callable[..., Any]) -> Any:
    """`func` (blocking: the ORM, the engine, templates) as a coroutine run on the pool."""

    @functools.wraps(func)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await _IN_POOL(asyncio.get_running_loop(), func, *args, **kwargs)

    return call
