"""What a seated player does during a game: answer, concede, claim the win, set their pace
(full control, passing, stops); offer or decline a rematch once it is over (lifecycle.py); and
the time loss, found by an action or by a page whose clock reached zero.

Each action is check -> do -> notify, in one transaction: `_begin` locks the game (store.lock)
and runs the checks every action shares, the action changes the engine, and store.commit writes
it and tells the game's pages after commit. Every action names the version it was made on and
carries the browser's action id (a fresh one in every rendered form). The checks, in this order,
under the game row's lock:

  1. the sender is seated;                        "no_seat"
     (then a chess clock that ran out ends the game: the loss is committed, the action refused
     as "over")
  2. the action id was not applied before;        "repeat"   (a double click, a resend)
  3. the game is in progress;                     "not_started" / "over"
  4. the version is the game's;                   "already_answered" (behind) / "stale"
  5. the action itself (whose decision, legal).   "not_yours" / "illegal" / ...
     (while a takeback request is pending, answers and pace changes wait: "takeback_pending")

A refused action changes nothing: the transaction is rolled back, receipt included. Each
use-case reads the wall clock once (`at`, unless the caller gives it) and passes it down.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.engine.decisions import Decision, IllegalAnswer
from game.engine.game import Engine
from game.engine.kinds import SCRY, SCRY_ORDER
from game.engine.stops import stop_key_problem
from game.models import ActionReceipt, Game, Player, Seat

from . import correspondence
from .clock import clock_of
from .engines import engine_for_update, loss_line, remember
from .errors import ActionRefused
from .lifecycle import decline_rematch, rematch
from .pace import stops_of
from .players import acting_seat
from .presence import absences
from .store import Receipt, commit, completed_counts, lock

if TYPE_CHECKING:
    from game.forms import Action

log = logging.getLogger(__name__)

# The actions of a takeback request (forms.KINDS; services/takeback.py).
TAKEBACK_ACTIONS = ("takeback", "accept_takeback", "decline_takeback", "withdraw_takeback")


@dataclass
class _Acting:
    """A locked game, the sender's seat and both seats, at one instant."""

    game: Game
    seat: Seat
    seats: list[Seat]
    at: datetime

    def other(self) -> Seat:
        return next(s for s in self.seats if s.pk != self.seat.pk)


class _Commit(Exception):
    """Leave the action's atomic block normally (committing what was written), then refuse."""

    def __init__(self, message: str) -> None:
        self.message = message


def _run(body: Callable[[], Game]) -> Game:
    """Run `body()` (which locks the game and acts) in one transaction; a `_Commit` raised by
    it keeps what it wrote (a time loss) and becomes a refusal after the commit."""
    refusal: str | None = None
    with transaction.atomic():
        try:
            game = body()
        except _Commit as e:  # not an error: leaving the block normally commits the loss
            refusal = e.message
    if refusal is not None:
        raise ActionRefused(refusal, "over")
    return game


def _begin(
    game_id: int,
    player: Player | None,
    *,
    version: int | None,
    action_id: str,
    kind: str,
    at: datetime,
) -> _Acting:
    """Lock the game and run the checks every action shares (1-4 above). A chess clock that
    ran out is a loss recorded before anything else, without the action: its receipt is
    deleted again, so a resend of it is told the game is over, not that it was applied."""
    receipt = Receipt(player, action_id, kind, version, at) if action_id else None
    locked = lock(game_id, receipt)
    game = locked.game
    seat = acting_seat(locked.seats, player)
    reason = _record_time_loss(game, locked.seats, at)
    if reason is not None:
        if locked.recorded:
            ActionReceipt.objects.filter(game_id=game.pk, action_id=action_id).delete()
        raise _Commit(f"The game is over: {reason}.")
    if locked.recorded is False:
        raise ActionRefused(
            "That was already received and applied once (a double click or a resent "
            "message); it is not applied again.",
            "repeat",
        )
    _check_active(game)
    _check_version(game, seat, version)
    return _Acting(game, seat, locked.seats, at)


def _check_active(game: Game) -> None:
    if game.status == Game.OPEN:
        raise ActionRefused("The game starts when your opponent joins.", "not_started")
    if game.status == Game.FINISHED:
        raise ActionRefused("The game is over.", "over")


def _check_version(game: Game, seat: Seat, version: int | None) -> None:
    if version is None or version == game.version:
        return
    if version > game.version:
        raise ActionRefused(
            f"That view (version {version}) is newer than the game (version {game.version}); "
            "reload the page.",
            "stale",
        )
    first = game.actions.filter(index=version).only("seat_id", "auto").first()
    if first is not None and first.seat_id == seat.pk and not first.auto:
        raise ActionRefused(
            "You already answered that decision (in another tab, or with a double click); "
            "it is not applied twice. The board shows the game as it is now.",
            "already_answered",
        )
    raise ActionRefused(
        f"That decision was already answered: the game moved on since that view (you acted "
        f"on version {version}, it is now {game.version}). The board shows the current "
        "state; try again.",
        "already_answered",
    )


def _record_time_loss(game: Game, seats: list[Seat], at: datetime) -> str | None:
    """The one place a time loss is decided: when the clock of the seat that must decide has
    run out at `at`, that seat loses now. Returns the reason, None while nobody's time is out."""
    clock = clock_of(game, seats)
    name = clock.flagged(at) if clock is not None else None
    if name is None:
        return None
    loser = next(s for s in seats if s.engine_name == name)
    reason = f"{name} ran out of time"
    _lose(game, engine_for_update(game), seats, loser, note="time", reason=reason, at=at)
    transaction.on_commit(lambda: log.info("game %s: %s", game.pk, reason))
    return reason


def _lose(
    game: Game,
    engine: Engine,
    seats: list[Seat],
    loser: Seat,
    *,
    note: str,
    reason: str,
    at: datetime,
    action_id: str = "",
) -> None:
    """`loser` loses now: through the engine's concession, the one way a player leaves a game
    (CR 104.3a), so the answer log replays to the same winner; `reason` is kept on the game."""
    before = completed_counts(engine)
    engine.concede(loser.engine_name, line=loss_line(engine, loser.engine_name, note))
    commit(
        game,
        engine,
        seats,
        before=before,
        action_id=action_id,
        at=at,
        note=note,
        end_reason=reason,
    )


def check_time(game_id: int, *, at: datetime | None = None) -> bool:
    """Record a time loss if the deciding player's clock has run out (called by any page
    watching the game when the clock should reach zero). True when the game ended now."""
    at = at or timezone.now()
    with transaction.atomic():
        try:
            locked = lock(game_id)
        except ActionRefused:  # the game is gone
            return False
        return _record_time_loss(locked.game, locked.seats, at) is not None


def _check_no_takeback(a: _Acting) -> None:
    """While a takeback request is pending the game waits for its reply (services/takeback.py)."""
    if a.seat.takeback_to is not None:
        raise ActionRefused(
            f"You asked to take back an answer: the game waits for "
            f"{a.other().player.display_name}'s reply (or withdraw the request).",
            "takeback_pending",
        )
    if a.other().takeback_to is not None:
        raise ActionRefused(
            f"{a.other().player.display_name} asks to take back an answer: accept or decline "
            "first.",
            "takeback_pending",
        )


def submit_answer(
    game_id: int,
    player: Player | None,
    answer: str | list[str],
    *,
    version: int,
    action_id: str = "",
    at: datetime | None = None,
    epoch: int | None = None,
) -> Game:
    """Answer the pending decision with option id(s) as the player saw it at `version` (and at
    the log's `epoch`, when given: the computer's answer, thought about before a takeback, is
    not for the decision at the same version after it)."""

    def apply(engine: Engine, d: Decision, name: str) -> None:
        try:
            engine.answer(name, answer)
        except IllegalAnswer as e:
            raise ActionRefused(str(e), "illegal") from None

    return _answering(
        game_id, player, apply, version=version, action_id=action_id, at=at, epoch=epoch
    )


def submit_scry(
    game_id: int,
    player: Player | None,
    bottom: list[str],
    top: list[str],
    *,
    version: int,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """A scry answered in one prompt (the page's placement, forms.Placement): `bottom` the
    cards put on the bottom, in that order, `top` the cards kept on top, top first, every card
    of the pending `scry` decision named once. Applied as the engine asks it (CR 701.22a): the
    `scry` answer (the bottom cards), then, when two or more stay on top, the `scry_order`
    answer the engine asks next of the same player, and nothing else; one transaction, and the
    answer log records both answers as if given one by one. Anything that does not fit changes
    nothing."""

    def apply(engine: Engine, d: Decision, name: str) -> None:
        if d.kind != SCRY:
            raise ActionRefused(
                f"That form places the cards of a scry; the decision now is another "
                f"({d.kind.replace('_', ' ')}).",
                "illegal",
            )
        cards = [o.id for o in d.options]
        placed = bottom + top
        unknown = [c for c in placed if c not in cards]
        if unknown:
            raise ActionRefused(
                f"{unknown[0][:40]!r} is not one of the cards this scry looks at.", "illegal"
            )
        if len(placed) != len(set(placed)) or len(placed) != len(cards):
            raise ActionRefused(
                f"Place each of the {len(cards)} cards once: on top at a position, or on the "
                "bottom.",
                "illegal",
            )
        try:
            engine.answer(name, bottom)
        except IllegalAnswer as e:
            raise ActionRefused(str(e), "illegal") from None
        after = engine.pending
        if len(top) < 2:
            return  # one card or none on top: no order is asked (effects_players.scry)
        if after is None or after.player != name or after.kind != SCRY_ORDER:
            raise _Changed("The scry did not ask the order of the cards kept on top.")
        try:
            engine.answer(name, top)
        except IllegalAnswer as e:
            raise _Changed(str(e)) from None

    return _answering(game_id, player, apply, version=version, action_id=action_id, at=at)


class _Changed(ActionRefused):
    """A refusal after the engine was changed: the engine is not put back in the cache (the
    next action replays the game from its log, which the rollback left as it was)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "illegal")


def _answering(
    game_id: int,
    player: Player | None,
    apply: Callable[[Engine, Decision, str], None],
    *,
    version: int,
    action_id: str,
    at: datetime | None,
    epoch: int | None = None,
) -> Game:
    """Answer the pending decision of the player's seat: `apply(engine, decision, name)` gives
    the engine its answer(s) or raises ActionRefused, then the whole is committed at once."""
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="answer", at=at)
        if epoch is not None and epoch != a.game.log_epoch:
            raise ActionRefused("A takeback changed the game since that answer.", "stale")
        _check_no_takeback(a)
        engine = engine_for_update(a.game)
        d = engine.pending
        # A refusal below leaves the engine as it was (IllegalAnswer is raised before any
        # change), so it goes back to the cache at once; one after a change (_Changed) leaves
        # it out, to be rebuilt from the log.
        if d is None:
            remember(a.game, engine)
            raise ActionRefused("The game is over.", "over")
        if d.player != a.seat.engine_name:
            remember(a.game, engine)
            raise ActionRefused(
                f"It is {d.player}'s decision ({d.kind.replace('_', ' ')}), not yours.",
                "not_yours",
            )
        before = completed_counts(engine)
        try:
            apply(engine, d, a.seat.engine_name)
        except _Changed:
            log.warning("game %s: a combined answer failed halfway; replaying", a.game.pk)
            raise
        except ActionRefused:
            remember(a.game, engine)
            raise
        commit(a.game, engine, a.seats, before=before, action_id=action_id, at=at, actor=a.seat)
        return a.game

    return _run(body)


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
    """Carry out an action parsed from a form or a socket message (forms.parse_action): the
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
