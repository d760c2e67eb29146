"""Django's ASGI handler for HTTP, with a bound on the requests at work at once in a process
(`SlottedASGIHandler`).

Guarantees. At most `VENTURE_HTTP_CONCURRENCY` requests of a process are inside Django at once;
the others wait their turn in the event loop, holding nothing but their socket. Each request
closes its database connections when it is done.

Why. Django's ASGI handler runs each request's synchronous code (middleware, views) in a thread
of its own (asgiref's `ThreadSensitiveContext`), and that thread opens a database connection of
its own: a burst of N requests opens N connections at once, per process. A crowd pressing "Play
now" in the same second across two processes met PostgreSQL's `max_connections` (100 by
default) and got 500 pages ("sorry, too many clients already"). And the thread is never used
again, so CONN_MAX_AGE cannot keep its connection for a later request: left open, it stayed
until the garbage collector reached the request's context. Closing it at the end costs nothing
that was saved before; the websockets' connections, on the database pool's long-lived threads
(`dbpool`), keep CONN_MAX_AGE.

A process then holds at most VENTURE_HTTP_CONCURRENCY connections for its pages, plus
VENTURE_DB_THREADS for its websockets (and the computer's, when it thinks in the server): a
deployment's processes times that must stay under the database's `max_connections`.

Private APIs: none (Django's public `ASGIHandler.handle`, asgiref's `sync_to_async`).

Re-measure: `tests/scale/test_pairing.py` (200 guests pressing Play now at once on two
processes) with VENTURE_HTTP_CONCURRENCY=1000000 fails on a PostgreSQL of 100 connections.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


def _close_connections() -> None:
    """Close this request's database connections (its thread's: it runs on that thread)."""
    for connection in connections.all(initialized_only=True):
        connection.close()


class SlottedASGIHandler(ASGIHandler):
    """Django's ASGI handler: at most `slots` requests at work at once (default
    settings.VENTURE_HTTP_CONCURRENCY), each closing its database connections when done."""

    def __init__(self, slots: int | None = None) -> None:
        super().__init__()
        self.slots = settings.VENTURE_HTTP_CONCURRENCY if slots is None else slots
        # One semaphore per event loop: a semaphore belongs to the loop it first waited in, and
        # tests run the application in loops of their own.
        self._semaphores: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Semaphore
        ] = weakref.WeakKeyDictionary()

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            semaphore = self._semaphores[loop] = asyncio.Semaphore(self.slots)
        return semaphore

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        async with self._semaphore():
            try:
                await super().handle(scope, receive, send)
            finally:
                # Inside the request's ThreadSensitiveContext (ASGIHandler.__call__): this runs
                # on the request's own thread, which holds its connections.
                await sync_to_async(_close_connections)()
