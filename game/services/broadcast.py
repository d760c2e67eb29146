"""Telling a game's pages that it changed: "version N", after commit.

Nothing rendered (and no hand) is ever broadcast: each consumer renders its own viewer's page.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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
        message["from"], message["answers"] = answers

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        loop = dbpool.calling_loop()
        if loop is None:
            async_to_sync(layer.group_send)(group, message)
            return
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.add_done_callback(lambda done: _log_failed_send(done, group, version))

    transaction.on_commit(send)


def _log_failed_send(done: Future, group: str, version: int) -> None:
    # Nobody waits for it: a failure is logged. The pages catch up on their next heartbeat or
    # reconnect, which render the current version (consumers.py).
    if not done.cancelled() and done.exception() is not None:
        log.error("game.changed %s for %s was not sent", version, group, exc_info=done.exception())
