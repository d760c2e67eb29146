"""Work shared out round-robin between owners (`RoundRobin`): a server's thinking for the computer,
one thought per player in turn (game/computer_turns.py says who an owner is and what runs).

Guarantees. `await rr.run(owner, item)` gives what `work(item)` returned (or raises what it
raised). At most `slots` works run at once. When a slot frees, it goes to the owner with work
waiting who got a slot least recently (one who never did, or too long ago to be remembered,
first), and to that owner's oldest item. So while k owners have work waiting, an item waits for
at most k - 1 items of other owners to start before its own owner's turn, however many each of
them has queued, plus the ones already running when it came (first come, first served, it waited
behind all of them). An item whose caller stopped waiting (its task cancelled) is dropped
without running. Everything happens on one event loop: `run` is called from it, and no lock is
needed.

Private APIs: none (asyncio).

Re-measure: `bench/computer_latency.py --case crowd` (one player's many Hard games against
another player's one, docs/performance.md) against a copy whose `run` starts `work` at once.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

REMEMBERED = 10_000  # owners whose last slot is remembered; the others count as never served


class RoundRobin[O: Hashable, T]:
    def __init__(self, slots: int, work: Callable[[T], Awaitable[Any]]) -> None:
        self.slots = max(1, slots)
        self.work = work
        self.running = 0
        self.tasks: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references
        self.waiting: dict[O, deque[tuple[T, asyncio.Future[Any]]]] = {}  # oldest item first
        # When each owner last got a slot (a count of slots given), least recent first.
        self.served: OrderedDict[O, int] = OrderedDict()
        self.given = 0

    async def run(self, owner: O, item: T) -> Any:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, deque()).append((item, done))
        self._start_next()
        return await done

    def _start_next(self) -> None:
        while self.running < self.slots and self.waiting:
            # `min` keeps the first of equals: among owners never served, the first to wait.
            owner = min(self.waiting, key=lambda o: self.served.get(o, -1))
            queue = self.waiting[owner]
            item, done = queue.popleft()
            if not queue:
                del self.waiting[owner]
            if done.done():  # its caller stopped waiting
                continue
            self.given += 1
            self.served[owner] = self.given
            self.served.move_to_end(owner)
            if len(self.served) > REMEMBERED:
                self.served.popitem(last=False)
            self.running += 1
            task = asyncio.get_running_loop().create_task(self._one(item, done))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _one(self, item: T, done: asyncio.Future[Any]) -> None:
        try:
            result = await self.work(item)
        except Exception as e:
            if not done.done():
                done.set_exception(e)
        else:
            if not done.done():
                done.set_result(result)
        finally:
            self.running -= 1
            self._start_next()
