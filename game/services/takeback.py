"""Takebacks: a player asks to take back their own last answer, the opponent accepts or declines,
the player who asked may withdraw. The whole rule is docs/rules-coverage.md, "Takebacks"; in
short, a player may ask while

- the game is in progress and no clock has run out;
- no request is pending (theirs or the opponent's) and they asked fewer than
  VENTURE_TAKEBACKS_PER_PLAYER times in this game (every request counts, whatever its answer);
- the last answer a player gave themself (the pace feature's automatic ones aside) is theirs:
  the opponent has answered nothing since;
- nothing random happened and nothing hidden was shown to anyone since that answer was given
  (`Engine.sealed`, derived by the engine from what the answers did).

Taking back removes that answer and every automatic one after it from the end of the answer log;
the game is the replay of what remains (store.rewind), and the player faces the decision they
took back. Each settled request writes one line in the game's log ("alice asked to take back an
answer (alice plays Forest); bob accepted"), kept as a `Takeback` row and written again by every
replay where it stands. The words name the answer by the first line it wrote in the game's log,
which both players read already, so a takeback tells nobody anything hidden.

While a request is pending the game waits: answers and pace changes are refused (acting.py),
concessions and claims are not (the request lapses with the game). Against the computer there
is no waiting: the computer replies at once, accepting at Easy and declining otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from game.engine.game import Engine
from game.engine.headings import is_heading
from game.engine.kinds import KINDS
from game.models import Game, GameAction, Player, Seat, Takeback

from .acting import _Acting, _begin, _run
from .broadcast import notify_game_changed
from .clock import clock_of
from .engines import reading, replay_game
from .errors import ActionRefused
from .store import rewind, write_seats

if TYPE_CHECKING:
    from game.forms.actions import Action

_RULE = re.compile(r" \(CR [^)]*\)$")  # a log line's rule citation, left out of its mention
MAX_WHAT = 120  # characters of the log line that names the answer


@dataclass(frozen=True)
class TakebackView:
    """What a seated viewer's page shows of takebacks: whether they may ask now (and why not),
    how many asks they have left, and a request pending on either side, in public words."""

    allowed: bool
    why_not: str  # "" when allowed
    what: str  # the answer the viewer would take back ("" when there is none)
    left: int
    mine: str  # the viewer's own pending request ("" for none)
    theirs: str  # the opponent's pending request, for the viewer to answer ("" for none)
    opponent: str  # the opponent's display name


def limit() -> int:
    return settings.VENTURE_TAKEBACKS_PER_PLAYER


def takeback_words(engine: Engine, index: int) -> str:
    """Answer number `index` in words both players have read: the first line it wrote in the
    game's log (its rule left out), or, for an answer that wrote none (a pass), the decision it
    answered."""
    mark = engine.answer_marks[index] if index < len(engine.answer_marks) else None
    if mark is None:
        return "an earlier answer"
    kind, start, stop = mark
    # A phase's heading names no answer: the line after it does.
    players = [p.name for p in engine.state.players]
    lines = [x for x in engine.state.log[start:stop] if not is_heading(x, players)]
    if lines:
        line = _RULE.sub("", lines[0])
        return line if len(line) <= MAX_WHAT else line[: MAX_WHAT - 1] + "…"
    who = engine.answers[index][0]
    waiting = KINDS[kind].waiting if kind in KINDS else "was deciding"
    return f"given when {who} {waiting}"


def _other(seats: list[Seat], seat: Seat) -> Seat:
    return next(s for s in seats if s.pk != seat.pk)


def refusal(game: Game, seats: list[Seat], seat: Seat, engine: Engine, at: datetime) -> str | None:
    """Why `seat` may not ask to take back its last answer now (None: it may). The checks, in
    this order, each a sentence for the player."""
    other = _other(seats, seat)
    them = other.player.display_name
    if game.status != Game.ACTIVE or engine.pending is None:
        return "The game is over: nothing can be taken back."
    clock = clock_of(game, seats)
    if clock is not None and any(clock.remaining(s.engine_name, at) == 0 for s in seats):
        return "A clock has run out: nothing can be taken back."
    if seat.takeback_to is not None:
        return f"You asked already; {them} has not answered yet (you may withdraw the request)."
    if other.takeback_to is not None:
        return f"{them} asks to take back an answer: reply to that first."
    if seat.takebacks_asked >= limit():
        if limit() == 0:
            return "Takebacks are turned off on this server."
        return f"You asked {seat.takebacks_asked} times in this game, the most allowed."
    last = game.last_choice - 1
    if last < 0 or last >= len(engine.answers):
        return "There is no answer of yours to take back yet."
    if engine.answers[last][0] != seat.engine_name:
        return (
            f"The last answer was {them}'s: only your own last answer can be taken back, "
            f"before {them} answers anything."
        )
    if last < engine.sealed:
        return f"Your last answer can't be taken back: since then {engine.sealed_why}."
    return None


def takeback_view(
    game: Game, seats: list[Seat], seat: Seat, engine: Engine, at: datetime | None = None
) -> TakebackView:
    """What `seat`'s page shows of takebacks (read with the game's engine at the row's
    version)."""
    at = at or timezone.now()
    other = _other(seats, seat)
    why = refusal(game, seats, seat, engine, at)
    last = game.last_choice - 1
    what = takeback_words(engine, last) if 0 <= last < len(engine.answers) else ""
    mine = theirs = ""
    if game.status == Game.ACTIVE and seat.takeback_to is not None:
        mine = takeback_words(engine, seat.takeback_to)
    if game.status == Game.ACTIVE and other.takeback_to is not None:
        theirs = takeback_words(engine, other.takeback_to)
    return TakebackView(
        allowed=why is None,
        why_not=why or "",
        what=what if why is None else "",
        left=max(0, limit() - seat.takebacks_asked),
        mine=mine,
        theirs=theirs,
        opponent=other.player.display_name,
    )


# the actions -------------------------------------------------------------------------------------
def ask_takeback(
    game_id: int,
    player: Player | None,
    *,
    version: int | None = None,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """Ask the opponent to take back the player's last answer (refused with the reason when
    `refusal` has one). Against the computer the reply comes at once."""
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="takeback", at=at)
        with reading(a.game) as engine:
            why = refusal(a.game, a.seats, a.seat, engine, at)
        if why is not None:
            raise ActionRefused(why, "takeback_refused")
        a.seat.takeback_to = a.game.last_choice - 1
        a.seat.takebacks_asked += 1
        other = a.other()
        if other.player.is_computer:
            # The computer gives the Easy level's sporting yes, and the others' no, at once.
            _settle(a, accepted=other.player.computer_level == Player.EASY)
        else:
            write_seats(a.seats)
            notify_game_changed(a.game)  # the opponent's page asks them
        return a.game

    return _run(body)


def reply_takeback(
    game_id: int,
    player: Player | None,
    *,
    accept: bool,
    version: int | None = None,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """Accept or decline the opponent's pending request."""
    at = at or timezone.now()
    kind = "tb_accept" if accept else "tb_decline"

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind=kind, at=at)
        if a.other().takeback_to is None:
            raise ActionRefused(
                "There is no request to take back an answer to reply to (it was withdrawn, "
                "or answered already).",
                "no_takeback",
            )
        _settle(a, accepted=accept, asker=a.other())
        return a.game

    return _run(body)


def withdraw_takeback(
    game_id: int,
    player: Player | None,
    *,
    version: int | None = None,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """Withdraw the player's own pending request."""
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="tb_withdraw", at=at)
        if a.seat.takeback_to is None:
            raise ActionRefused(
                "You have no request to take back an answer to withdraw (it was answered already).",
                "no_takeback",
            )
        _settle(a, accepted=False, withdrawn=True)
        return a.game

    return _run(body)


def _settle(
    a: _Acting, *, accepted: bool, asker: Seat | None = None, withdrawn: bool = False
) -> None:
    """The pending request of `asker` (the acting seat unless given) settled: its line in the
    game's log, and when accepted the log cut back. A request the game no longer allows (it
    cannot have moved while the request was pending; a rule changed under it) is refused."""
    asker = asker or a.seat
    game, seats, at = a.game, a.seats, a.at
    other = _other(seats, asker)
    cut = asker.takeback_to
    assert cut is not None
    with reading(game) as engine:
        words = takeback_words(engine, cut)
        still = (
            game.status == Game.ACTIVE
            and cut == game.last_choice - 1
            and cut < len(engine.answers)
            and engine.answers[cut][0] == asker.engine_name
            and cut >= engine.sealed
        )
    if accepted and not still:
        raise ActionRefused("The game moved on: that answer can no longer be taken back.", "moved")
    name, them = asker.engine_name, other.engine_name
    if withdrawn:
        outcome = Takeback.WITHDRAWN
        line = f"{name} asked to take back an answer ({words}), then withdrew the request"
    else:
        outcome = Takeback.ACCEPTED if accepted else Takeback.DECLINED
        line = f"{name} asked to take back an answer ({words}); {them} {outcome}"
    asker.takeback_to = None
    removed: list[list[object]] = []
    if accepted:
        rows = GameAction.objects.filter(game=game, index__gte=cut).order_by("index")
        removed = [list(r) for r in rows.values_list("seat__engine_name", "answer", "auto", "note")]
        # Lines settled after the point cut back to stand there now, before this one.
        Takeback.objects.filter(game=game, log_version__gt=cut).update(log_version=cut)
    Takeback.objects.create(
        game=game,
        seat=asker,
        outcome=outcome,
        asked_at=game.version,
        log_version=cut if accepted else game.version,
        line=line,
        removed=removed,
        settled=at,
    )
    # A new log epoch: every process replays the log as it now is, the new line included.
    game.log_epoch += 1
    if accepted:
        asker.pass_until = Seat.PASS_NONE  # they are asked again, not passed for
        game.version = cut
        rewind(game, replay_game(game), seats, at=at)
        return
    game.save(update_fields=["log_epoch"])
    write_seats(seats)
    notify_game_changed(game)


def perform_takeback(game_id: int, player: Player | None, action: Action) -> None:
    """A takeback action parsed from a form or a socket message (actions.perform)."""
    common = {"version": action.version, "action_id": action.action_id}
    if action.kind == "takeback":
        ask_takeback(game_id, player, **common)
    elif action.kind == "accept_takeback":
        reply_takeback(game_id, player, accept=True, **common)
    elif action.kind == "decline_takeback":
        reply_takeback(game_id, player, accept=False, **common)
    elif action.kind == "withdraw_takeback":
        withdraw_takeback(game_id, player, **common)
