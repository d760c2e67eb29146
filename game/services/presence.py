"""Who is at the table: connections, who is online, since when a seat is away, and what a page
shows of each seat's time (its clock and its absence).

A seated player's websocket is a `Connection` row, refreshed by the process's heartbeat
(game/runtime/heartbeats.py calls `viewers_alive`); a row not seen for
`Connection.PRESENCE_TTL_SECONDS` is a connection whose server died. Every function takes the
instant it is about (`at`), read from the wall clock by default.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.models import Connection, Game, Player, Seat

from . import correspondence
from .broadcast import notify_game_changed
from .clock import clock_of
from .players import seat_of

HEARTBEAT_CHUNK = 500  # channel names per UPDATE (SQLite allows 32 766 parameters a statement)


def viewer_connected(
    game_id: int, player: Player | None, channel_name: str, *, at: datetime | None = None
) -> Seat | None:
    """A websocket opened on the game: a seated player's connection makes them "online"."""
    at = at or timezone.now()
    with transaction.atomic():
        game = Game.objects.get(pk=game_id)
        seat = seat_of(game, player)
        if seat is not None:
            Connection.objects.update_or_create(
                channel_name=channel_name, defaults={"seat": seat, "last_seen": at}
            )
            Seat.objects.filter(pk=seat.pk).update(offline_since=None)
            notify_game_changed(game)
    return seat


def viewer_disconnected(channel_name: str, *, at: datetime | None = None) -> None:
    """A seated player's websocket closed; when it was their last, their absence starts."""
    at = at or timezone.now()
    with transaction.atomic():
        conn = Connection.objects.select_related("seat__game").filter(channel_name=channel_name)
        row = conn.first()
        if row is None:
            return
        seat, game = row.seat, row.seat.game
        row.delete()
        fresh_after = at - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS)
        if not seat.live_connections.filter(last_seen__gte=fresh_after).exists():
            Seat.objects.filter(pk=seat.pk).update(offline_since=at)
        notify_game_changed(game)


def viewers_alive(
    channel_names: list[str], game_ids: Iterable[int], *, at: datetime | None = None
) -> dict[int, frozenset[int]]:
    """A process's heartbeat (game/runtime/heartbeats.py): these connections are still open.
    Returns, for each of the games, the seats with a live connection now (what the pages'
    presence marks show; a game with none is left out), so a page is redrawn only when that
    changed."""
    at = at or timezone.now()
    for i in range(0, len(channel_names), HEARTBEAT_CHUNK):
        chunk = channel_names[i : i + HEARTBEAT_CHUNK]
        Connection.objects.filter(channel_name__in=chunk).update(last_seen=at)
    since = at - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS)
    online: dict[int, set[int]] = {}
    games = sorted(set(game_ids))
    for i in range(0, len(games), HEARTBEAT_CHUNK):
        rows = Connection.objects.filter(
            seat__game_id__in=games[i : i + HEARTBEAT_CHUNK], last_seen__gte=since
        ).values_list("seat__game_id", "seat_id")
        for game_id, seat_id in rows:
            online.setdefault(game_id, set()).add(seat_id)
    return {game_id: frozenset(seats) for game_id, seats in online.items()}


def viewer_alive(
    channel_name: str | None, game_id: int, *, at: datetime | None = None
) -> frozenset[int]:
    """One connection's heartbeat (None: a spectator's, not recorded): see `viewers_alive`."""
    names = [channel_name] if channel_name is not None else []
    return viewers_alive(names, [game_id], at=at).get(game_id, frozenset())


def online_seat_ids(game: Game, *, at: datetime | None = None) -> set[int]:
    return set(viewers_alive([], [game.pk], at=at).get(game.pk, ()))


def absences(game: Game, seats: list[Seat], at: datetime) -> dict[int, datetime | None]:
    """Since when each seat has had no open connection (None: connected now, and always for the
    computer). A connection
    whose heartbeat stopped (its server died) counts from its last beat; a seat that never
    connected, from the start of the game."""
    fresh_after = at - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS)
    latest = _latest_seen(game, seats)
    out: dict[int, datetime | None] = {}
    for seat in seats:
        seen = latest.get(seat.pk)
        if seat.player.is_computer:  # it has no socket, and never leaves
            out[seat.pk] = None
            continue
        if seen is not None and seen >= fresh_after:
            out[seat.pk] = None
            continue
        known = [t for t in (seat.offline_since, seen) if t is not None]
        out[seat.pk] = max(known) if known else (game.started or at)
    return out


def _latest_seen(game: Game, seats: list[Seat]) -> dict[int, datetime]:
    """Each seat's freshest connection: what seats read by board.load_board carry already
    (`latest_seen`, no query), or one query of the game's connections."""
    if all(hasattr(seat, "latest_seen") for seat in seats):
        return {s.pk: s.latest_seen for s in seats if s.latest_seen is not None}
    latest: dict[int, datetime] = {}
    rows = Connection.objects.filter(seat__game=game).values_list("seat_id", "last_seen")
    for seat_id, seen in rows:
        if seat_id not in latest or seen > latest[seat_id]:
            latest[seat_id] = seen
    return latest


@dataclass
class SeatTiming:
    """What a page shows of one seat's time: its clock now, and how long it has been away."""

    clock_ms: int | None  # time left at `at` (None: the game has no clock)
    clock_running: bool
    absent_since: datetime | None
    absent_seconds: float = 0.0
    # A correspondence game's seat that must decide: seconds left of its days (0: out of them).
    answer_in: float | None = None

    @property
    def claimable_in(self) -> float | None:
        """Seconds until the opponent may claim the win (0: now), None while connected."""
        if self.absent_since is None:
            return None
        return max(0.0, settings.VENTURE_ABANDON_SECONDS - self.absent_seconds)


def timings(game: Game, seats: list[Seat], at: datetime | None = None) -> dict[int, SeatTiming]:
    at = at or timezone.now()
    # In a game of days nobody "leaves": being away is how it is played (correspondence.py).
    live = game.status == Game.ACTIVE and not game.is_correspondence
    away = absences(game, seats, at) if live else {}
    clock = clock_of(game, seats)
    answer_in = correspondence.seconds_left(game, at)
    out = {}
    for seat in seats:
        since = away.get(seat.pk)
        out[seat.pk] = SeatTiming(
            clock_ms=clock.remaining(seat.engine_name, at) if clock is not None else None,
            clock_running=clock is not None and clock.running == seat.engine_name,
            absent_since=since,
            absent_seconds=(at - since).total_seconds() if since is not None else 0.0,
            answer_in=answer_in if seat.engine_name == game.deciding else None,
        )
    return out
