"""An action's SQL: the lock that starts it and the writes that end it.

Every change to a game runs between `lock` and `commit`, in one transaction:

- `lock` is the one way a game is locked: the Game row `select_for_update` (one writer per game,
  across any number of processes), its seats and, for an action with an id, its receipt, sent
  together (one round trip on PostgreSQL, game/runtime/prepared.py `together`; the server runs
  them in order, so the seats and the receipt are read under the lock).
- `commit` runs the pace feature, then writes the new answers (`GameAction`), completed dungeons,
  changed seats and the game's progress in one more batch (and, when that ends a rated game,
  both players' ratings: ratings.py), and on commit puts the engine back in the cache and tells
  the game's pages (broadcast.py).
- `rewind` is an accepted takeback's (services/takeback.py): the log cut back, the same rows
  written for what remains, a new log epoch.

The statements that run for every answer are compiled once per thread (`PreparedQuery` and
friends): compiling them had cost more than running them. tests/web/test_prepared.py holds them
equal to their querysets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import router, transaction

from game.engine.game import Engine
from game.models import ActionReceipt, CompletedDungeon, Game, GameAction, Player, Seat
from game.runtime.prepared import PreparedInsert, PreparedQuery, PreparedUpdate, Sent, together

from .broadcast import notify_computer_turn, notify_game_changed
from .clock import clock_of, store_clock
from .correspondence import decision_since
from .engines import remember
from .errors import ActionRefused
from .pace import EXPLAINED, run_pace
from .ratings import record_result
from .training_state import decided as training_decided
from .training_state import judge as judge_training
from .turn_mail import mail_turn

# The reads of every action. The game's setup (tens of kB of JSON) is read only when the engine
# must be rebuilt, the seats' decks never.
LOCKED_GAME = PreparedQuery(
    lambda game_id: Game.objects.select_for_update().defer(*Game.BULKY).filter(pk=game_id)
)
ACTING_SEATS = PreparedQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("player")
        .defer("deck")
        .order_by("position")
    )
)

# What `commit` stores of a seat (when it changed).
SEAT_FIELDS = [
    "pass_until",
    "pass_turn",
    "pass_stack",
    "clock_ms",
    "takeback_to",
    "takebacks_asked",
]
PROGRESS_FIELDS = [
    "version",
    "last_choice",
    "turn",
    "deciding",
    "status",
    "finished",
    "winner",
    "end_reason",
    "clock_since",
    "computer_since",
]

# The writes of every answer. The game row: only what an answer changes; it also holds the setup
# (both decks and every dungeon, tens of kB of JSON), which `save()` would serialise and write
# again every time.
INSERT_ACTIONS = PreparedInsert(GameAction)
INSERT_COMPLETED = PreparedInsert(CompletedDungeon)
UPDATE_SEAT = PreparedUpdate(Seat, SEAT_FIELDS)
UPDATE_PROGRESS = PreparedUpdate(Game, PROGRESS_FIELDS)


@dataclass(frozen=True)
class Receipt:
    """An action's id, recorded when the game is locked: the same id is never applied twice."""

    player: Player | None
    action_id: str
    kind: str
    version: int | None
    at: datetime


@dataclass
class Locked:
    """A locked game and its seats; `recorded`: whether the action's receipt was inserted
    (None: there was no receipt to record)."""

    game: Game
    seats: list[Seat]
    recorded: bool | None = None

    @property
    def by_name(self) -> dict[str, Seat]:
        return {s.engine_name: s for s in self.seats}


def lock(game_id: int, receipt: Receipt | None = None) -> Locked:
    """Lock the game row and read its seats, recording `receipt` in the same batch. Raises
    "no_game" for a game that is gone."""
    with together(router.db_for_write(Game)) as batch:
        locked = LOCKED_GAME.send(batch, game_id)
        seat_rows = ACTING_SEATS.send(batch, game_id)
        sent = send_receipt(batch, game_id, receipt) if receipt is not None else None
    if not locked.rows:
        raise ActionRefused("There is no such game.", "no_game")
    game = locked.rows[0]
    recorded = None if sent is None else sent.rowcount == 1
    return Locked(game, _stored_seats(game, seat_rows.rows), recorded)


def _seat_fields(seat: Seat) -> tuple[Any, ...]:
    return (
        seat.pass_until,
        seat.pass_turn,
        list(seat.pass_stack),
        seat.clock_ms,
        seat.takeback_to,
        seat.takebacks_asked,
    )


def _stored_seats(game: Game, seats: list[Seat]) -> list[Seat]:
    """The game's seats, each remembering its stored pace and clock so that `commit` writes
    only a seat that changed (most actions change neither: two UPDATEs saved per action)."""
    for seat in seats:
        seat.game = game  # the locked instance, as game.seats would give
        seat._stored = _seat_fields(seat)
    return seats


_RECEIPT_SQL: dict[str, str] = {}


def _receipt_sql(connection: Any) -> str:
    """Record an action id in the statement that finds the sender's seat: nothing is inserted
    when the id is already in the game's receipts (the unique constraint on (game, action id)
    is the check itself, whatever the number of processes), nor for a viewer with no seat. The
    version defaults to the game's, read after the game's row lock like the rest."""
    sql = _RECEIPT_SQL.get(connection.vendor)
    if sql is None:
        q = connection.ops.quote_name
        receipt, seat, game = (q(m._meta.db_table) for m in (ActionReceipt, Seat, Game))
        columns = ", ".join(q(c) for c in ("game_id", "seat_id", "action_id", "kind", "version"))
        sql = _RECEIPT_SQL[connection.vendor] = (
            f"INSERT INTO {receipt} ({columns}, {q('created')})"
            f" SELECT s.{q('game_id')}, s.{q('id')}, %s, %s, COALESCE(%s, g.{q('version')}), %s"
            f" FROM {seat} s INNER JOIN {game} g ON g.{q('id')} = s.{q('game_id')}"
            f" WHERE s.{q('game_id')} = %s AND s.{q('player_id')} = %s"
            # Only the receipt's own constraint is a repeat; any other conflict is an error.
            f" ON CONFLICT ({q('game_id')}, {q('action_id')}) DO NOTHING"
        )
    return sql


def send_receipt(batch: Any, game_id: int, receipt: Receipt) -> Sent:
    """The receipt's INSERT, in the batch that locks the game (its row count, after the batch:
    1 recorded, 0 a repeat or no seat)."""
    connection = batch.connection
    created = ActionReceipt._meta.get_field("created").get_db_prep_save(receipt.at, connection)
    player_id = receipt.player.pk if receipt.player is not None else None
    params = [receipt.action_id, receipt.kind, receipt.version, created, game_id, player_id]
    return batch.execute(_receipt_sql(connection), params)


def completed_counts(engine: Engine) -> dict[str, int]:
    """How many dungeons each player has completed: `commit` records the ones after these."""
    return {p.name: len(p.completed) for p in engine.state.players}


def commit(
    game: Game,
    engine: Engine,
    seats: list[Seat],
    *,
    before: dict[str, int],
    at: datetime,
    action_id: str = "",
    actor: Seat | None = None,
    note: str = "",
    end_reason: str = "",
) -> None:
    """Pace, then store the new answers, completed dungeons, the clocks and the result;
    broadcast on commit. `actor` answered the pending decision (its clock earns the
    increment); `note` marks the first new answer (a concession for time or absence), whose
    reason `end_reason` replaces the engine's on the game row."""
    by_name = {s.engine_name: s for s in seats}
    first_new = game.version
    pace_from = len(engine.answers)
    clock = clock_of(game, seats)
    # Learn and Puzzles: a training game whose lesson or puzzle is decided ends here, before the
    # pace feature plays on and after it (services/training_state.py).
    ended = judge_training(game, engine)
    explained = run_pace(engine, by_name, training_decided(game))
    ended = ended or judge_training(game, engine)
    marks = {ended.index: ended.note} if ended and ended.index is not None else {}
    end_reason = end_reason or (ended.reason if ended else "")
    rows = _new_actions(
        game, engine, by_name, first_new, pace_from, action_id, note, explained, marks
    )
    completed = [
        CompletedDungeon(player=by_name[p.name].player, game=game, dungeon=dungeon, turn=turn)
        for p in engine.state.players
        for dungeon, turn in p.completed[before.get(p.name, 0) :]
    ]
    ended = game.status != Game.FINISHED
    deciding_before, since_before = game.deciding, game.clock_since
    _progress(game, engine, at, end_reason)
    ended = ended and game.status == Game.FINISHED
    if pace_from > first_new:  # answers of a player's own: the last is what a takeback takes
        game.last_choice = pace_from
    if game.status == Game.FINISHED:
        for seat in seats:  # a takeback still asked for lapses with the game (services/takeback)
            seat.takeback_to = None
    # The computer's decision is handed out (after commit) from now; a person's clears it.
    to_decide = by_name.get(game.deciding) if game.status == Game.ACTIVE else None
    computer = to_decide is not None and to_decide.player.is_computer
    game.computer_since = at if computer else None
    if clock is not None:
        # Whoever must decide now has their clock run from this instant (automatic answers
        # take none).
        clock = clock.stop(at, actor.engine_name if actor is not None else None)
        if game.status == Game.ACTIVE:
            clock = clock.start(game.deciding, at)
    store_clock(game, seats, clock)
    handed_to = game.deciding if game.deciding != deciding_before else ""
    if game.is_correspondence:
        moved = bool(rows) or bool(handed_to)
        game.clock_since = decision_since(game, since_before, moved=moved, at=at)
    changed = [s for s in seats if getattr(s, "_stored", None) != _seat_fields(s)]
    with together(router.db_for_write(Game)) as batch:
        INSERT_ACTIONS.send(batch, rows)
        INSERT_COMPLETED.send(batch, completed)
        for seat in changed:
            UPDATE_SEAT.send(batch, seat)
        UPDATE_PROGRESS.send(batch, game)
    for seat in changed:
        seat._stored = _seat_fields(seat)
    if ended and game.rated:
        # However it ended (the table, a concession, the clock, a claim): both ratings move
        # once, in this transaction (ratings.py).
        record_result(game, seats, at)
    transaction.on_commit(lambda: remember(game, engine))
    # The notes go along: the log of a process catching up from them has the same lines.
    added = [
        [row.seat.engine_name, row.answer, row.note]
        if row.note
        else [row.seat.engine_name, row.answer]
        for row in rows
    ]
    notify_game_changed(game, (first_new, added))
    if game.computer_since is not None:
        notify_computer_turn(game.pk)
    elif handed_to and game.is_correspondence and game.status == Game.ACTIVE:
        seat = by_name[handed_to]
        transaction.on_commit(lambda: mail_turn(game.pk, seat.pk))


def rewind(game: Game, engine: Engine, seats: list[Seat], *, at: datetime) -> None:
    """The answer log cut back to `engine`'s answers (the replay of what remains, takebacks'
    lines included), with what the removed answers had stored: completed dungeons, the game's
    progress, whose clock runs, the last answer a player chose; the caller moved the game's log
    epoch, so that no process uses an engine of the log before. No pace is run: the player who
    took back faces the decision they took back. The clocks give no time back (as Lichess's
    takebacks): each keeps what it has now, the increments earned included, and the clock of
    whoever must decide runs from `at`. Rare, so plain queries."""
    by_name = {s.engine_name: s for s in seats}
    cut = len(engine.answers)
    GameAction.objects.filter(game=game, index__gte=cut).delete()
    for p in engine.state.players:
        kept = CompletedDungeon.objects.filter(game=game, player=by_name[p.name].player)
        removed = list(kept.order_by("pk").values_list("pk", flat=True))[len(p.completed) :]
        if removed:
            CompletedDungeon.objects.filter(pk__in=removed).delete()
    last = (
        GameAction.objects.filter(game=game, auto=False, index__lt=cut)
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    game.last_choice = last + 1 if last is not None else 0
    clock = clock_of(game, seats)
    _progress(game, engine, at, "")
    to_decide = by_name.get(game.deciding)
    game.computer_since = at if to_decide is not None and to_decide.player.is_computer else None
    if clock is not None:
        clock = clock.stop(at).start(game.deciding, at)
    store_clock(game, seats, clock)
    if game.is_correspondence:  # the player who took back has their days anew
        game.clock_since = decision_since(game, None, moved=True, at=at)
    game.save(update_fields=[*PROGRESS_FIELDS, "log_epoch"])
    write_seats(seats)
    transaction.on_commit(lambda: remember(game, engine))
    notify_game_changed(game)  # no answers: every process replays the log as it now is
    if game.computer_since is not None:
        notify_computer_turn(game.pk)


def write_seats(seats: list[Seat]) -> None:
    """Store the seats whose pace, clock or takeback request changed since they were read."""
    for seat in seats:
        if getattr(seat, "_stored", None) != _seat_fields(seat):
            seat.save(update_fields=SEAT_FIELDS)
            seat._stored = _seat_fields(seat)


def _new_actions(
    game: Game,
    engine: Engine,
    by_name: dict[str, Seat],
    first_new: int,
    pace_from: int,
    action_id: str,
    note: str,
    explained: set[int],
    marks: dict[int, str],
) -> list[GameAction]:
    """The log rows of the engine's answers from `first_new` on; those from `pace_from` on are
    the pace feature's. The first carries the action's id and note; an automatic pass the
    game's log explains is marked (pace.EXPLAINED), so a replay writes the same line, and so is
    any row of `marks` (index: note, the concession that ends a training game)."""
    rows = []
    for index in range(first_new, len(engine.answers)):
        who, answer = engine.answers[index]
        rows.append(
            GameAction(
                game=game,
                index=index,
                seat=by_name[who],
                answer=answer,
                auto=index >= pace_from,
                client_action_id=action_id if index == first_new and action_id else "",
                note=note
                if index == first_new and note
                else marks.get(index) or _explained(index, explained),
            )
        )
    return rows


def _explained(index: int, explained: set[int]) -> str:
    return EXPLAINED if index in explained else ""


def _progress(game: Game, engine: Engine, at: datetime, end_reason: str) -> None:
    """The game row's version, turn, who decides and, once over, the result."""
    game.version = len(engine.answers)
    game.turn = engine.state.turn
    game.deciding = engine.pending.player if engine.pending is not None else ""
    if engine.state.over and game.status != Game.FINISHED:
        game.status = Game.FINISHED
        game.finished = at
        game.winner = engine.state.winner or ""
        game.end_reason = end_reason or engine.state.end_reason or ""
