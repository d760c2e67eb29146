"""Requests for one key that wait together, served by one pool call (`Batches`): the spectator
pages of a game that ask at the same moment share one read of the game and one render
(game/board/batching.py says what a request and its service are).

Guarantees. `await batches.ask(key, request)` gives the result `serve(key, requests)` returned
for that request, `serve` running on the pool (dbpool.in_pool) for every request of the key that
was waiting when the pool got to it. The pool call takes the waiting requests when it begins,
under a lock, so a request never gets a result made before it asked: a request made after that
starts the next batch. `serve` returns one result per request, in order; a result that is an
exception is raised to that request alone, and an exception of `serve` itself to every request
it took. A request that stops waiting (its socket closed) does not hold up the others: the pool
call is a task of its own.

Private APIs: none (asyncio, threading, dbpool.in_pool).

Re-measure: `bench/spectators.py --games 10 --spectators 200 --duration 20` against a copy where
`Batches.ask` calls `in_pool(serve)(key, [request])` for each request alone (and the board's
shared render is made for each page); docs/performance.md has the figures.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from .dbpool import in_pool


@dataclass
class _Batch:
    requests: list[Any] = field(default_factory=list)
    answers: list[asyncio.Future[Any]] = field(default_factory=list)
    closed: bool = False


class Batches[K: Hashable, R]:
    def __init__(self, serve: Callable[[K, list[R]], list[Any]]) -> None:
        self.serve = serve
        self._lock = threading.Lock()  # the event loop adds requests; the pool thread takes them
        self._waiting: dict[K, _Batch] = {}  # key -> the requests no pool call has taken yet
        self._running: set[asyncio.Task[None]] = set()  # (a reference to each running task)

    async def ask(self, key: K, request: R) -> Any:
        """`request`'s result, served with the key's other requests waiting meanwhile."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        with self._lock:
            batch = self._waiting.get(key)
            first = batch is None
            if batch is None:
                batch = self._waiting[key] = _Batch()
            batch.requests.append(request)
            batch.answers.append(answer)
        if first:
            # A task of its own: the request that started the batch may stop waiting while the
            # others still wait for theirs.
            task = loop.create_task(self._run(key, batch))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        return await answer

    def waiting(self) -> list[K]:
        """The keys with requests no pool call has taken yet."""
        with self._lock:
            return list(self._waiting)

    async def _run(self, key: K, batch: _Batch) -> None:
        try:
            results = await in_pool(self._serve_batch)(key, batch)
        except BaseException as e:
            # Nothing was served (the database failed, the key is gone): every request hears why.
            self._take(key, batch)
            for answer in batch.answers:
                if not answer.done():
                    answer.set_exception(e)
            if not isinstance(e, Exception):
                raise
            return
        for answer, result in zip(batch.answers, results, strict=True):
            if answer.done():  # (that request stopped waiting)
                continue
            if isinstance(result, Exception):
                answer.set_exception(result)
            else:
                answer.set_result(result)

    def _serve_batch(self, key: K, batch: _Batch) -> list[Any]:
        """In the pool: every request of the batch, which is closed first."""
        return self.serve(key, self._take(key, batch))

    def _take(self, key: K, batch: _Batch) -> list[R]:
        """The batch's requests, closing it: a request made from now on starts a new batch."""
        with self._lock:
            if not batch.closed:
                batch.closed = True
                if self._waiting.get(key) is batch:
                    del self._waiting[key]
            return list(batch.requests)
