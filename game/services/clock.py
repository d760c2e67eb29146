"""The chess clock as a value: each seat's time left, the increment, whose clock runs since when.

Nothing here reads the time: every question and every change takes the instant `now` it is
about, so the same clock gives the same answer in a test and on a server (as scalachess's
`Clock` does). The use-cases read the wall clock once, at their edge, and pass it down. A game
stores its clock as each seat's `clock_ms` (time left when its clock last stopped) and the
game's `clock_since` (when the clock of the seat that must decide started); `clock_of` reads
that, `store_clock` writes it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.models import Game, Seat


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


@dataclass(frozen=True)
class Clock:
    remaining_ms: Mapping[str, int]  # by engine name: time left when that seat's clock stopped
    increment_ms: int  # given back to a seat for each answer of its own
    running: str | None = None  # the seat whose clock runs (it must decide); None: stopped
    since: datetime | None = None  # when the running clock started

    def remaining(self, name: str, now: datetime) -> int | None:
        """Milliseconds left to `name` at `now` (never below zero); None: the seat has none."""
        left = self.remaining_ms.get(name)
        if left is None or name != self.running or self.since is None:
            return left
        return max(0, left - _ms(now - self.since))

    def flagged(self, now: datetime) -> str | None:
        """The seat that has lost on time at `now`: the running clock, once it reaches zero."""
        if self.running is None or self.running not in self.remaining_ms:
            return None
        return self.running if self.remaining(self.running, now) == 0 else None

    def stop(self, now: datetime, answered_by: str | None = None) -> Clock:
        """The running seat is charged the time since its clock started; an answer of its own
        (`answered_by`) earns the increment. Automatic answers are nobody's: they take no time
        and earn nothing."""
        name = self.running
        if name is None or self.since is None or name not in self.remaining_ms:
            return replace(self, running=None, since=None)
        left = self.remaining_ms[name] - _ms(now - self.since)
        if answered_by == name:
            left += self.increment_ms
        remaining = {**self.remaining_ms, name: left}
        return Clock(remaining, self.increment_ms, running=None, since=None)

    def start(self, name: str, now: datetime) -> Clock:
        """`name` must decide from `now` on: its clock runs."""
        return replace(self, running=name, since=now)


def clock_of(game: Game, seats: Iterable[Seat]) -> Clock | None:
    """The game's clock as stored (None: a game without one). It runs only while the game is
    in progress and someone must decide."""
    if not game.has_clock:
        return None
    remaining = {s.engine_name: s.clock_ms for s in seats if s.clock_ms is not None}
    running = game.status == game.ACTIVE and game.clock_since is not None
    return Clock(
        remaining,
        game.clock_increment * 1000,
        running=game.deciding if running else None,
        since=game.clock_since if running else None,
    )


def store_clock(game: Game, seats: Iterable[Seat], clock: Clock | None) -> None:
    """Write `clock` back to the (unsaved) game row and seats."""
    if clock is None:
        game.clock_since = None
        return
    for seat in seats:
        if seat.engine_name in clock.remaining_ms:
            seat.clock_ms = clock.remaining_ms[seat.engine_name]
    game.clock_since = clock.since
