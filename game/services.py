"""Use-cases of a game: lock the game row -> engine -> save -> broadcast on commit.

Every change to a game goes through a function here (DESIGN.md, "The web app"):

1. `select_for_update` the Game row (one writer per game, across any number of processes);
2. check the sender: seated, owner of the pending decision, acting on the current version,
   not repeating an action id already applied;
3. apply the answer in the engine, then let the pace feature pass for whoever cannot act;
4. append every answer to the log (`GameAction`), record completed dungeons, bump the version;
5. after commit, tell the game's channel group "version N". Each consumer then renders its own
   viewer's fragments: nothing rendered (and no hand) is ever broadcast.

The engine objects live in a small per-process cache keyed by game id and checked against the
row's version, so an action costs one answer, not a replay. An engine that is behind the row
(another process served the last actions) applies just the answers it missed; only a process
that has never held the game replays setup + answer log.
Refusals raise `ActionRefused` with a sentence meant for the player.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import router, transaction
from django.utils import timezone

from dungeons.official import official_dungeon_dicts
from game.engine.decisions import IllegalAnswer
from game.engine.dungeon import DungeonError, dungeon_from_dict
from game.engine.game import Engine, GameSetup
from game.engine.position import PositionError
from game.engine.rng import new_secret_seed
from game.engine.stops import stops_at
from game.scenario.loader import Scenario, ScenarioError, parse_scenario

from .models import (
    ActionReceipt,
    CompletedDungeon,
    Connection,
    Game,
    GameAction,
    Player,
    Seat,
)
from .runtime import dbpool
from .runtime.prepared import PreparedInsert, PreparedQuery, PreparedUpdate, Sent, together

log = logging.getLogger(__name__)

CACHE_SIZE = 256
# Finished games have a small cache of their own: their pages may linger on the game-over
# screen for a while, but they must not crowd out (or grow the memory with) games in progress.
FINISHED_CACHE_SIZE = 16
MAX_AUTO_ANSWERS = 20000  # a game where nobody can act still ends (empty libraries) well before


class ActionRefused(Exception):
    """An action that was not applied; `message` is shown to the sender, nothing changed."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# the engine cache -------------------------------------------------------------------------------
# Keyed by (pk, code): a primary key alone could in principle be reused after a delete.
_cache: OrderedDict[tuple[int, str], Engine] = OrderedDict()
_finished: OrderedDict[tuple[int, str], Engine] = OrderedDict()
_cache_lock = threading.RLock()  # the two dicts' bookkeeping only: held for microseconds
# Who may use a cached engine: one thread at a time per game (a reader may catch the engine up,
# which changes it), but games apart in parallel: the consumers' threads (game/consumers.py)
# render different games at once, and a catch-up reads the database. Striped: a fixed number of
# locks, shared by games whose keys hash alike, so nothing grows with the games ever seen.
_game_locks = [threading.RLock() for _ in range(64)]


def _game_lock(key: tuple[int, str]) -> threading.RLock:
    return _game_locks[hash(key) % len(_game_locks)]


# The answers the last `game.changed` message of each game carried (notify_game_changed): the
# process that did not serve an answer catches its engine up from them instead of reading them
# back from the log (a query less per answer for each process with a page of the game). Only a
# copy of what is committed: a game without one, or with one that does not cover what is
# missing, reads the log as before. Bounded, like the engines.
_offered: OrderedDict[tuple[int, str], tuple[int, list[tuple[str, Any]]]] = OrderedDict()
OFFERED_SIZE = 1024


def clear_engine_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _finished.clear()
        _offered.clear()


def offer_answers(game_id: int, code: str, start: int, answers: list[Any]) -> None:
    """Keep the answers a `game.changed` message carried: the game's log from index `start`
    (each an [engine name, answer] pair, as the message holds them). Kept by id and code, as
    the engines are (an id alone could be a test database's reused one). Every page of the
    game in this process hands over the same message: the first one keeps it."""
    key = (game_id, code)
    with _cache_lock:
        kept = _offered.get(key)
        if kept is not None and kept[0] == start and len(kept[1]) == len(answers):
            return
    pairs = [(str(who), answer) for who, answer in answers]
    with _cache_lock:
        _offered[key] = (start, pairs)
        _offered.move_to_end(key)
        while len(_offered) > OFFERED_SIZE:
            _offered.popitem(last=False)


def _offered_answers(game: Game, start: int) -> list[tuple[str, Any]] | None:
    """The log from `start` up to the row's version, if the last message carried all of it."""
    with _cache_lock:
        found = _offered.get(_key(game))
    if found is None:
        return None
    first, answers = found
    if not first <= start or first + len(answers) < game.version:
        return None
    return answers[start - first : game.version - first]


def _cached(key: tuple[int, str]) -> Engine | None:
    with _cache_lock:
        engine = _cache.get(key)
        return engine if engine is not None else _finished.get(key)


def _key(game: Game) -> tuple[int, str]:
    return (game.pk, game.code)


def _remember(key: tuple[int, str], engine: Engine) -> None:
    with _cache_lock:
        store, size = (_finished, FINISHED_CACHE_SIZE) if engine.over else (_cache, CACHE_SIZE)
        if engine.over:
            _cache.pop(key, None)
        store[key] = engine
        store.move_to_end(key)
        while len(store) > size:
            store.popitem(last=False)


def engine_setup(game: Game) -> GameSetup:
    s = game.setup
    if s is None:
        raise ActionRefused("This game has not started yet.", "not_started")
    return GameSetup(
        players=list(s["players"]),
        seed=s["seed"] if isinstance(s["seed"], str) else int(s["seed"]),
        decks={k: list(v) for k, v in s["decks"].items()},
        dungeons={d["name"]: dungeon_from_dict(d) for d in s["dungeons"]},
        position=copy.deepcopy(s["position"]),
        # Set by _start since positions number their objects in seat order; a game stored
        # before has no such key and replays in its mapping's order, as it was played.
        position_in_mapping_order=s.get("position_ids") != "seat",
    )


def _apply_logged(engine: Engine, rows: Iterable[tuple[str, Any]]) -> None:
    for who, answer in rows:
        if answer == "!concede":
            engine.concede(who)
        else:
            engine.answer(who, answer)


def _logged_answers(game: Game, start: int = 0) -> Iterable[tuple[str, Any]]:
    """(engine name, answer) of the log from index `start` up to the row's version: plain
    tuples, no model objects. Bounded by the version read with the row, because another
    thread or process may commit more answers between the two reads; the engine must match
    the row it is rendered or checked with, not a later log."""
    return _LOG_SLICE(game.pk, start, game.version)


# Compiled once (game/runtime/prepared.py): a process that did not serve the last answer reads it
# here before every render of that game.
_LOG_SLICE = PreparedQuery(
    lambda game_id, start, stop: (
        GameAction.objects.filter(game_id=game_id, index__gte=start, index__lt=stop)
        .order_by("index")
        .values_list("seat__engine_name", "answer")
    ),
    count=3,
)


def replay_game(game: Game) -> Engine:
    """Rebuild the engine from the stored setup and answer log."""
    engine = Engine(engine_setup(game))
    _apply_logged(engine, _logged_answers(game))
    if len(engine.answers) != game.version:
        raise RuntimeError(
            f"{game}: replayed {len(engine.answers)} answers, row says {game.version}"
        )
    log.info("game %s: replayed %d answers from the log", game.pk, game.version)
    return engine


def _current(game: Game, engine: Engine | None) -> Engine:
    """`engine` brought to the row's version. A cached engine that is behind (another process
    served the last actions) takes only the answers it has not seen, so an action costs the
    same whichever process served the one before; the whole log is replayed only when there
    is no engine, or it is ahead of the row (a row read before a commit of this process)."""
    if engine is None:
        return replay_game(game)
    have = len(engine.answers)
    if have == game.version:
        return engine
    if have > game.version:
        return replay_game(game)
    logged = _offered_answers(game, have)
    if logged is None:
        logged = _logged_answers(game, have)
    try:
        _apply_logged(engine, logged)
    except IllegalAnswer as e:  # not a prefix of this log after all: start from the setup
        log.warning("game %s: catch-up from %d failed (%s); replaying", game.pk, have, e)
        return replay_game(game)
    if len(engine.answers) != game.version:
        log.warning("game %s: caught up to %d, not %d", game.pk, len(engine.answers), game.version)
        return replay_game(game)
    log.debug("game %s: caught up from %d to %d answers", game.pk, have, game.version)
    return engine


@contextmanager
def reading(game: Game) -> Iterator[Engine]:
    """The live engine of `game` at the row's version, for reading only. The game's lock is
    held meanwhile, so no writer in this process takes it from under the reader's feet."""
    key = _key(game)
    with _game_lock(key):
        engine = _current(game, _cached(key))
        _remember(key, engine)
        yield engine


def _engine_for_update(game: Game) -> Engine:
    """The engine to change, taken out of the cache: it goes back only after commit."""
    key = _key(game)
    with _game_lock(key), _cache_lock:
        engine = _cache.pop(key, None)
        if engine is None:
            engine = _finished.pop(key, None)
    return _current(game, engine)


# broadcasting -----------------------------------------------------------------------------------
def notify_game_changed(game: Game, answers: tuple[int, list[Any]] | None = None) -> None:
    """After commit, tell everyone watching `game` its new version (they re-render themselves),
    and with `answers` (the index of the first, then [engine name, answer] pairs) the answers
    that commit added: a process whose engine is behind catches up from them (offer_answers).
    They stay inside the servers: a consumer renders its viewer's page and sends nothing else.

    From a consumer's pool thread (game/runtime/dbpool.py) the message is handed to the consumer's
    event loop and the thread goes on: waiting for the loop to get to it and for the channel
    layer's round trip (Redis) kept the pool's one thread from the renders queued behind it.
    Elsewhere (a page's request, a management command) it is sent before returning."""
    group, version = game.group_name, game.version
    message: dict[str, Any] = {"type": "game.changed", "version": version}
    if answers is not None:
        message["from"], message["answers"] = answers

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        loop = dbpool.calling_loop()
        if loop is None:
            async_to_sync(layer.group_send)(group, message)
            return
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.add_done_callback(lambda done: _log_failed_send(done, group, version))

    transaction.on_commit(send)


def _log_failed_send(done: Future, group: str, version: int) -> None:
    # Nobody waits for it: a failure is logged. The pages catch up on their next heartbeat or
    # reconnect, which render the current version (consumers.py).
    if not done.cancelled() and done.exception() is not None:
        log.error("game.changed %s for %s was not sent", version, group, exc_info=done.exception())


# players ----------------------------------------------------------------------------------------
def player_for_user(user: Any) -> Player | None:
    if user is None or not user.is_authenticated:
        return None
    try:
        return user.player
    except Player.DoesNotExist:
        return None


def seat_of(game: Game, player: Player | None) -> Seat | None:
    if player is None:
        return None
    return game.seats.filter(player=player).first()


def _seat_for_action(game: Game, player: Player | None) -> Seat:
    seat = seat_of(game, player)
    if seat is None:
        raise ActionRefused("You are watching this game; only its two players can act.", "no_seat")
    return seat


# dungeons in play -------------------------------------------------------------------------------
def dungeon_dicts_in_play(custom: list[str] | tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Copies of the dungeon cards a new game may use, as they are now (later edits don't reach
    it): the four official ones in printed order, then the custom ones the host allowed."""
    from dungeons.models import DungeonCard

    official_order = [d["name"] for d in official_dungeon_dicts()]
    cards = list(DungeonCard.objects.filter(official=True)) + list(
        DungeonCard.objects.filter(official=False, name__in=list(custom))
    )
    if not cards:
        return [copy.deepcopy(d) for d in official_dungeon_dicts()]
    cards.sort(
        key=lambda c: (0, official_order.index(c.name)) if c.name in official_order else (1, c.name)
    )
    out = []
    for card in cards:
        data = card.to_dict()
        try:
            dungeon_from_dict(data)
        except DungeonError as e:
            log.warning("Dungeon %s is not valid and is left out of new games: %s", card.name, e)
            continue
        out.append(data)
    return out


# creating, joining, starting ---------------------------------------------------------------------
@dataclass
class ScenarioStart:
    name: str
    text: str
    scenario: Scenario


def check_scenario(text: str, filename: str = "scenario.yaml") -> ScenarioStart:
    """Parse an uploaded scenario and build its position once, so every error shows at upload
    (with the line number the loader gives) rather than when the opponent joins."""
    try:
        scenario = parse_scenario(text, filename)
    except ScenarioError as e:
        raise ActionRefused(str(e), "scenario") from None
    # The loader takes a name of any length (a file run from the command line is not stored);
    # a game stores it in a column of this many characters, which PostgreSQL enforces.
    most = Game._meta.get_field("scenario_name").max_length
    if len(scenario.name) > most:
        raise ActionRefused(
            str(
                ScenarioError(
                    filename,
                    scenario.name_line,
                    f"the name has {len(scenario.name):,} characters; at most {most}",
                )
            ),
            "scenario",
        )
    dungeons = {d["name"]: dungeon_from_dict(d) for d in dungeon_dicts_in_play()}
    try:
        Engine(
            GameSetup(
                players=scenario.players,
                seed=scenario.seed,
                dungeons=dungeons,
                position=_plain(scenario.position),
            )
        )
    except (PositionError, KeyError, ValueError, TypeError) as e:
        raise ActionRefused(f"{filename}: the position can't be set up: {e}", "scenario") from None
    return ScenarioStart(scenario.name, text, scenario)


def _plain(data: Any) -> Any:
    """JSON-safe plain dicts and lists (the scenario loader returns line-numbered subclasses)."""
    return json.loads(json.dumps(data))


def create_game(
    player: Player,
    *,
    deck_name: str = "",
    deck: list[str] | None = None,
    scenario: ScenarioStart | None = None,
    custom_dungeons: list[str] | tuple[str, ...] = (),
    clock_seconds: int = 0,
    clock_increment: int = 0,
) -> Game:
    """An open game with the host seated; the second player joins by the invite link. The
    dungeons it may use (the official ones plus `custom_dungeons`) are copied now. With
    `clock_seconds`, each player has that much time (plus `clock_increment` per answer)."""
    with transaction.atomic():
        game = Game.objects.create(
            created_by=player,
            scenario_name=scenario.name if scenario else "",
            scenario_text=scenario.text if scenario else "",
            dungeons=dungeon_dicts_in_play(custom_dungeons),
            clock_seconds=clock_seconds,
            clock_increment=clock_increment,
        )
        Seat.objects.create(
            game=game,
            player=player,
            position=0,
            deck_name="" if scenario else deck_name,
            deck=[] if scenario else list(deck or []),
        )
    return game


def join_game(
    game_id: int, player: Player, *, deck_name: str = "", deck: list[str] | None = None
) -> Game:
    """Take the second seat and start the game. Joining a game you sit at is a no-op."""
    with transaction.atomic():
        game = _lock(game_id)
        if seat_of(game, player) is not None:
            return game
        if game.status != Game.OPEN:
            raise ActionRefused("This game already has two players.", "full")
        if not game.is_scenario and not deck:
            raise ActionRefused("Choose a deck to join with.", "no_deck")
        Seat.objects.create(
            game=game,
            player=player,
            position=1,
            deck_name="" if game.is_scenario else deck_name,
            deck=[] if game.is_scenario else list(deck or []),
        )
        _start(game)
    return game


def cancel_game(game_id: int, player: Player) -> None:
    """The host takes back an open game nobody has joined."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.created_by_id != player.pk:
            raise ActionRefused("Only the player who created a game can cancel it.", "not_host")
        if game.status != Game.OPEN:
            raise ActionRefused("The game has started; concede instead.", "started")
        notify_game_changed(game)  # after commit the row is gone: pages say so
        game.delete()


def unique_engine_names(display_names: list[str]) -> list[str]:
    """The seats' display names, made unique for the engine ("Sam", "Sam (2)")."""
    out: list[str] = []
    for name in display_names:
        candidate, n = name, 2
        while candidate in out:
            candidate = f"{name} ({n})"
            n += 1
        out.append(candidate)
    return out


def _rename_position(position: dict[str, Any], mapping: dict[str, str]) -> dict[str, Any]:
    """A scenario's position with its player names replaced by the seats' engine names."""
    out = _plain(position)
    turn = out.get("turn") or {}
    if "active" in turn:
        turn["active"] = mapping.get(turn["active"], turn["active"])
    out["setup"] = {mapping.get(k, k): v for k, v in (out.get("setup") or {}).items()}
    return out


def _start(game: Game) -> Engine:
    """Write the setup (the inputs replay needs) and run until someone must decide."""
    seats = list(game.seats.select_related("player").order_by("position"))
    names = unique_engine_names([s.player.display_name for s in seats])
    for seat, name in zip(seats, names, strict=True):
        seat.engine_name = name
        seat.save(update_fields=["engine_name"])
    setup: dict[str, Any] = {
        "players": names,
        # Every game between people gets a fresh secret, a scenario-started one too (the
        # file's own `seed` is for `manage.py scenario`): nothing a player sees narrows it.
        "seed": new_secret_seed(),
        "decks": {name: list(seat.deck) for seat, name in zip(seats, names, strict=True)},
        "dungeons": game.dungeons or dungeon_dicts_in_play(),
        "position": None,
        "position_ids": "seat",  # engine_setup: how this game's position numbers its objects
    }
    if game.is_scenario:
        scenario = parse_scenario(game.scenario_text, game.scenario_name or "scenario")
        mapping = dict(zip(scenario.players, names, strict=True))
        setup["decks"] = {}
        setup["position"] = _rename_position(scenario.position, mapping)
    game.setup = setup
    game.status = Game.ACTIVE
    game.started = now()
    game.version = 0
    game.save(update_fields=["setup", "status", "started", "version"])
    # The live engine is built from the setup as the database gives it back, as every replay
    # is: a JSON column may not give back what was written (PostgreSQL's jsonb sorts keys).
    game.refresh_from_db(fields=["setup"])
    for seat in seats:  # each player's clock starts full; it runs while they must decide
        seat.clock_ms = game.clock_seconds * 1000 if game.has_clock else None
    engine = Engine(engine_setup(game))
    _commit(game, engine, seats, before=_completed_counts(engine), at=game.started)
    return engine


# acting -----------------------------------------------------------------------------------------
# Every action names the version it was made on and carries the browser's action id (a fresh
# one in every rendered form). The checks, in this order, under the game row's lock:
#   1. the sender is seated;                        "no_seat"
#      (then a chess clock that ran out ends the game: the loss is committed, the action
#      refused as "over")
#   2. the action id was not applied before;        "repeat"   (a double click, a resend)
#   3. the game is in progress;                     "not_started" / "over"
#   4. the version is the game's;                   "already_answered" (behind) / "stale"
#   5. the action itself (whose decision, legal).   "not_yours" / "illegal" / ...
# A refused action changes nothing: the transaction is rolled back, receipt included.
def now() -> datetime:
    """The services' wall clock. Tests replace it to run clocks and absences without waiting."""
    return timezone.now()


def _completed_counts(engine: Engine) -> dict[str, int]:
    return {p.name: len(p.completed) for p in engine.state.players}


# The two reads of every action, compiled once (game/runtime/prepared.py). The game's setup (tens
# of kB of JSON) is read only when the engine must be rebuilt, the seats' decks never.
_LOCKED_GAME = PreparedQuery(
    lambda game_id: Game.objects.select_for_update().defer(*Game.BULKY).filter(pk=game_id)
)
_ACTING_SEATS = PreparedQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("player")
        .defer("deck")
        .order_by("position")
    )
)


def _lock(game_id: int) -> Game:
    found = _LOCKED_GAME(game_id)
    if not found:
        raise ActionRefused("There is no such game.", "no_game")
    return found[0]


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


_RECEIPT_SQL: dict[str, str] = {}


def _receipt_sql(connection: Any) -> str:
    """Record an action id (check 2) in the statement that finds the sender's seat: nothing is
    inserted when the id is already in the game's receipts (the unique constraint on (game,
    action id) is the check itself, whatever the number of processes), nor for a viewer with no
    seat. The version defaults to the game's, read after the game's row lock like the rest."""
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


def _send_receipt(
    batch: Any, game_id: int, player: Player | None, action_id: str, kind: str, version: int | None
) -> Sent | None:
    """The receipt's INSERT, in the batch that locks the game (its row count, after the batch:
    1 recorded, 0 a repeat or no seat). None when the action carries no id."""
    if not action_id:
        return None
    connection = batch.connection
    created = ActionReceipt._meta.get_field("created").get_db_prep_save(now(), connection)
    player_id = player.pk if player is not None else None
    params = [action_id, kind, version, created, game_id, player_id]
    return batch.execute(_receipt_sql(connection), params)


def _repeat() -> ActionRefused:
    return ActionRefused(
        "That was already received and applied once (a double click or a resent message); "
        "it is not applied again.",
        "repeat",
    )


@dataclass
class _Acting:
    """A locked game, the sender's seat and both seats (by engine name), at one instant."""

    game: Game
    seat: Seat
    seats: list[Seat]
    at: datetime

    @property
    def by_name(self) -> dict[str, Seat]:
        return {s.engine_name: s for s in self.seats}

    def other(self) -> Seat:
        return next(s for s in self.seats if s.pk != self.seat.pk)


def _begin(
    game_id: int, player: Player | None, *, version: int | None, action_id: str, kind: str
) -> _Acting:
    """Lock the game and run the checks every action shares (1-4 above); a chess clock that ran
    out is a loss recorded before anything else (`_Commit`). The lock, the seats and the
    receipt are sent together: one round trip on PostgreSQL (game/runtime/prepared.py, `together`);
    the server runs them in order, so the seats and the receipt are read under the lock."""
    with together(router.db_for_write(Game)) as batch:
        locked = _LOCKED_GAME.send(batch, game_id)
        seat_rows = _ACTING_SEATS.send(batch, game_id)
        receipt = _send_receipt(batch, game_id, player, action_id, kind, version)
    if not locked.rows:
        raise ActionRefused("There is no such game.", "no_game")
    game = locked.rows[0]
    seats = _stored_seats(game, seat_rows.rows)  # the sender's is among them
    seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
    if seat is None:
        raise ActionRefused("You are watching this game; only its two players can act.", "no_seat")
    a = _Acting(game, seat, seats, now())
    recorded = receipt is not None and receipt.rowcount == 1
    _flag_if_out_of_time(a, action_id if recorded else "")
    if receipt is not None and not recorded:
        raise _repeat()
    _check_active(game)
    _check_version(game, seat, version)
    return a


_SEAT_FIELDS = ["pass_until", "pass_turn", "pass_stack", "clock_ms"]  # what _commit stores


def _seat_fields(seat: Seat) -> tuple[Any, ...]:
    return (seat.pass_until, seat.pass_turn, list(seat.pass_stack), seat.clock_ms)


def _stored_seats(game: Game, seats: list[Seat]) -> list[Seat]:
    """The game's seats, each remembering its stored pace and clock so that `_commit` writes
    only a seat that changed (most actions change neither: two UPDATEs saved per action)."""
    for seat in seats:
        seat.game = game  # the locked instance, as game.seats would give
        seat._stored = _seat_fields(seat)
    return seats


def _flag_if_out_of_time(a: _Acting, recorded: str = "") -> None:
    """A chess clock that ran out ends the game before anything else is applied. `recorded`:
    the action id whose receipt this action inserted, deleted here since the loss is committed
    without the action (a resend of it is told the game is over, not that it was applied)."""
    loser = _flagged(a.game, a.by_name, a.at)
    if loser is None:
        return
    if recorded:
        ActionReceipt.objects.filter(game_id=a.game.pk, action_id=recorded).delete()
    reason = f"{loser.engine_name} ran out of time"
    engine = _engine_for_update(a.game)
    _lose(a.game, engine, a.seats, loser, note="time", reason=reason, at=a.at)
    transaction.on_commit(lambda: log.info("game %s: %s", a.game.pk, reason))
    raise _Commit(f"The game is over: {reason}.")


def _flagged(game: Game, by_name: dict[str, Seat], at: datetime) -> Seat | None:
    """The deciding seat if its clock has run out at `at`."""
    if not game.has_clock or game.clock_since is None:
        return None
    seat = by_name.get(game.deciding)
    if seat is None or seat.clock_ms is None:
        return None
    return seat if seat.clock_ms - _ms(at - game.clock_since) <= 0 else None


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


class _Commit(Exception):
    """Leave the action's atomic block normally (committing what was written), then refuse."""

    def __init__(self, message: str) -> None:
        self.message = message


def _run(body: Any) -> Game:
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


def submit_answer(
    game_id: int,
    player: Player | None,
    answer: str | list[str],
    *,
    version: int,
    action_id: str = "",
) -> Game:
    """Answer the pending decision with option id(s) as the player seen at `version`."""

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="answer")
        engine = _engine_for_update(a.game)
        d = engine.pending
        if d is None:
            _remember(_key(a.game), engine)
            raise ActionRefused("The game is over.", "over")
        if d.player != a.seat.engine_name:
            _remember(_key(a.game), engine)
            raise ActionRefused(
                f"It is {d.player}'s decision ({d.kind.replace('_', ' ')}), not yours.",
                "not_yours",
            )
        before = _completed_counts(engine)
        try:
            engine.answer(a.seat.engine_name, answer)
        except IllegalAnswer as e:
            _remember(_key(a.game), engine)  # unchanged: IllegalAnswer is raised before any change
            raise ActionRefused(str(e), "illegal") from None
        _commit(a.game, engine, a.seats, before=before, action_id=action_id, at=a.at, actor=a.seat)
        return a.game

    return _run(body)


def concede(
    game_id: int, player: Player | None, *, version: int | None = None, action_id: str = ""
) -> Game:
    """The player gives up (CR 104.3a); logged as "!concede" so replays reproduce it."""

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="concede")
        engine = _engine_for_update(a.game)
        _lose(a.game, engine, a.seats, a.seat, note="", reason="", at=a.at, action_id=action_id)
        return a.game

    return _run(body)


def claim_win(
    game_id: int, player: Player | None, *, version: int | None = None, action_id: str = ""
) -> Game:
    """The opponent left and did not come back in time: the player present claims the win.
    Recorded as the absent player's concession (so a replay has the same winner), with the
    reason on the game."""

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="claim")
        other = a.other()
        since = absences(a.game, a.seats, a.at).get(other.pk)
        name = other.player.display_name
        if since is None:
            raise ActionRefused(f"{name} is connected; there is no win to claim.", "present")
        left = settings.VENTURE_ABANDON_SECONDS - (a.at - since).total_seconds()
        if left > 0:
            raise ActionRefused(
                f"{name} may still come back: the win can be claimed in {math.ceil(left)} s.",
                "too_soon",
            )
        engine = _engine_for_update(a.game)
        reason = f"{other.engine_name} left the game; {a.seat.engine_name} claimed the win"
        _lose(a.game, engine, a.seats, other, note="abandoned", reason=reason, at=a.at)
        return a.game

    return _run(body)


def check_time(game_id: int) -> bool:
    """Record a time loss if the deciding player's clock has run out (called by any page
    watching the game when the clock should reach zero). True when the game ended now."""
    with transaction.atomic():
        try:
            game = Game.objects.select_for_update().get(pk=game_id)
        except Game.DoesNotExist:
            return False
        if game.status != Game.ACTIVE or not game.has_clock:
            return False
        seats = list(game.seats.select_related("player").order_by("position"))
        at = now()
        loser = _flagged(game, {s.engine_name: s for s in seats}, at)
        if loser is None:
            return False
        engine = _engine_for_update(game)
        reason = f"{loser.engine_name} ran out of time"
        _lose(game, engine, seats, loser, note="time", reason=reason, at=at)
    return True


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
    before = _completed_counts(engine)
    engine.concede(loser.engine_name)
    _commit(
        game,
        engine,
        seats,
        before=before,
        action_id=action_id,
        at=at,
        note=note,
        end_reason=reason,
    )


def set_pace(
    game_id: int,
    player: Player | None,
    *,
    full_control: bool | None = None,
    pass_until: str | None = None,
    version: int | None = None,
    action_id: str = "",
) -> Game:
    """Change a seat's pace: full control on/off, or pass until my next turn / until something
    happens ("" stops passing). Passing may happen at once, for the seat holding priority."""
    if pass_until is not None and pass_until not in dict(Seat.PASS_MODES):
        raise ActionRefused(f"Unknown pass mode {pass_until!r}.", "bad_input")

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="pace")
        seat = a.seat
        if full_control is not None:
            seat.full_control = full_control
        engine = _engine_for_update(a.game)
        if pass_until is not None:
            seat.pass_until = pass_until
            seat.pass_turn = engine.state.turn
            seat.pass_stack = [s.id for s in engine.state.stack]
        seat.save(update_fields=["full_control"])
        _commit(a.game, engine, a.seats, before=_completed_counts(engine), at=a.at)
        return a.game

    return _run(body)


def _auto_answer(engine: Engine, seat: Seat) -> str | list[str] | None:
    """What the pace feature answers for `seat` at the pending decision, or None to ask."""
    d = engine.pending
    g = engine.state
    assert d is not None
    name = seat.engine_name
    my_new_turn = g.active == name and g.turn > seat.pass_turn
    if seat.pass_until == Seat.PASS_MY_TURN:
        if my_new_turn:
            seat.pass_until = Seat.PASS_NONE
        elif d.kind == "priority":
            return "pass"
        elif d.kind == "declare_attackers" and d.multi and d.min_count == 0:
            return []  # "pass the turn" includes not attacking
        else:
            return None  # other choices (blocks, targets…) are still asked; passing goes on after
    elif seat.pass_until == Seat.PASS_SOMETHING:
        stack_now = [s.id for s in g.stack]
        if d.kind != "priority" or my_new_turn or set(stack_now) - set(seat.pass_stack):
            seat.pass_until = Seat.PASS_NONE
        else:
            seat.pass_stack = stack_now
            return "pass"
    if not seat.full_control and not stops_at(engine.state, d):
        return "pass"  # from public information only, never from the hand (engine/stops.py)
    return None


def _run_pace(engine: Engine, seats_by_name: dict[str, Seat]) -> None:
    for _ in range(MAX_AUTO_ANSWERS):
        d = engine.pending
        if d is None:
            return
        answer = _auto_answer(engine, seats_by_name[d.player])
        if answer is None:
            return
        engine.answer(d.player, answer)
    log.warning("pace: stopped after %d automatic answers", MAX_AUTO_ANSWERS)


_PROGRESS_FIELDS = [
    "version",
    "turn",
    "deciding",
    "status",
    "finished",
    "winner",
    "end_reason",
    "clock_since",
]


# The writes of every answer, their SQL written once (game/runtime/prepared.py).
_INSERT_ACTIONS = PreparedInsert(GameAction)
_INSERT_COMPLETED = PreparedInsert(CompletedDungeon)
_UPDATE_SEAT = PreparedUpdate(Seat, _SEAT_FIELDS)
_UPDATE_PROGRESS = PreparedUpdate(Game, _PROGRESS_FIELDS)


def _commit(
    game: Game,
    engine: Engine,
    seats: list[Seat],
    *,
    before: dict[str, int],
    action_id: str = "",
    at: datetime | None = None,
    actor: Seat | None = None,
    note: str = "",
    end_reason: str = "",
) -> None:
    """Pace, then store the new answers, completed dungeons, the clocks and the result;
    broadcast on commit. `actor` answered the pending decision (its clock earns the
    increment); `note` marks the first new answer (a concession for time or absence), whose
    reason `end_reason` replaces the engine's on the game row."""
    at = at or now()
    by_name = {s.engine_name: s for s in seats}
    first_new = game.version
    pace_from = len(engine.answers)
    _run_pace(engine, by_name)
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
                note=note if index == first_new else "",
            )
        )
    completed = [
        CompletedDungeon(player=by_name[p.name].player, game=game, dungeon=dungeon, turn=turn)
        for p in engine.state.players
        for dungeon, turn in p.completed[before.get(p.name, 0) :]
    ]
    _stop_clock(game, by_name, at, actor)
    changed = [s for s in seats if getattr(s, "_stored", None) != _seat_fields(s)]
    game.version = len(engine.answers)
    game.turn = engine.state.turn
    game.deciding = engine.pending.player if engine.pending is not None else ""
    if engine.state.over and game.status != Game.FINISHED:
        game.status = Game.FINISHED
        game.finished = at
        game.winner = engine.state.winner or ""
        game.end_reason = end_reason or engine.state.end_reason or ""
    # The clock of whoever must decide now runs from this instant (automatic answers take none).
    game.clock_since = at if game.has_clock and game.status == Game.ACTIVE else None
    # Every write in one round trip on PostgreSQL (game/runtime/prepared.py, `together`). The game
    # row: only what an answer changes; it also holds the setup (both decks and every dungeon, tens
    # of kB of JSON), which `save()` would serialise and write again every time.
    with together(router.db_for_write(Game)) as batch:
        _INSERT_ACTIONS.send(batch, rows)
        _INSERT_COMPLETED.send(batch, completed)
        for seat in changed:
            _UPDATE_SEAT.send(batch, seat)
        _UPDATE_PROGRESS.send(batch, game)
    for seat in changed:
        seat._stored = _seat_fields(seat)
    key = _key(game)
    transaction.on_commit(lambda: _remember(key, engine))
    added = [[who, answer] for who, answer in engine.answers[first_new:]]
    notify_game_changed(game, (first_new, added))


def _stop_clock(game: Game, by_name: dict[str, Seat], at: datetime, actor: Seat | None) -> None:
    """Charge the deciding seat for the time since its clock started; its own answer earns the
    increment. (Before the first decision nobody's clock is running.)"""
    if not game.has_clock or game.clock_since is None:
        return
    running = by_name.get(game.deciding)
    if running is None or running.clock_ms is None:
        return
    running.clock_ms -= _ms(at - game.clock_since)
    if actor is not None and actor.pk == running.pk:
        running.clock_ms += game.clock_increment * 1000


# timing: clocks and absences --------------------------------------------------------------------
@dataclass
class SeatTiming:
    """What a page shows of one seat's time: its clock now, and how long it has been away."""

    clock_ms: int | None  # time left at `at` (None: the game has no clock)
    clock_running: bool
    absent_since: datetime | None
    absent_seconds: float = 0.0

    @property
    def claimable_in(self) -> float | None:
        """Seconds until the opponent may claim the win (0: now), None while connected."""
        if self.absent_since is None:
            return None
        return max(0.0, settings.VENTURE_ABANDON_SECONDS - self.absent_seconds)


def absences(game: Game, seats: list[Seat], at: datetime) -> dict[int, datetime | None]:
    """Since when each seat has had no open connection (None: connected now). A connection
    whose heartbeat stopped (its server died) counts from its last beat; a seat that never
    connected, from the start of the game."""
    fresh_after = at - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS)
    latest = _latest_seen(game, seats)
    out: dict[int, datetime | None] = {}
    for seat in seats:
        seen = latest.get(seat.pk)
        if seen is not None and seen >= fresh_after:
            out[seat.pk] = None
            continue
        known = [t for t in (seat.offline_since, seen) if t is not None]
        out[seat.pk] = max(known) if known else (game.started or at)
    return out


def _latest_seen(game: Game, seats: list[Seat]) -> dict[int, datetime]:
    """Each seat's freshest connection: what seats read by board.load_board carry already
    (`latest_seen`, no query), or one query of the game's connections."""
    if all(hasattr(seat, "latest_seen") for seat in seats):
        return {s.pk: s.latest_seen for s in seats if s.latest_seen is not None}
    latest: dict[int, datetime] = {}
    rows = Connection.objects.filter(seat__game=game).values_list("seat_id", "last_seen")
    for seat_id, seen in rows:
        if seat_id not in latest or seen > latest[seat_id]:
            latest[seat_id] = seen
    return latest


def timings(game: Game, seats: list[Seat], at: datetime | None = None) -> dict[int, SeatTiming]:
    at = at or now()
    away = absences(game, seats, at) if game.status == Game.ACTIVE else {}
    out = {}
    for seat in seats:
        running = (
            game.has_clock
            and game.status == Game.ACTIVE
            and game.clock_since is not None
            and seat.engine_name == game.deciding
        )
        clock = seat.clock_ms
        if running and clock is not None:
            clock = max(0, clock - _ms(at - game.clock_since))
        since = away.get(seat.pk)
        out[seat.pk] = SeatTiming(
            clock_ms=clock if game.has_clock else None,
            clock_running=running,
            absent_since=since,
            absent_seconds=(at - since).total_seconds() if since is not None else 0.0,
        )
    return out


# after the game -----------------------------------------------------------------------------------
def rematch(game_id: int, player: Player | None) -> Game:
    """A new game between the same two players with the same decks (or the same position),
    a new coin flip. Both players end up at the same rematch, whoever asks first."""
    with transaction.atomic():
        old = _lock(game_id)
        _seat_for_action(old, player)
        if old.status != Game.FINISHED:
            raise ActionRefused("A rematch can start once this game is over.", "not_over")
        existing = Game.objects.filter(rematch_of=old).first()
        if existing is not None:
            return existing
        official = {d["name"] for d in official_dungeon_dicts()}
        allowed = [d["name"] for d in old.dungeons if d["name"] not in official]
        new = Game.objects.create(
            created_by=player,
            rematch_of=old,
            scenario_name=old.scenario_name,
            scenario_text=old.scenario_text,
            dungeons=dungeon_dicts_in_play(allowed),  # as they are now: a new game
            clock_seconds=old.clock_seconds,
            clock_increment=old.clock_increment,
        )
        for seat in old.seats.order_by("position"):
            Seat.objects.create(
                game=new,
                player=seat.player,
                position=seat.position,
                deck_name=seat.deck_name,
                deck=list(seat.deck),
                full_control=seat.full_control,
            )
        _start(new)
        notify_game_changed(old)  # the other player's game-over screen offers the rematch
    return new


# presence ---------------------------------------------------------------------------------------
def viewer_connected(game_id: int, player: Player | None, channel_name: str) -> Seat | None:
    """A websocket opened on the game: a seated player's connection makes them "online"."""
    with transaction.atomic():
        game = Game.objects.get(pk=game_id)
        seat = seat_of(game, player)
        if seat is not None:
            Connection.objects.update_or_create(
                channel_name=channel_name, defaults={"seat": seat, "last_seen": now()}
            )
            Seat.objects.filter(pk=seat.pk).update(offline_since=None)
            notify_game_changed(game)
    return seat


def viewer_alive(channel_name: str | None, game_id: int) -> frozenset[int]:
    """One connection's heartbeat (None: a spectator's, not recorded): see `viewers_alive`."""
    names = [channel_name] if channel_name is not None else []
    return viewers_alive(names, [game_id]).get(game_id, frozenset())


HEARTBEAT_CHUNK = 500  # channel names per UPDATE (SQLite allows 32 766 parameters a statement)


def viewers_alive(channel_names: list[str], game_ids: Iterable[int]) -> dict[int, frozenset[int]]:
    """A process's heartbeat (game/runtime/heartbeats.py): these connections are still open.
    Returns,
    for each of the games, the seats with a live connection now (what the pages' presence marks
    show; a game with none is left out), so a page is redrawn only when that changed."""
    at = now()
    for i in range(0, len(channel_names), HEARTBEAT_CHUNK):
        chunk = channel_names[i : i + HEARTBEAT_CHUNK]
        Connection.objects.filter(channel_name__in=chunk).update(last_seen=at)
    since = at - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS)
    online: dict[int, set[int]] = {}
    games = sorted(set(game_ids))
    for i in range(0, len(games), HEARTBEAT_CHUNK):
        rows = Connection.objects.filter(
            seat__game_id__in=games[i : i + HEARTBEAT_CHUNK], last_seen__gte=since
        ).values_list("seat__game_id", "seat_id")
        for game_id, seat_id in rows:
            online.setdefault(game_id, set()).add(seat_id)
    return {game_id: frozenset(seats) for game_id, seats in online.items()}


def viewer_disconnected(channel_name: str) -> None:
    """A seated player's websocket closed; when it was their last, their absence starts."""
    with transaction.atomic():
        conn = Connection.objects.select_related("seat__game").filter(channel_name=channel_name)
        row = conn.first()
        if row is None:
            return
        seat, game = row.seat, row.seat.game
        row.delete()
        at = now()
        fresh_after = at - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS)
        if not seat.live_connections.filter(last_seen__gte=fresh_after).exists():
            Seat.objects.filter(pk=seat.pk).update(offline_since=at)
        notify_game_changed(game)


def online_seat_ids(game: Game) -> set[int]:
    return _online(game.pk)


def _online(game_id: int) -> set[int]:
    return set(viewers_alive([], [game_id]).get(game_id, ()))
