"""A game's time control as one value: what a seek asks for, what two seeks must share to pair,
and what the game is created with.

Stored as a short key (`Seek.time_control`), which is also what matching compares:

- `untimed`: no clock;
- `clock:M+S`: a chess clock of M minutes each, S seconds added per answer (the New game
  form's clock: `Game.clock_seconds`, `Game.clock_increment`);
- `days:N`: a correspondence game, N days (one of DAYS_PER_MOVE) for each answer
  (`Game.days_per_move`; services/correspondence.py). Seeks of `days:3` pair only with
  `days:3`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ActionRefused

# The New game form's bounds (forms.ClockFields), so a seek can ask for any clock a game can have.
MAX_MINUTES = 180
MAX_INCREMENT = 120

_CLOCK = re.compile(r"clock:(\d{1,3})\+(\d{1,3})")
_DAYS = re.compile(r"days:(\d{1,2})")

# Lichess's correspondence choices below a week: enough for a player who looks once a day, few
# enough that two seeks meet.
DAYS_PER_MOVE = (1, 2, 3, 7)


@dataclass(frozen=True, slots=True)
class TimeControl:
    kind: str  # "untimed", "clock" or "days"
    minutes: int = 0
    increment: int = 0
    days: int = 0

    @classmethod
    def untimed(cls) -> TimeControl:
        return cls("untimed")

    @classmethod
    def clock(cls, minutes: int, increment: int) -> TimeControl:
        """A chess clock; 0 minutes is no clock (as on the New game form)."""
        if not 0 <= minutes <= MAX_MINUTES or not 0 <= increment <= MAX_INCREMENT:
            raise ActionRefused(
                f"A clock has 0 to {MAX_MINUTES} minutes each and 0 to {MAX_INCREMENT} seconds "
                "per answer.",
                "bad_input",
            )
        return cls("clock", minutes, increment) if minutes else cls.untimed()

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        if days not in DAYS_PER_MOVE:
            choices = ", ".join(map(str, DAYS_PER_MOVE))
            raise ActionRefused(f"A correspondence game has {choices} days per move.", "bad_input")
        return cls("days", days=days)

    @classmethod
    def from_key(cls, key: str) -> TimeControl:
        if key == "untimed":
            return cls.untimed()
        if m := _CLOCK.fullmatch(key):
            return cls.clock(int(m[1]), int(m[2]))
        if m := _DAYS.fullmatch(key):
            return cls.correspondence(int(m[1]))
        raise ActionRefused(f"Unknown time control {key[:30]!r}.", "bad_input")

    @property
    def key(self) -> str:
        if self.kind == "days":
            return f"days:{self.days}"
        return "untimed" if self.kind == "untimed" else f"clock:{self.minutes}+{self.increment}"

    @property
    def label(self) -> str:
        if self.kind == "untimed":
            return "Untimed"
        if self.kind == "days":
            return f"{self.days} day{'s' if self.days > 1 else ''} per move"
        return f"{self.minutes} min + {self.increment} s"

    def game_fields(self) -> dict[str, int]:
        """The time a game of this control is created with (lifecycle, Game's fields)."""
        days = self.days if self.kind == "days" else 0
        if self.kind != "clock":
            return {"clock_seconds": 0, "clock_increment": 0, "days_per_move": days}
        return {
            "clock_seconds": self.minutes * 60,
            "clock_increment": self.increment,
            "days_per_move": 0,
        }


# What the lobby's Play now offers at one click; any other clock is a custom one (the same two
# numbers as the New game form), which pairs only with the same custom clock.
PRESETS = (
    TimeControl.untimed(),
    TimeControl("clock", 10, 5),
    TimeControl("clock", 20, 10),
    TimeControl("clock", 30, 20),
    *(TimeControl.correspondence(days) for days in DAYS_PER_MOVE),
)
