"""Correspondence games: each answer has days, not minutes (`Game.days_per_move`, one of
time_controls.DAYS_PER_MOVE), as Lichess's "1 to 14 days per move".

The days of the seat that must decide count from `Game.clock_since`, which `store.commit`
moves to the instant of each change that hands a decision out anew (an answer, or the decision
passing to the other seat): a correspondence "move" is one answer, and stops and "pass until…"
(pace.py) answer the rest, so a turn asks only real decisions. When the days run out, nothing
happens by itself: the opponent may claim the win (`actions.claim_win`), as from a player who
left a live game. Who is connected plays no part here: in a game of days, being away is normal.

A player learns it is their turn from the lobby's "Your turn" list (`turns_of`), from the
browser's notification while a page of the site is open (static/js/turns.js polls
`/turns.json`), and by mail if they asked for it (turn_mail.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.models import Game, Player


def deadline(game: Game) -> datetime | None:
    """When the deciding seat's days run out (None: not a running correspondence game)."""
    if not game.is_correspondence or game.status != Game.ACTIVE or game.clock_since is None:
        return None
    return game.clock_since + timedelta(days=game.days_per_move)


def seconds_left(game: Game, at: datetime) -> float | None:
    """Seconds the deciding seat has left to answer at `at` (0: the days are out)."""
    end = deadline(game)
    return None if end is None else max(0.0, (end - at).total_seconds())


def decision_since(
    game: Game, before: datetime | None, *, moved: bool, at: datetime
) -> datetime | None:
    """What `store.commit` keeps as `clock_since` of a correspondence game: `at` once a
    decision is handed out anew (`moved`: new answers, or another seat to decide), else what it
    was (a change that answers nothing, a pace setting say, gives the deciding seat no days)."""
    if game.status != Game.ACTIVE or not game.deciding:
        return None
    return at if moved or before is None else before


def days_text(seconds: float) -> str:
    """Time to answer in a correspondence game, as a person says it: "3 days", "2 days 3 h",
    "5 h 12 min", "9 min". Rounded up, to the hour beyond a day and to the minute within
    one, so a move just made reads "3 days", not "2 days 23 h"."""
    if seconds <= 0:
        return "no time"
    hours = math.ceil(seconds / 3600)
    if hours > 24:
        days, hours = divmod(hours, 24)
        return f"{days} day{'s' if days > 1 else ''}" + (f" {hours} h" if hours else "")
    hours, minutes = divmod(math.ceil(seconds / 60), 60)
    if hours == 24:
        return "1 day"
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    return f"{minutes} min"


@dataclass(frozen=True)
class YourTurn:
    """A game in which it is `player`'s decision now (the lobby's "Your turn" list)."""

    game: Game
    opponent: str
    seconds_left: float | None  # correspondence games only

    @property
    def time_text(self) -> str:
        return days_text(self.seconds_left) if self.seconds_left is not None else ""


TURNS_LISTED = 50  # the lobby's list and the notifications' poll read no more than this


def turns_of(player: Player, at: datetime) -> list[YourTurn]:
    """The running games in which `player` must decide now, the correspondence games first,
    the soonest out of days first; then the live ones, the newest first."""
    games = (
        Game.objects.filter(status=Game.ACTIVE, seats__player=player)
        .defer(*Game.BULKY)
        .prefetch_related("seats__player")
        .order_by("-started")[:TURNS_LISTED]
    )
    turns = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.player_id == player.pk)
        if game.deciding != mine.engine_name:
            continue
        other = next((s for s in seats if s.pk != mine.pk), None)
        turns.append(
            YourTurn(game, other.player.display_name if other else "", seconds_left(game, at))
        )
    turns.sort(key=lambda t: (t.seconds_left is None, t.seconds_left or 0.0))
    return turns
