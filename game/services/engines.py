"""The live engines of one process: its cache, and replay or catch-up from the answer log.

A game is stored as its setup and answer log (docs/architecture.md, "Persistence by replay").
Each process keeps the engines it has served in a cache keyed by game
(game/runtime/engine_cache.py) and checked against the row's version, so an action costs one
engine step, not a replay. An engine that is behind the row (another process served the last
actions) applies just the answers it missed, taken from the last `game.changed` message if it
carried them (`offer_answers`), from the log otherwise; only a process that has never held the
game replays setup + answer log.

A settled takeback request (services/takeback.py) rewrites the log: an accepted one removes
answers from its end, and each writes a line in the game's log. It moves the game's
`log_epoch`, part of every key here, so each process's engine of the game before it is never
used again (it ages out of the cache) and the next use replays the log as it now is, the
takebacks' lines included (`takeback_lines`). A catch-up never crosses a takeback's line: a
line stands at a version the game had reached when the request was settled.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from game.engine.decisions import IllegalAnswer
from game.engine.dungeon import dungeon_spec
from game.engine.game import Engine, GameSetup
from game.models import Game, GameAction, Takeback
from game.runtime.engine_cache import EngineCache, Key
from game.runtime.lru import LRU
from game.runtime.prepared import PreparedQuery

from .errors import ActionRefused
from .pace import EXPLAINED, explain_pass

log = logging.getLogger(__name__)

OFFERED_SIZE = 1024

Logged = tuple[str, Any, str]  # an entry of the answer log: engine name, answer, note
Lines = Mapping[int, Sequence[str]]  # the takebacks' log lines by the version they stand at

# The one cache of this process (a test simulating several processes swaps it): the games in
# progress it served, and the few finished ones whose pages linger on the game-over screen.
CACHE = EngineCache()
_cache_lock = threading.RLock()  # the caches' bookkeeping only: held for microseconds
# Who may use a cached engine: one thread at a time per game (a reader may catch the engine up,
# which changes it), but games apart in parallel: the consumers' threads (game/consumers.py)
# render different games at once, and a catch-up reads the database. Striped: a fixed number of
# locks, shared by games whose keys hash alike, so nothing grows with the games ever seen.
_game_locks = [threading.RLock() for _ in range(64)]

# The answers the last `game.changed` message of each game carried (broadcast.py): the process
# that did not serve an answer catches its engine up from them instead of reading them back
# from the log (a query less per answer for each process with a page of the game). Only a copy
# of what is committed: a game without one, or with one that does not cover what is missing,
# reads the log. Bounded, like the engines.
_offered: LRU[Key, tuple[int, list[Logged]]] = LRU(OFFERED_SIZE)


def key_of(game: Game) -> Key:
    return (game.pk, game.code, game.log_epoch)


def _game_lock(key: Key) -> threading.RLock:
    return _game_locks[hash(key) % len(_game_locks)]


def clear_engine_cache() -> None:
    with _cache_lock:
        CACHE.clear()
        _offered.clear()


def remember(game: Game, engine: Engine) -> None:
    """Put `engine` (at the row's version) back in the cache."""
    with _cache_lock:
        CACHE.put(key_of(game), engine)


def offer_answers(game_id: int, code: str, epoch: int, start: int, answers: list[Any]) -> None:
    """Keep the answers a `game.changed` message carried: the game's log from index `start`
    (each [engine name, answer], or [engine name, answer, note] for an automatic pass the
    game's log explains, as the message holds them). Kept by id, code and log epoch, as the
    engines are (an id alone could be a test database's reused one; after a takeback the same
    indexes hold other answers). Every page of the game in this process hands over the same
    message: the first one keeps it."""
    key = (game_id, code, epoch)
    kept = _offered.peek(key)
    if kept is not None and kept[0] == start and len(kept[1]) == len(answers):
        return
    entries = [(str(e[0]), e[1], str(e[2]) if len(e) > 2 else "") for e in answers]
    _offered.put(key, (start, entries))


def offered(game_id: int, code: str, epoch: int = 0) -> tuple[int, list[Logged]] | None:
    """What `offer_answers` kept for the game: the first index and the answers."""
    return _offered.peek((game_id, code, epoch))


def _offered_since(game: Game, start: int) -> list[Logged] | None:
    """The log from `start` up to the row's version, if the last message carried all of it."""
    found = offered(game.pk, game.code, game.log_epoch)
    if found is None:
        return None
    first, answers = found
    if not first <= start or first + len(answers) < game.version:
        return None
    return answers[start - first : game.version - first]


def engine_setup(game: Game) -> GameSetup:
    s = game.setup
    if s is None:
        raise ActionRefused("This game has not started yet.", "not_started")
    return GameSetup(
        players=list(s["players"]),
        seed=s["seed"] if isinstance(s["seed"], str) else int(s["seed"]),
        decks={k: list(v) for k, v in s["decks"].items()},
        # Checked when they were saved, before any game copied them (lifecycle).
        dungeons={d["name"]: dungeon_spec(d) for d in s["dungeons"]},
        position=copy.deepcopy(s["position"]),
        # Set when a game starts, since positions number their objects in seat order; a game
        # stored before has no such key and replays in its mapping's order, as it was played.
        position_in_mapping_order=s.get("position_ids") != "seat",
        # A game stored before the play/draw choice replays without it, as it was played.
        play_or_draw=s.get("play_or_draw") == "chosen",
    )


# Compiled once (game/runtime/prepared.py): a process that did not serve the last answer reads it
# here before every render of that game.
LOG_SLICE = PreparedQuery(
    lambda game_id, start, stop: (
        GameAction.objects.filter(game_id=game_id, index__gte=start, index__lt=stop)
        .order_by("index")
        .values_list("seat__engine_name", "answer", "note")
    ),
    count=3,
)


def _logged_answers(game: Game, start: int = 0) -> Iterable[Logged]:
    """(engine name, answer, note) of the log from index `start` up to the row's version: plain
    tuples, no model objects. Bounded by the version read with the row, because another
    thread or process may commit more answers between the two reads; the engine must match
    the row it is rendered or checked with, not a later log."""
    return LOG_SLICE(game.pk, start, game.version)


def loss_line(engine: Engine, loser: str, note: str) -> str | None:
    """The game log's words for a loss that is not a concession as players say it (the answer
    row's note: "time", "abandoned"); None for a concession. The rules treat them alike
    (CR 104.3a), so the engine records each as a concession."""
    if note == "time":
        return f"{loser} ran out of time and loses the game"
    if note == "abandoned":
        return f"{loser} left the game; {engine.state.opponent(loser)} claims the win"
    # The end of a training game, a lesson or puzzle decided (services/training_state.py).
    if note == "solved":
        return f"{engine.state.opponent(loser)} reached the goal: the lesson or puzzle is done"
    if note == "failed":
        return f"{loser} did not reach the goal: the lesson or puzzle is over"
    return None


def takeback_lines(game: Game) -> dict[int, list[str]]:
    """The game log's lines of the game's settled takeback requests, by the version they
    stand at, in the order they were settled (no query for a game that never had one)."""
    lines: dict[int, list[str]] = {}
    if game.log_epoch == 0:
        return lines
    rows = Takeback.objects.filter(game_id=game.pk).order_by("pk")
    for version, line in rows.values_list("log_version", "line"):
        lines.setdefault(version, []).append(line)
    return lines


def write_lines(engine: Engine, lines: Lines | None) -> None:
    """Write the takebacks' lines that stand where `engine` is (its number of answers)."""
    for line in (lines or {}).get(len(engine.answers), ()):
        engine.state.note(line)


def apply_log(engine: Engine, logged: Iterable[Logged], lines: Lines | None = None) -> None:
    """Apply entries of a game's answer log with the game log's lines the live game wrote: an
    automatic pass explained (pace.py), a time loss or a claimed win (`loss_line`), and after
    each entry the takebacks' lines that stand there (`lines`; those at the starting point
    are the caller's, `write_lines`)."""
    for who, answer, note in logged:
        if note == EXPLAINED:
            why = explain_pass(engine)
            if why is not None:
                engine.state.note(why)
        engine.apply_logged(who, answer, line=loss_line(engine, who, note))
        write_lines(engine, lines)


def replay_game(game: Game) -> Engine:
    """Rebuild the engine from the stored setup and answer log (with the takebacks' lines)."""
    engine = Engine(engine_setup(game))
    lines = takeback_lines(game)
    write_lines(engine, lines)
    apply_log(engine, _logged_answers(game), lines)
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
    logged = _offered_since(game, have)
    if logged is None:
        logged = _logged_answers(game, have)
    try:
        apply_log(engine, logged)
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
    key = key_of(game)
    with _game_lock(key):
        with _cache_lock:
            cached = CACHE.get(key)
        engine = _current(game, cached)
        remember(game, engine)
        yield engine


def engine_for_update(game: Game) -> Engine:
    """The engine to change, taken out of the cache: it goes back only after commit
    (`remember`), or at once when the action is refused without changing it."""
    key = key_of(game)
    with _game_lock(key), _cache_lock:
        engine = CACHE.take(key)
    return _current(game, engine)
