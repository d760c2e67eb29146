"""How every action of a seated player runs, and the time loss.

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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from game.engine.game import Engine
from game.models import ActionReceipt, Game, Player, Seat

from .clock import clock_of
from .engines import engine_for_update, loss_line
from .errors import ActionRefused
from .players import acting_seat
from .store import Receipt, commit, completed_counts, lock

log = logging.getLogger(__name__)


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
