"""A page's board as a socket asks for it: a player's in a pool call of its own, the spectators'
pages of one game together, with one shared render.

Guarantees. A player's page (or any page with a viewer) is rendered in a pool call of its own:
the game, its seats and their presence are read (`load_board`), then the board is rendered for
that viewer (`render_board`: the viewer's seat, hand, prompt and CSRF token).

A spectator's board is the same for every spectator (`shared`): made for no viewer, without a
CSRF token (a spectator's view has no form that posts) and with the page's origin for its
links, it has nothing of anyone's in it. The spectator pages of one game that are waiting when
the pool gets to them are served by one pool call and one read of the game
(game/runtime/batches.py: a page never gets a render older than the moment it asked), and all
those of one origin get one render. The render is kept (`SHARED`, one per game and origin,
SHARED_GAMES at most: game/runtime/lru.py's `StateMemo`) for the next batches while what it was
made from is unchanged: the game's and its seats' rows as read, who is connected, and, for what
time changes, until its next redraw is due (a countdown, a clock at zero) or, while a chess
clock runs, for SHARED_WHILE_CLOCK_RUNS seconds (the page ticks the clock itself). Each batch
still reads the game (one query); what it saves is the render.

The players' pages are not batched: reading the game once for both players' pages that ask at
the same moment showed no repeatable gain (docs/performance.md, "Removed").

Private APIs: none (the batching is game/runtime/batches.py's; a row's values are read through
Django's public `get_deferred_fields` and `_meta.get_fields`).

Re-measure: the spectators' shared render with `bench/spectators.py` (many spectators of one
game) against a copy where a spectator's page is rendered like a player's. docs/performance.md
has the figures.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from django.db.models import Model

from .. import services
from ..models import Game, Player, Seat
from ..runtime.batches import Batches
from ..runtime.dbpool import in_pool
from ..runtime.lru import StateMemo
from .query import load_board
from .render import Rendered, render_board


@dataclass(frozen=True)
class Request:
    """One spectator page's render: whether the whole board is wanted, and the page's origin
    for the absolute links."""

    whole: bool
    base_url: str


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
    return await SPECTATORS.ask(game_id, Request(whole, base_url))


def _render_page(
    game_id: int, viewer: Player | None, whole: bool, csrf_token: str | None, base_url: str
) -> Rendered:
    """In the pool: one page's board for its own viewer."""
    game, seats = load_board(game_id)
    return render_board(
        game, viewer, whole=whole, csrf_token=csrf_token, base_url=base_url, seats=seats
    )


def _render_spectators(game_id: int, requests: list[Request]) -> list[Any]:
    """In the pool: read the game once, one spectator render per origin for the requests (a
    failure of one origin's render is its pages' alone)."""
    game, seats = load_board(game_id)
    by_origin: dict[str, Any] = {}
    for base_url in dict.fromkeys(r.base_url for r in requests):
        whole = any(r.whole for r in requests if r.base_url == base_url)
        try:
            by_origin[base_url] = _spectator_render(game, seats, base_url, whole)
        except Exception as e:
            by_origin[base_url] = e
    return [by_origin[r.base_url] for r in requests]


SPECTATORS: Batches[int, Request] = Batches(_render_spectators)


# the spectators' shared render ---------------------------------------------------------------
SHARED_WHILE_CLOCK_RUNS = 0.25  # seconds a render with a running chess clock is reused
SHARED_GAMES = 512  # renders kept (one per game and origin), the least recently used dropped


# (game id, origin) -> the render, made from `_state`, until a monotonic time (thread-safe: the
# pool's threads)
SHARED: StateMemo[tuple[int, str], Rendered] = StateMemo(SHARED_GAMES)
_COUNT_LOCK = threading.Lock()
renders_made = 0  # spectator renders made by this process (the tests count them)


def _row(obj: Model) -> tuple[Any, ...]:
    """The values of a row as read (the fields loaded: the board defers the bulky ones)."""
    deferred = obj.get_deferred_fields()
    return tuple(
        getattr(obj, f.attname)
        for f in obj._meta.get_fields()
        if f.concrete and f.attname not in deferred
    )


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
    kept = SHARED.get(key, state, now)
    if kept is not None and (kept.board is not None or not whole):
        return kept
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
    SHARED.put(key, state, rendered, fresh_until)
    return rendered
