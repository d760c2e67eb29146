"""A page's render; the spectators' pages of one game made together, with one shared render.

Guarantees. A player's page (or any page with a viewer) is rendered in a pool call of its own:
the game, its seats and their presence are read (`load_board`), then the board is rendered for
that viewer (`render_board`: the viewer's seat, hand, prompt and CSRF token).

A spectator's board is the same for every spectator (`shared`): made for no viewer, without a
CSRF token (a spectator's view has no form that posts) and with the page's origin for its
links, it has nothing of anyone's in it. The spectator pages of one game that are waiting when
the pool gets to them are served by one pool call and one read of the game (the call takes the
waiting requests when it begins, under a lock, so a page never gets a render older than the
moment it asked), and all those of one origin get one render. The render is kept (`_SHARED`, one
per game and origin, SHARED_GAMES at most) for the next batches while what it was made from is
unchanged: the game's and its seats' rows as read, who is connected, and, for what time
changes, until its next redraw is due (a countdown, a clock at zero) or, while a chess clock
runs, for SHARED_WHILE_CLOCK_RUNS seconds (the page ticks the clock itself). Each batch still
reads the game (one query), so a page never gets a render of a state older than the moment it
asked; what it saves is the render.

The players' pages are not batched: reading the game once for both players' pages that ask at
the same moment showed no repeatable gain (docs/performance.md, "Removed").

Private APIs: none (asyncio, threading, the board's and the pool's own functions).

Re-measure: the spectators' shared render with `bench/spectators.py` (many spectators of one
game) against a copy where a spectator's page is rendered like a player's. docs/performance.md
has the figures.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Model

from .. import services
from ..models import Game, Player, Seat
from ..runtime.dbpool import in_pool
from ..runtime.lru import LRU
from .query import load_board
from .render import Rendered, render_board


@dataclass
class Request:
    """One spectator page's render: whether the whole board is wanted, and the page's origin
    for the absolute links."""

    whole: bool
    base_url: str
    done: asyncio.Future[Rendered] = field(repr=False)


@dataclass
class _Batch:
    requests: list[Request] = field(default_factory=list)
    closed: bool = False


_LOCK = threading.Lock()  # the event loop adds requests; the pool thread takes them
_WAITING: dict[int, _Batch] = {}  # game id -> the requests no pool call has taken yet
_RUNNING: set[asyncio.Task[None]] = set()  # (a reference to each running batch's task)


async def render(
    game_id: int,
    viewer: Player | None,
    *,
    whole: bool,
    csrf_token: str | None,
    base_url: str,
    shared: bool = False,
) -> Rendered:
    """This page's board. `shared`: a spectator's page, which gets the spectator render shared
    by all of them, made in a pool call shared with the game's other spectator pages that ask
    meanwhile (`viewer` and `csrf_token` must then be None); otherwise a pool call of its own.
    Raises what the render raised (Game.DoesNotExist: the game is gone)."""
    if not shared:
        return await in_pool(_render_page)(game_id, viewer, whole, csrf_token, base_url)
    if viewer is not None or csrf_token is not None:
        raise ValueError("a shared render is made for no viewer and without a CSRF token")
    loop = asyncio.get_running_loop()
    request = Request(whole, base_url, loop.create_future())
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


def _render_page(
    game_id: int, viewer: Player | None, whole: bool, csrf_token: str | None, base_url: str
) -> Rendered:
    """In the pool: one page's board for its own viewer."""
    game, seats = load_board(game_id)
    return render_board(
        game, viewer, whole=whole, csrf_token=csrf_token, base_url=base_url, seats=seats
    )


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
    """In the pool: read the game once, one spectator render per origin for every request
    taken (a failure of one origin's render is its pages' alone)."""
    requests = _take(game_id, batch)
    game, seats = load_board(game_id)
    by_origin: dict[str, list[Request]] = {}
    for request in requests:
        by_origin.setdefault(request.base_url, []).append(request)
    out: list[tuple[Request, Any]] = []
    for base_url, pages in by_origin.items():
        result: Any
        try:
            result = _spectator_render(game, seats, base_url, any(r.whole for r in pages))
        except Exception as e:
            result = e
        out.extend((request, result) for request in pages)
    return out


# the spectators' shared render ---------------------------------------------------------------
SHARED_WHILE_CLOCK_RUNS = 0.25  # seconds a render with a running chess clock is reused
SHARED_GAMES = 512  # renders kept (one per game and origin), the least recently used dropped


@dataclass
class _Shared:
    state: tuple[Any, ...]  # what it was made from (_state)
    rendered: Rendered
    fresh_until: float  # monotonic time after which it is made again (inf: while `state` holds)


_SHARED: LRU[tuple[int, str], _Shared] = LRU(SHARED_GAMES)  # (thread-safe: the pool's threads)
_COUNT_LOCK = threading.Lock()
renders_made = 0  # spectator renders made by this process (the tests count them)


def _row(obj: Model) -> tuple[Any, ...]:
    """The values of a row as read (the fields loaded: the board defers the bulky ones)."""
    loaded = obj.__dict__
    return tuple(loaded[f.attname] for f in obj._meta.concrete_fields if f.attname in loaded)


def _state(game: Game, seats: list[Seat] | None) -> tuple[Any, ...]:
    """Everything besides the clock that a spectator's board is made from: the game's row (its
    version among it), each seat's and player's row, and since when each seat has been away
    (None: connected), which moves only when a connection comes, goes or expires. The engine's
    state is the version's."""
    if seats is None:
        return (_row(game),)
    away = services.timings(game, seats)
    return (
        _row(game),
        *((_row(s), _row(s.player), away[s.pk].absent_since) for s in seats),
    )


def _spectator_render(game: Game, seats: list[Seat] | None, base_url: str, whole: bool) -> Rendered:
    """The spectators' board of this state, from the kept render when it still holds."""
    global renders_made
    key = (game.pk, base_url)
    state = _state(game, seats)
    now = time.monotonic()
    kept = _SHARED.get(key)
    if (
        kept is not None
        and kept.state == state
        and now < kept.fresh_until
        and (kept.rendered.board is not None or not whole)
    ):
        return kept.rendered
    rendered = render_board(
        game, None, whole=whole, csrf_token=None, base_url=base_url, seats=seats
    )
    fresh_until = float("inf")
    if game.status != Game.ACTIVE or seats is None:
        # Kept for this batch only: an open game's page is small, and a finished one's shows a
        # rematch once there is one, which is not in the rows read here.
        fresh_until = now
    if rendered.wake_in is not None:  # time alone changes this page then
        fresh_until = min(fresh_until, now + rendered.wake_in)
    if game.has_clock and game.clock_since is not None:
        fresh_until = min(fresh_until, now + SHARED_WHILE_CLOCK_RUNS)
    with _COUNT_LOCK:
        renders_made += 1
    _SHARED.put(key, _Shared(state, rendered, fresh_until))
    return rendered
