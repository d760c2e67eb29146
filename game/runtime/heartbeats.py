"""One heartbeat per process for all its game sockets.

Guarantees. A seated player's connection is "online" while its `Connection` row was seen within
`Connection.PRESENCE_TTL_SECONDS` (game/models.py). Every HEARTBEAT_SECONDS, one task per event
loop beats for every socket registered with it (`join` until `leave`): one pool call refreshes
all their rows in one statement and reads who is online in all their games in one query (the
`Alive` function a socket joins with, `services.viewers_alive`: one of each per 500 sockets);
then each page whose game's presence differs from what its last render showed is redrawn
(`GameConsumer.presence`), and only those: the sockets beat together, so a beat that redrew
every page would redraw a whole process at once. Each beat also re-joins every socket's
channel group (channels-redis forgets a group's members after a day). A failed beat is logged;
the next one tries again.

Private APIs: none (the channel layer's public `group_add`).

Re-measure: `bench/latency.py --games 100 --duration 60` (200 sockets on one process) against a
copy where `join` starts a task of its own for each socket (a pool call per socket per beat, as
each consumer once did), with HEARTBEAT_SECONDS = 1 in both copies so that a run has many beats:
what it saves grows with the sockets per process and the beats per second. docs/performance.md
has the figures.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from .dbpool import in_pool

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 20  # well inside Connection.PRESENCE_TTL_SECONDS

# Refresh these connections (channel names) and say, for each of these games, which seats have a
# live connection. Given by the caller, so that this plumbing does not depend on the services.
Alive = Callable[[list[str], Iterable[int]], dict[int, frozenset[int]]]


class Member(Protocol):
    """What a beat needs of a socket (GameConsumer)."""

    channel_name: str
    channel_layer: Any
    group: str
    game_id: int
    seat_id: int | None  # None: a spectator's socket, which has no row to refresh

    async def presence(self, online: frozenset[int]) -> None:
        """The seats of its game with a live connection, as of this beat."""


class _Beat:
    """The sockets of one event loop (one per server process; a test may run several loops)
    and the task that beats for them while there are any."""

    def __init__(self, alive: Alive) -> None:
        self.alive = alive
        self.members: dict[str, Member] = {}
        self.task: asyncio.Task[None] | None = None
        self.redraws: set[asyncio.Future[None]] = set()  # (references to the running redraws)

    async def run(self) -> None:
        while self.members:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await beat_once(self)


_BEATS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Beat] = weakref.WeakKeyDictionary()


def _beat_of(loop: asyncio.AbstractEventLoop, alive: Alive) -> _Beat:
    beat = _BEATS.get(loop)
    if beat is None:
        beat = _BEATS[loop] = _Beat(alive)
    beat.alive = alive  # every socket gives the same function: the latest one is used
    return beat


def join(member: Member, alive: Alive) -> None:
    """Beat for this socket from now on (until `leave`), with `alive` as the presence query."""
    beat = _beat_of(asyncio.get_running_loop(), alive)
    beat.members[member.channel_name] = member
    if beat.task is None or beat.task.done():
        beat.task = asyncio.get_running_loop().create_task(beat.run())


def leave(member: Member) -> None:
    beat = _BEATS.get(asyncio.get_running_loop())
    if beat is None:
        return
    beat.members.pop(member.channel_name, None)
    if not beat.members and beat.task is not None:
        beat.task.cancel()  # the last socket left: no task waits on with nothing to beat for
        beat.task = None


async def beat_once(beat: _Beat) -> None:
    """One beat for every socket registered now. A failure is logged and the next beat tries
    again: the sockets stay up, and their rows expire only after several missed beats."""
    members = list(beat.members.values())
    if not members:
        return
    try:
        for m in members:
            await m.channel_layer.group_add(m.group, m.channel_name)
        seated = [m.channel_name for m in members if m.seat_id is not None]
        online = await in_pool(beat.alive)(seated, {m.game_id for m in members})
    except Exception:
        log.exception("heartbeat of %d sockets failed", len(members))
        return
    for m in members:
        if m.channel_name in beat.members:  # (not gone meanwhile)
            task = asyncio.ensure_future(m.presence(online.get(m.game_id, frozenset())))
            beat.redraws.add(task)
            task.add_done_callback(beat.redraws.discard)
            task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a redraw after a heartbeat failed", exc_info=task.exception())
