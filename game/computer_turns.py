"""Who runs the computer opponent's turns, off the request path: a server's runner or a Channels
worker, and the watch that makes sure every one of its decisions gets answered
(docs/architecture.md, "The computer opponent"). What it thinks is game/ai/'s, where it thinks
game/runtime/thinking.py's, the use-cases it calls game/services/computer.py's.

A turn is one pending decision of the computer in one game, named by the game's id only; what to
think about is read afresh when it is taken (`services.computer_turn`), and the answer goes
through `services.answer_for_computer`, the same checks as a person's answer with the version
it was thought at and a fixed action id, so a turn taken twice is applied once.

- VENTURE_COMPUTER=server (the default, and the embedded setup): each Daphne process thinks for
  the computer itself, in child processes (game/runtime/thinking.py), so its event loop and its
  database thread never wait for a thought. `ServerRunner` takes the turns `store.commit` hands
  out (services.set_computer_runner) on the server's event loop, one game at a time per game,
  and shares its thinking round-robin between the players the computer plays.
- VENTURE_COMPUTER=worker (at scale, with REDIS_URL): turns are messages on the channel
  `venture-computer` of the "computer" channel layer (channels-redis's core layer: a message
  waits in Redis for one worker), and `manage.py runworker --layer computer venture-computer`
  processes take them, each one at a time (`ComputerConsumer`), thinking in a thread of their
  own. A message only wakes a worker: the turn it takes is the waiting one next in turn
  round-robin between the players the computer plays (services/computer_queue.py, chosen and
  claimed in the database all workers share), so any number of workers share their thinking as
  one server's runner does.

Either way every server process keeps watch (`keep_watch`), started as Daphne's reactor starts
running (game/asgi.py) or else by the first request or socket it serves (`start`): it first
hands out every decision the computer has pending (a restart resumes its turn), then every few
seconds each one handed out more than VENTURE_COMPUTER_TIMEOUT_SECONDS ago and still not
answered (a worker killed mid-thought), claimed by one server only (`services.overdue_turns`).

Before it answers, the computer waits until VENTURE_COMPUTER_DELAY_SECONDS have passed since its
decision came up (thinking time included), so a person can follow the game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import AsyncConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from . import services
from .runtime import thinking
from .runtime.dbpool import in_pool
from .runtime.round_robin import RoundRobin

log = logging.getLogger(__name__)

WATCH_EVERY_SECONDS = 5.0

Think = Callable[[services.Turn], Awaitable[Any]]


async def think_in_child(job: thinking.Job) -> Any:
    return await asyncio.wrap_future(
        thinking.think_in_pool(job, settings.VENTURE_COMPUTER_PROCESSES)
    )


async def think_in_thread(job: thinking.Job) -> Any:
    return await asyncio.to_thread(thinking.think, job)


async def think_here(turn: services.Turn) -> Any:
    """A worker's thinking: in a thread of its own, one turn at a time."""
    return await think_in_thread(turn.job)


async def play_turn(game_id: int, think: Think) -> bool:
    """Take the computer's pending decision in `game_id`, if it has one: think, wait for the
    delay, answer. True when an answer was applied."""
    turn = await in_pool(services.computer_turn)(game_id)
    if turn is None:
        return False
    started = time.monotonic()
    answer = await think(turn)
    thought = time.monotonic() - started
    waited = (timezone.now() - turn.since).total_seconds() if turn.since else thought
    rest = settings.VENTURE_COMPUTER_DELAY_SECONDS - max(waited, thought)
    if rest > 0:
        await asyncio.sleep(rest)
    played = await in_pool(services.answer_for_computer)(turn, answer)
    log.debug(
        "game %s: the computer answered %r at %s (%.0f ms)",
        game_id,
        answer,
        turn.version,
        thought * 1000,
    )
    return played


class ComputerConsumer(AsyncConsumer):
    """A worker's consumer of the computer's turns: one at a time (a worker is one process,
    one core's worth of thinking). Each message, sent as a turn was handed out, wakes it to take
    the turn next in line round-robin (`services.take_turn`), which need not be the message's:
    each message takes at most one turn, so the ones left waiting have messages of their own
    still in Redis for the next free worker."""

    async def computer_turn(self, message: dict[str, Any]) -> None:
        game_id = None
        try:
            game_id = await in_pool(services.take_turn)()
            if game_id is not None:
                await play_turn(game_id, think_here)
        except Exception:  # the watchdog hands the turn out again
            log.exception("the computer's turn in game %s failed", game_id)


class ServerRunner:
    """Thinks for the computer inside a server process, on its event loop: a task per game
    with a decision pending, which goes on while the computer is to decide.

    The thinking is shared round-robin between the people the computer plays (`RoundRobin`,
    keyed by `Turn.owner_id`): at most VENTURE_COMPUTER_PROCESSES thoughts run at once (one in
    a thread with 0 processes), and a free one goes to the next player in turn, so a player's
    turn waits for at most one thought of each other player with one waiting, however many
    games they run (first come, first served, it waited behind every one of them)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.busy: set[int] = set()
        self.again: set[int] = set()  # handed out while busy: look once more before stopping
        self.tasks: set[asyncio.Task[None]] = set()
        processes = settings.VENTURE_COMPUTER_PROCESSES
        # 0 processes: in a thread of the server, which holds the server's interpreter lock
        # while it thinks (bench/computer_latency.py measures both).
        self.shared: RoundRobin[int | None, thinking.Job] = RoundRobin(
            processes, think_in_child if processes > 0 else think_in_thread
        )

    async def think(self, turn: services.Turn) -> Any:
        return await self.shared.run(turn.owner_id, turn.job)

    def hand(self, game_id: int) -> None:
        """A turn for the game (from any thread: commits happen on the database thread)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self._take, game_id)

    def _take(self, game_id: int) -> None:
        if game_id in self.busy:
            self.again.add(game_id)
            return
        self.busy.add(game_id)
        task = self.loop.create_task(self._run(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run(self, game_id: int) -> None:
        try:
            while True:
                self.again.discard(game_id)
                played = await play_turn(game_id, self.think)
                if not played and game_id not in self.again:
                    return
        except Exception:  # the watchdog hands the turn out again
            log.exception("the computer's turn in game %s failed", game_id)
        finally:
            self.busy.discard(game_id)
            self.again.discard(game_id)


_started: dict[str, Any] = {}  # this process's runner and watch, and the loop they run on


async def _hand_out(game_id: int) -> None:
    runner = _started.get("runner")
    if runner is not None:
        runner.hand(game_id)
        return
    layer = get_channel_layer("computer")
    await layer.send(settings.COMPUTER_CHANNEL, {"type": "computer.turn", "game": game_id})


async def keep_watch() -> None:
    """Hand out every pending decision of the computer now, then each overdue one, forever."""
    first = True
    while True:
        try:
            timeout = settings.VENTURE_COMPUTER_TIMEOUT_SECONDS
            if first:
                due = await in_pool(services.pending_turns)()
                why = "this server started"
            else:
                due = await in_pool(services.overdue_turns)(older_than=timeout)
                why = f"not answered within {timeout:g} s"
            first = False
            for game_id in due:
                log.info("game %s: the computer's turn is handed out again (%s)", game_id, why)
                await _hand_out(game_id)
        except Exception:
            log.exception("the computer's watch failed; it tries again")
        await asyncio.sleep(WATCH_EVERY_SECONDS)


def start() -> None:
    """Start this server process's part, once per event loop (called from the running loop: as
    Daphne's reactor starts, game/asgi.py, or by the first request or socket)."""
    loop = asyncio.get_running_loop()
    if _started.get("loop") is loop:
        return
    _started.clear()
    _started["loop"] = loop
    if settings.VENTURE_COMPUTER == "server":
        runner = ServerRunner(loop)
        _started["runner"] = runner
        services.set_computer_runner(runner.hand)
    _started["watch"] = loop.create_task(keep_watch())


class StartsComputer:
    """ASGI middleware: the first HTTP request or websocket of a server process starts its
    computer runner and watch (`start`)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] in ("http", "websocket"):
            start()
        return await self.application(scope, receive, send)
