"""What a seated player does during a game besides answering (answers.py): concede, claim the
win, set their pace (full control, passing, stops); offer or decline a rematch once it is over
(lifecycle.py); and `perform`, the one entry of the websocket and of the plain POSTs. Each runs
in the frame every action shares, with its checks and the time loss (acting.py).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from game.engine.stops import stop_key_problem
from game.models import Game, Player, Seat

from . import correspondence
from .acting import _Acting, _begin, _check_no_takeback, _lose, _run
from .answers import submit_answer, submit_scry
from .engines import engine_for_update
from .errors import ActionRefused
from .lifecycle import decline_rematch, rematch
from .pace import stops_of
from .presence import absences
from .store import commit, completed_counts

if TYPE_CHECKING:
    from game.forms.actions import Action

# The actions of a takeback request (forms/actions.py KINDS; services/takeback.py).
TAKEBACK_ACTIONS = ("takeback", "accept_takeback", "decline_takeback", "withdraw_takeback")


def concede(
    game_id: int,
    player: Player | None,
    *,
    version: int | None = None,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """The player gives up (CR 104.3a); logged as "!concede" so replays reproduce it."""
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="concede", at=at)
        engine = engine_for_update(a.game)
        _lose(a.game, engine, a.seats, a.seat, note="", reason="", at=at, action_id=action_id)
        return a.game

    return _run(body)


def claim_win(
    game_id: int,
    player: Player | None,
    *,
    version: int | None = None,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """The opponent left and did not come back in time: the player present claims the win.
    Recorded as the absent player's concession (so a replay has the same winner), with the
    reason on the game."""
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="claim", at=at)
        other = a.other()
        if a.game.is_correspondence:
            _claim_out_of_days(a, other, at)
            return a.game
        since = absences(a.game, a.seats, at).get(other.pk)
        name = other.player.display_name
        if since is None:
            raise ActionRefused(f"{name} is connected; there is no win to claim.", "present")
        left = settings.VENTURE_ABANDON_SECONDS - (at - since).total_seconds()
        if left > 0:
            raise ActionRefused(
                f"{name} may still come back: the win can be claimed in {math.ceil(left)} s.",
                "too_soon",
            )
        engine = engine_for_update(a.game)
        reason = f"{other.engine_name} left the game; {a.seat.engine_name} claimed the win"
        _lose(a.game, engine, a.seats, other, note="abandoned", reason=reason, at=at)
        return a.game

    return _run(body)


def _claim_out_of_days(a: _Acting, other: Seat, at: datetime) -> None:
    """A correspondence game's claim: the opponent must decide and their days have run out
    (correspondence.py); being away is no reason in a game of days."""
    name = other.player.display_name
    left = correspondence.seconds_left(a.game, at)
    if a.game.deciding != other.engine_name or left is None:
        raise ActionRefused(f"It is not {name}'s turn; there is no win to claim.", "not_late")
    if left > 0:
        raise ActionRefused(
            f"{name} has {correspondence.days_text(left)} left to answer; the win can be "
            "claimed once their time is out.",
            "too_soon",
        )
    engine = engine_for_update(a.game)
    days = a.game.days_per_move
    reason = (
        f"{other.engine_name} did not answer within {days} day{'s' if days > 1 else ''}; "
        f"{a.seat.engine_name} claimed the win"
    )
    _lose(a.game, engine, a.seats, other, note="time", reason=reason, at=at)


def set_pace(
    game_id: int,
    player: Player | None,
    *,
    full_control: bool | None = None,
    pass_until: str | None = None,
    stop: str | None = None,
    stop_on: bool | None = None,
    version: int | None = None,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """Change a seat's pace: full control on/off; pass until my next turn / until something
    happens ("" stops passing); or turn one of the player's stops on or off (`stop`, a key of
    engine/stops.py such as "theirs:end", kept on the player for their later games too).
    Passing may happen at once, for the seat holding priority."""
    if pass_until is not None and pass_until not in dict(Seat.PASS_MODES):
        raise ActionRefused(f"Unknown pass mode {pass_until!r}.", "bad_input")
    if stop is not None:
        problem = stop_key_problem(stop)
        if problem is not None:
            raise ActionRefused(problem, "bad_input")
        if stop_on is None:
            raise ActionRefused("Say whether the stop is turned on or off.", "bad_input")
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="pace", at=at)
        _check_no_takeback(a)
        seat = a.seat
        if full_control is not None:
            seat.full_control = full_control
        engine = engine_for_update(a.game)
        if pass_until is not None:
            seat.pass_until = pass_until
            seat.pass_turn = engine.state.turn
            seat.pass_stack = [s.id for s in engine.state.stack]
        if stop is not None:
            stops = set(stops_of(seat))
            if stop_on:
                stops.add(stop)
            else:
                stops.discard(stop)
            seat.player.stops = sorted(stops)
            seat.player.save(update_fields=["stops"])
        seat.save(update_fields=["full_control"])
        commit(a.game, engine, a.seats, before=completed_counts(engine), at=at)
        return a.game

    return _run(body)


def set_stop(
    game_id: int,
    player: Player | None,
    stop: str,
    on: bool,
    *,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """Turn one of the player's stops on or off (the phase strip). It sets, rather than
    toggles, so a resent click or a page a version behind changes nothing unexpected: no
    version is checked."""
    return set_pace(game_id, player, stop=stop, stop_on=on, action_id=action_id, at=at)


def perform(game_id: int, player: Player | None, action: Action) -> None:
    """Carry out an action parsed from a form or a socket message (forms/actions.parse_action): the
    one entry of the websocket and of the plain POSTs."""
    common = {"version": action.version, "action_id": action.action_id}
    if action.kind == "answer" and action.placement is not None:
        assert action.version is not None
        placed = action.placement
        submit_scry(
            game_id,
            player,
            placed.bottom,
            placed.top,
            version=action.version,
            action_id=action.action_id,
        )
    elif action.kind == "answer":
        assert action.answer is not None and action.version is not None
        submit_answer(
            game_id, player, action.answer, version=action.version, action_id=action.action_id
        )
    elif action.kind == "concede":
        concede(game_id, player, **common)
    elif action.kind == "claim":
        claim_win(game_id, player, **common)
    elif action.kind == "pace" and action.stop is not None:
        assert action.stop_on is not None
        set_stop(game_id, player, action.stop, action.stop_on, action_id=action.action_id)
    elif action.kind == "pace":
        set_pace(
            game_id,
            player,
            full_control=action.full_control,
            pass_until=action.pass_until,
            **common,
        )
    elif action.kind == "rematch":
        rematch(game_id, player)
    elif action.kind == "decline_rematch":
        decline_rematch(game_id, player)
    elif action.kind in TAKEBACK_ACTIONS:
        from .takeback import perform_takeback  # (takeback.py imports this module)

        perform_takeback(game_id, player, action)
