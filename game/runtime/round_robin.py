"""Work shared out round-robin between owners (`RoundRobin`): a server's thinking for the computer,
one thought per player in turn (game/computer_turns.py says who an owner is and what runs).

Guarantees. `await rr.run(owner, item)` gives what `work(item)` returned (or raises what it
raised). At most `slots` works run at once. When a slot frees, it goes to the next owner in the
rotation who has work waiting, and that owner's oldest item; an owner who gets a slot goes to the
back of the rotation, one who comes to wait joins it at the back. So while k owners have work
waiting, an item waits for at most k - 1 items of other owners to start before its owner's
turn comes, however many each of them has queued (first come, first served by item would make
it wait behind all of them), plus the ones running when it came. An item whose caller stopped
waiting (its task cancelled) is dropped without running. Everything happens on one event loop:
`run` is called from it, and no lock is needed.

Private APIs: none (asyncio).

Re-measure: `bench/computer_latency.py --case crowd` (one player's many Hard games against
another player's one, docs/performance.md) against a copy whose `run` starts `work` at once.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class RoundRobin[O: Hashable, T]:
    def __init__(self, slots: int, work: Callable[[T], Awaitable[Any]]) -> None:
        self.slots = max(1, slots)
        self.work = work
        self.running = 0
        self.tasks: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references
        # Each owner's items, oldest first; the dict's order is the rotation (the next owner to
        # get a slot first).
        self.waiting: dict[O, deque[tuple[T, asyncio.Future[Any]]]] = {}

    async def run(self, owner: O, item: T) -> Any:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, deque()).append((item, done))
        self._start_next()
        return await done

    def _start_next(self) -> None:
        while self.running < self.slots and self.waiting:
            owner = next(iter(self.waiting))
            queue = self.waiting.pop(owner)
            item, done = queue.popleft()
            if queue:
                self.waiting[owner] = queue  # the back of the rotation
            if done.done():  # its caller stopped waiting
                continue
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
