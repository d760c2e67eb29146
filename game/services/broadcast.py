"""Telling a game's pages that it changed: "version N", after commit; and its chat's new lines.

Nothing rendered (and no hand) is ever broadcast: each consumer renders its own viewer's page.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from game.models import Game
from game.runtime import dbpool

log = logging.getLogger(__name__)


def notify_game_changed(game: Game, answers: tuple[int, list[Any]] | None = None) -> None:
    """After commit, tell everyone watching `game` its new version (they re-render themselves),
    and with `answers` (the index of the first, then [engine name, answer] pairs) the answers
    that commit added: a process whose engine is behind catches up from them
    (engines.offer_answers). They stay inside the servers: a consumer renders its viewer's page
    and sends nothing else.

    From a consumer's pool thread (game/runtime/dbpool.py) the message is handed to the
    consumer's event loop and the thread goes on: waiting for the loop to get to it and for the
    channel layer's round trip (Redis) kept the pool's one thread from the renders queued
    behind it. Elsewhere (a page's request, a management command) it is sent before returning."""
    group, version = game.group_name, game.version
    message: dict[str, Any] = {"type": "game.changed", "version": version}
    if answers is not None:
        # With the log's epoch: the same indexes hold other answers after a takeback.
        message["from"], message["answers"] = answers
        message["epoch"] = game.log_epoch

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        _send(lambda: layer.group_send(group, message), f"game.changed {version} for {group}")

    transaction.on_commit(send)


def notify_group(group: str, message: dict[str, Any]) -> None:
    """After commit, `message` to the channel group `group` (a chat line, services/chat.py:
    plain data that each consumer filters for its own viewer before it renders anything)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        _send(lambda: layer.group_send(group, message), f"{message['type']} for {group}")

    transaction.on_commit(send)


def _send(make: Callable[[], Coroutine[Any, Any, None]], what: str) -> None:
    """Run a channel layer's coroutine from a thread: handed to the calling consumer's loop
    when there is one (without waiting), else run before returning."""
    loop = dbpool.calling_loop()
    if loop is None:

        async def run() -> None:
            await make()

        async_to_sync(run)()
        return
    sent = asyncio.run_coroutine_threadsafe(make(), loop)
    sent.add_done_callback(lambda done: _log_failed_send(done, what))


def _log_failed_send(done: Future, what: str) -> None:
    # Nobody waits for it: a failure is logged. The pages catch up on their next heartbeat or
    # reconnect, which render the current version (consumers.py); a computer's turn is handed
    # out again by the watchdog (game/computer_turns.py).
    if not done.cancelled() and done.exception() is not None:
        log.error("%s was not sent", what, exc_info=done.exception())


# The computer's turns ----------------------------------------------------------------------------
# In a server that thinks for the computer itself (VENTURE_COMPUTER=server),
# game/computer_turns.py hands its runner in here when it starts; elsewhere (a test, a
# management command) nobody thinks, and a turn waits for the next server's start, which hands
# out every pending one.
_local_runner: Callable[[int], None] | None = None


def set_computer_runner(runner: Callable[[int], None] | None) -> None:
    global _local_runner
    _local_runner = runner


def notify_computer_turn(game_id: int) -> None:
    """After commit, hand the computer's pending decision in `game_id` to whoever thinks: the
    workers' channel (VENTURE_COMPUTER=worker) or this server's runner."""

    def send() -> None:
        if settings.VENTURE_COMPUTER == "worker":
            layer = get_channel_layer("computer")
            message = {"type": "computer.turn", "game": game_id}
            _send(
                lambda: layer.send(settings.COMPUTER_CHANNEL, message),
                f"the computer's turn in game {game_id}",
            )
        elif _local_runner is not None:
            _local_runner(game_id)

    transaction.on_commit(send)
