"""A seat as a page shows it (`SeatView`, the one place one is made from a `Seat`, for the live
board and the replay), and the turn strip as the viewing seat sees it: the steps where its
player stops."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game import services

from . import memos
from .text import PREGAME_KINDS, STEP_LABELS, clock_text
from .viewmodel import SeatView, Turn

if TYPE_CHECKING:
    from game.models import Seat
    from game.services import SeatTiming

# A replay's seats: no clock runs, nobody is present or absent.
_NO_TIME = services.SeatTiming(clock_ms=None, clock_running=False, absent_since=None)


def seat_view(
    seat: Seat, *, is_viewer: bool, connected: bool = False, timing: SeatTiming | None = None
) -> SeatView:
    """`seat` for one viewer (`is_viewer`: its hand is drawn as cards, not backs). With `timing`
    (a running game's clock and presence) the seat's own settings come too: full control, where
    passing takes it, its stops, a rematch it offers, the computer's level. Without, the seat
    of a replay, read-only: not connected, no clock, and nothing stops anyone (a replay answers
    no decision)."""
    live = timing is not None
    return SeatView(
        pk=seat.pk,
        engine_name=seat.engine_name,
        display_name=seat.player.display_name,
        deck_name=seat.deck_name,
        is_viewer=is_viewer,
        connected=connected,
        timing=timing or _NO_TIME,
        clock_text=clock_text(timing.clock_ms) if timing else "",
        full_control=live and seat.full_control,
        # "pass until my next turn" -> "until my next turn"
        passing=seat.get_pass_until_display()[5:] if live and seat.pass_until else "",
        stops=services.stops_of(seat) if live else frozenset(),
        rematch_offered=live and seat.rematch_offered,
        computer=(
            seat.player.get_computer_level_display() if live and seat.player.is_computer else ""
        ),
    )


def turn_view(turn: dict[str, Any], pending: dict[str, Any] | None, me: SeatView | None) -> Turn:
    """The turn and its steps; for a player, the steps of the strip are their stops for the
    turn being played (their own turn's, or the opponent's)."""
    step = turn["step"]
    side = "mine" if me is not None and turn["active"] == me.engine_name else "theirs"
    stops = me.stops if me is not None else None
    if pending and pending["kind"] in PREGAME_KINDS:  # no turn has begun: no step is current
        return Turn(
            number=turn["number"],
            active=turn["active"],
            step="",
            step_label=PREGAME_KINDS[pending["kind"]],
            steps=memos.turn_steps(""),
            pregame=True,
        )
    return Turn(
        number=turn["number"],
        active=turn["active"],
        step=step,
        step_label=STEP_LABELS.get(step, step),
        steps=memos.turn_steps(step, side, stops),
        stops_settable=stops is not None,
        stop_side=side,
    )
