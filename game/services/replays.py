"""Replays: any point of a game as one viewer may see it, served from snapshots.

A point is "after N answers" (0 … the game's version). Opening a replay rebuilds the game once
from its setup and log (docs/architecture.md, "Persistence by replay"), recording a `Frame` of
public facts for every point (turn, step, who decides, life totals…: what the scrub bar, the
jumps and the summary read) and, every `SNAPSHOT_EVERY` answers or so, a snapshot of the engine
(engine/snapshots.py). A point's view is made by an engine resumed from the nearest snapshot
before it, or by the cursor (the engine of the point last looked at) when that is nearer: a step
forward costs one answer, a step back at most `SNAPSHOT_EVERY`; nothing replays from the start
again. The timeline keeps its engine at the last point, so a running game's replay opened again
later only applies the answers since.

Who sees what (docs/security.md): while a game runs, a seated player's timeline is their seat's
view at each point (their hand then, the other hand a count) and anyone else's a spectator's;
what an answer of the other seat chose is not shown, only what the log said. Once the game is
over, every timeline shows both hands and every answer, to anyone who may open the game.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from game.engine import snapshots
from game.engine.decisions import Decision
from game.engine.game import Engine, GameSetup
from game.engine.kinds import PRIORITY
from game.engine.view import PUBLIC_CHOICES, replay_view
from game.models import Game, Player
from game.runtime.lru import LRU
from game.scenario.export import position_file, unwritable

from .computer import computer_player
from .computer_limit import check_room_for_computer_game
from .engines import LOG_SLICE, Lines, Logged, apply_log, engine_setup, takeback_lines, write_lines
from .errors import ActionRefused
from .lifecycle import check_scenario, create_game, join_game
from .players import seat_of

TIMELINES = 8  # timelines kept per process
# An engine snapshot about this often (at the next point one may be taken): a step back costs
# at most this many answers replayed from the snapshot, and a snapshot a copy of the state.
SNAPSHOT_EVERY = 64
VIEWS_KEPT = 64  # the views of the points last looked at, per timeline (a view is ~25 kB)
VIEWS_BEHIND = 24  # the points before the one asked for whose views are kept on the way


@dataclass(frozen=True, slots=True)
class Frame:
    """The public facts of one point: enough to list turns and steps, draw the scrub bar and
    the summary, without opening its snapshot."""

    turn: int
    active: str
    step: str
    log_len: int  # log lines written up to this point
    deciding: str | None  # whose decision is pending (None: the game is over)
    kind: str | None
    life: tuple[int, ...]  # in seat order
    dungeons: tuple[tuple[str, str] | None, ...]  # (dungeon, room) per seat
    completed: tuple[tuple[tuple[str, int], ...], ...]  # (dungeon, turn) per seat
    writable: bool  # a scenario file can start here (game/scenario/export.py)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the answer that left a point did: who gave it and, when this viewer may know,
    the option(s) chosen."""

    player: str
    label: str | None  # None: the other seat's choice, not shown while the game runs
    kind: str


class Timeline:
    """One game's points for one perspective (a seat, or None for a spectator; `reveal` when
    the game is over). Replayed once when made: a `Frame` of every point, the label of every
    answer this viewer may know, and an engine snapshot every `SNAPSHOT_EVERY` answers or so.
    A point's view is made from the nearest snapshot (or the cursor, the engine of the last
    point looked at) and kept for the points around it."""

    def __init__(
        self, setup: GameSetup, seat: str | None, reveal: bool, lines: Lines | None = None
    ) -> None:
        self.setup = setup
        self.seat = seat
        self.reveal = reveal
        self.players = list(setup.players)
        self.lines = lines  # the takebacks' log lines (services/takeback.py), by version
        self.engine = Engine(setup)  # at the last point: a running game's replay goes on from it
        write_lines(self.engine, lines)
        self.frames: list[Frame] = []
        self.answers: list[Answer] = []
        self.logged: list[Logged] = []
        self.snapshots: list[snapshots.Snapshot] = []
        self.cursor: Engine | None = None
        self.views: LRU[int, dict[str, Any]] = LRU(VIEWS_KEPT)
        self.lock = threading.Lock()
        self._record()

    # recording --------------------------------------------------------------------------------
    def extend(self, logged: Iterable[Logged]) -> None:
        """Apply answers from the log, recording every point they reach."""
        e = self.engine
        for entry in logged:
            who, answer, _note = entry
            self.answers.append(self._answer(who, answer))
            self.logged.append(entry)
            serial = e.state.step_serial
            apply_log(e, [entry], self.lines)
            self._record()
            since = len(e.answers) - (self.snapshots[-1].version if self.snapshots else 0)
            if since >= SNAPSHOT_EVERY and snapshots.resumable(e, serial):
                self.snapshots.append(snapshots.take(e))

    def _answer(self, who: str, answer: Any) -> Answer:
        d = self.engine.pending
        if answer == "!concede" or d is None:
            return Answer(who, "concede", "concede")
        shown = self.reveal or who == self.seat or d.kind in PUBLIC_CHOICES
        if not shown and answer == "pass" and d.kind == PRIORITY:
            return Answer(who, "pass", d.kind)  # (seen live: priority moved on)
        # Another choice of the other seat stays unsaid: even a priority action's label can
        # tell a hand ("cast Magic Missile #2": two in hand); what it did is in the log.
        return Answer(who, _label(d, answer) if shown else None, d.kind)

    def _record(self) -> None:
        e = self.engine
        g = e.state
        d = e.pending
        players = [g.player(n) for n in self.players]
        self.frames.append(
            Frame(
                turn=g.turn,
                active=g.active,
                step=g.step,
                log_len=len(g.log),
                deciding=d.player if d else None,
                kind=d.kind if d else None,
                life=tuple(p.life for p in players),
                dungeons=tuple(
                    (p.dungeon.spec.name, p.dungeon.room) if p.dungeon else None for p in players
                ),
                completed=tuple(tuple(p.completed) for p in players),
                writable=self.reveal and unwritable(e) is None,
            )
        )

    # reading ----------------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def view(self, at: int) -> dict[str, Any]:
        """Point `at` as this timeline's viewer may see it (call with `lock` held)."""
        found = self.views.get(at)
        if found is not None:
            return found
        engine = self._engine_at(at)
        return self.views.get(at) or self._keep(engine)

    def engine_at(self, at: int) -> Engine:
        """A live engine at point `at`, the timeline's own: for reading only (call with `lock`
        held; it is the cursor until the next call)."""
        return self._engine_at(at)

    def _engine_at(self, at: int) -> Engine:
        if at == self.last:
            return self.engine
        cursor = self.cursor
        base = next((s for s in reversed(self.snapshots) if s.version <= at), None)
        if cursor is not None and (base.version if base else 0) <= len(cursor.answers) <= at:
            engine = cursor  # the nearest engine: stepping forward costs one answer
        elif base is not None:
            state = snapshots.restore(base)
            engine = Engine.resumed(
                self.setup, state, [(who, answer) for who, answer, _ in self.logged[: base.version]]
            )
        else:  # before the first snapshot: the setup itself is the nearest
            engine = Engine(self.setup)
        # The points just before `at` are kept too: stepping back reads them.
        for k in range(len(engine.answers), at):
            apply_log(engine, [self.logged[k]], self.lines)
            if at - k <= VIEWS_BEHIND:
                self._keep(engine)
        self.cursor = engine
        return engine

    def _keep(self, engine: Engine) -> dict[str, Any]:
        with engine.state.reading():
            view = replay_view(engine, self.seat, reveal=self.reveal)
        self.views.put(len(engine.answers), view)
        return view

    def log(self, at: int) -> list[str]:
        """The log up to point `at` (it only grows: the engine's log cut at the point's length)."""
        return self.engine.state.log[: self.frames[at].log_len]

    def new_lines(self, at: int) -> tuple[int, int]:
        """The log lines the answer that reached `at` wrote: [start, stop)."""
        stop = self.frames[at].log_len
        return (self.frames[at - 1].log_len if at else 0), stop

    def is_event(self, at: int) -> bool:
        """Whether the answer that reached `at` made something happen (wrote to the log)."""
        return at == 0 or self.frames[at].log_len > self.frames[at - 1].log_len

    def next_event(self, at: int) -> int:
        return next((k for k in range(at + 1, self.last + 1) if self.is_event(k)), self.last)

    def previous_event(self, at: int) -> int:
        return next((k for k in range(at - 1, 0, -1) if self.is_event(k)), 0)

    def turn_starts(self) -> list[tuple[int, int, str]]:
        """(turn, point, active player) of the first point of each turn."""
        out: list[tuple[int, int, str]] = []
        for k, f in enumerate(self.frames):
            if not out or f.turn != out[-1][0]:
                out.append((f.turn, k, f.active))
        return out

    def step_starts(self) -> list[tuple[int, str, int]]:
        """(turn, step, point) of the first point of each step of each turn."""
        out: list[tuple[int, str, int]] = []
        for k, f in enumerate(self.frames):
            if not out or (f.turn, f.step) != out[-1][:2]:
                out.append((f.turn, f.step, k))
        return out

    def nearest_writable(self, at: int) -> int | None:
        """The latest point at or before `at` a scenario file can start from."""
        return next((k for k in range(at, -1, -1) if self.frames[k].writable), None)


def _label(d: Decision, answer: Any) -> str:
    """The label(s) of an answer to `d` (a replayed "pass" without listing the options)."""
    ids = [answer] if isinstance(answer, str) else list(answer)
    if len(ids) == 1 and ids[0] in d.known:
        return ids[0]
    if not ids:
        return "nothing"
    return ", ".join(d.option(i).label for i in ids)


# the cache ------------------------------------------------------------------------------------
_timelines: LRU[tuple[Any, ...], Timeline] = LRU(TIMELINES)
_timelines_lock = threading.Lock()


def clear_timelines() -> None:
    _timelines.clear()


def perspective(game: Game, viewer: Player | None) -> tuple[str | None, bool]:
    """(seat, reveal) of `viewer`'s replay of `game`: their seat's engine name (None for anyone
    else), and whether both hands are shown (the game is over)."""
    if game.status == Game.OPEN:
        raise ActionRefused(
            "This game has not started: there is nothing to replay yet.", "not_started"
        )
    if game.status == Game.FINISHED:
        return None, True
    seat = seat_of(game, viewer)
    return (seat.engine_name if seat else None), False


def timeline(game: Game, viewer: Player | None) -> Timeline:
    """The replay of `game` up to its current version, as `viewer` may see it (the game row
    read with its setup). Built once per perspective and version; a running game's timeline
    opened again takes only the answers since (a takeback, which rewrites the log, makes a new
    one: its log epoch is in the key)."""
    seat, reveal = perspective(game, viewer)
    key = (game.pk, game.code, game.log_epoch, seat, reveal)
    with _timelines_lock:
        found = _timelines.get(key)
    if found is None or len(found.answers) > game.version:
        # Built outside the cache's lock: other games' replays go on meanwhile (two viewers
        # opening the same one at once may both build it; the last one is kept).
        found = Timeline(engine_setup(game), seat, reveal, takeback_lines(game))
        with _timelines_lock:
            _timelines.put(key, found)
    with found.lock:
        have = len(found.answers)
        if have < game.version:
            found.extend(LOG_SLICE(game.pk, have, game.version))
    return found


def point(tl: Timeline, at: Any) -> int:
    """The point asked for (`?at=`), clamped to the game; the last one when absent or not a
    whole number."""
    try:
        k = int(at)
    except (TypeError, ValueError):
        return tl.last
    return max(0, min(k, tl.last))


# playing on -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayOn:
    """What the replay offers at a point for "play on from here": `at` itself when a scenario
    file can start there, else why not and the nearest earlier point that can (or None)."""

    at: int
    allowed: bool
    reason: str | None
    nearest: int | None


RUNNING_REASON = (
    "Playing on from a point is offered once the game is over: the position holds both hands "
    "and both libraries."
)


def play_on_offer(tl: Timeline, at: int) -> PlayOn:
    if not tl.reveal:
        return PlayOn(at, False, RUNNING_REASON, None)
    if tl.frames[at].writable:
        return PlayOn(at, True, None, at)
    with tl.lock:
        reason = unwritable(tl.engine_at(at))
    return PlayOn(at, False, reason, tl.nearest_writable(at))


def scenario_at(game: Game, tl: Timeline, at: int) -> str:
    """The scenario file of point `at` of a finished game (ActionRefused where the format
    cannot start, naming the nearest point that can)."""
    offer = play_on_offer(tl, at)
    if not offer.allowed:
        where = f" The nearest earlier point that can: {offer.nearest}." if offer.nearest else ""
        raise ActionRefused(f"This point can't start a scenario: {offer.reason}.{where}", "at")
    f = tl.frames[at]
    with tl.lock:
        engine = tl.engine_at(at)
        return position_file(
            engine,
            name=f"Game {game.code}, turn {f.turn}, {f.active}'s {f.step.replace('_', ' ')}",
            description=f"The position after answer {at} of game {game.code}, from its replay.",
        )


def play_on(
    game_id: int, player: Player, at: Any, *, side: int = 0, level: str | None = None
) -> Game:
    """A new game from point `at` of a finished game's replay, with the dungeon cards that game
    was played with, hosted by `player` playing the position's first player (`side` 0) or its
    second (1). Against a friend it waits for them (the invite link); with a computer `level`
    the computer takes the other side and the game starts at once."""
    if level is not None:
        computer_player(level)  # an unknown level is refused before anything is made
    game = Game.objects.get(pk=game_id)
    tl = timeline(game, player)
    k = point(tl, at)
    text = scenario_at(game, tl, k)
    start = check_scenario(text, f"venture-{game.code}-{k}.yaml", dungeons=game.dungeons)
    with transaction.atomic():
        if level is not None:
            check_room_for_computer_game(player)
        new = create_game(player, scenario=start, dungeons=game.dungeons, position=side)
        if level is not None:
            new = join_game(new.pk, computer_player(level))
    return new
