"""The renders one process makes of one game's pages, made together.

After an answer every page of the game is redrawn: both players' (and any spectator's) sockets
receive `game.changed` at nearly the same moment, and each asked the database pool for its own
render — each reading the game, its seats and their presence again (`board.load_board`), one
pool call after the other. Here the requests for one game that are waiting when the pool gets
to them are served by one pool call: the rows are read once, then each page is rendered for its
own viewer (`board.render_board`: the viewer's seat, hand, prompt and CSRF token; nothing of one
viewer's render reaches another's page).

A request is always served by a pool call that starts after it was made (the call takes the
waiting requests when it begins, under a lock), so a page never gets a render older than the
moment it asked. With PostgreSQL and two processes the players of a game are usually on
different processes, so this mostly helps the embedded default and spectators
(docs/performance.md, change 32).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

from . import board
from .dbpool import in_pool
from .models import Player


@dataclass
class Request:
    """One page's render: its viewer, whether the whole board is wanted, and for the CSRF
    token and the absolute links, the page's own token and origin."""

    viewer: Player | None
    whole: bool
    csrf_token: str | None
    base_url: str
    done: asyncio.Future[board.Rendered] = field(repr=False)


@dataclass
class _Batch:
    requests: list[Request] = field(default_factory=list)
    closed: bool = False


_LOCK = threading.Lock()  # the event loop adds requests; the pool thread takes them
_WAITING: dict[int, _Batch] = {}  # game id -> the requests no pool call has taken yet
_RUNNING: set[asyncio.Task[None]] = set()  # (a reference to each running batch's task)


async def render(
    game_id: int, viewer: Player | None, *, whole: bool, csrf_token: str | None, base_url: str
) -> board.Rendered:
    """This page's board, rendered in a pool call shared with the other pages of the game that
    ask meanwhile. Raises what the render raised (Game.DoesNotExist: the game is gone)."""
    loop = asyncio.get_running_loop()
    request = Request(viewer, whole, csrf_token, base_url, loop.create_future())
    with _LOCK:
        batch = _WAITING.get(game_id)
        first = batch is None
        if batch is None:
            batch = _WAITING[game_id] = _Batch()
        batch.requests.append(request)
    if first:
        # A task of its own: the page that started the batch may go away (its socket closes)
        # while the others still wait for their renders.
        task = loop.create_task(_run(game_id, batch))
        _RUNNING.add(task)
        task.add_done_callback(_RUNNING.discard)
    return await request.done


async def _run(game_id: int, batch: _Batch) -> None:
    try:
        results = await in_pool(_render_all)(game_id, batch)
    except BaseException as e:
        # Nothing was rendered (the game is gone, the database failed): every page hears why.
        for request in _take(game_id, batch):
            if not request.done.done():
                request.done.set_exception(e)
        if not isinstance(e, Exception):
            raise
        return
    for request, result in results:
        if request.done.done():  # (that page stopped waiting)
            continue
        if isinstance(result, Exception):
            request.done.set_exception(result)
        else:
            request.done.set_result(result)


def _take(game_id: int, batch: _Batch) -> list[Request]:
    """The batch's requests, closing it: a request made from now on starts a new batch."""
    with _LOCK:
        if not batch.closed:
            batch.closed = True
            if _WAITING.get(game_id) is batch:
                del _WAITING[game_id]
        return list(batch.requests)


def _render_all(game_id: int, batch: _Batch) -> list[tuple[Request, Any]]:
    """In the pool: read the game once, render it for every request taken (a failure of one
    page's render is that page's alone)."""
    requests = _take(game_id, batch)
    game, seats = board.load_board(game_id)
    out: list[tuple[Request, Any]] = []
    for request in requests:
        try:
            rendered = board.render_board(
                game,
                request.viewer,
                whole=request.whole,
                csrf_token=request.csrf_token,
                base_url=request.base_url,
                seats=seats,
            )
        except Exception as e:  # noqa: BLE001 - handed to that page's consumer, which logs it
            out.append((request, e))
        else:
            out.append((request, rendered))
    return out
