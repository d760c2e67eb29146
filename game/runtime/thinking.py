"""Where the computer opponent thinks: each process's copies of the games (`think`), and the pool of
child processes a server thinks in (`think_in_pool`). What it thinks is game/ai/'s; who hands
out its turns is game/computer_turns.py's.

Guarantees. `think(job)` returns an answer the engine accepts for the computer's pending
decision: the brain's, checked by answering it on this process's copy of the game, or the
smallest legal answer should the brain fail (`game.ai.checked.answer_checked`). It is pure (the
engine and game/ai, no Django): a spawned child runs it without setting Django up. The copies
are kept in this process's `engine_cache.EngineCache` (the one engine cache a server's services
use too), keyed by game, and caught up from the log the job carries (`engine_cache.caught_up`:
only the answers a copy has not seen; a log that is not a continuation of the copy, a refused
answer or another game under a reused key, replays the game from its setup).

`think_in_pool(job)` runs `think` in one of VENTURE_COMPUTER_PROCESSES child processes (spawned,
not forked: a server is multi-threaded, and a forked child could inherit a lock some thread
held), so a server's event loop and its database thread are never held by a thought: the
interpreter's lock (GIL) of the server is not the child's. A child that dies is replaced (the
job fails once; services' watchdog hands the turn out again); a child whose server died exits.

Private APIs: none. Re-measure: `bench/computer_latency.py` (other games' action latency while
the computer thinks, against the same run without a computer game; docs/performance.md).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.engine.game import GameSetup

from .engine_cache import EngineCache, Key, caught_up

if TYPE_CHECKING:
    from game.puzzles.defence import Defence

CACHE_SIZE = 32  # games a thinking process keeps a copy of
HARD_FALLBACK = "hard"  # who answers for a puzzle's defender where its search reaches its bound

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """One decision of the computer: the game (setup and answer log, so any process can rebuild
    it), whose decision, at which level, and the seed of this decision."""

    key: Key  # (game id, invite code, log epoch), as the engine cache keys games
    setup: GameSetup
    answers: tuple[tuple[str, Any], ...]
    seat: str
    level: str
    seed: int
    # A puzzle's defender (game/puzzles/defence.py) instead of a level: it answers with the
    # checker's best defence, which searches the whole position (not a level: never peeking
    # is the levels' rule, docs/ai.md), and as Hard where its search reaches its bound.
    defence: Defence | None = None


# This process's copies: taken out while thought on (two threads never share one); a finished
# game is never thought on again, so its copy is the first to go.
COPIES = EngineCache(CACHE_SIZE, 1)


def think(job: Job) -> str | list[str]:
    """The computer's answer to its pending decision in the game the job describes."""
    # Imported here: a spawned child imports the brain on its first job.
    from game.ai.checked import answer_checked

    level = job.level
    if job.defence is not None:
        from game.puzzles.defence import defend

        try:
            found = defend(job.setup, job.answers, job.seat, job.defence)
        except Exception:  # the defence must not stall the game: Hard answers instead
            log.exception("game %s: the puzzle's defence failed", job.key[0])
            found = None
        if found is not None:
            return found
        level = HARD_FALLBACK
    engine = caught_up(COPIES.take(job.key), job.setup, job.answers)
    answer = answer_checked(engine, job.seat, level, job.seed, game=f"game {job.key[0]}")
    COPIES.put(job.key, engine)  # the copy now stands one answer ahead of the job's log
    return answer


# the pool ----------------------------------------------------------------------------------------
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _leave_with(parent: int) -> None:
    """A child's start: exit as soon as the server that spawned it is gone. (A child waits
    for work on a pipe it holds both ends of, so its parent's death alone never wakes it: a
    killed server would leave its children behind for good.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="venture-parent-watch", daemon=True).start()


def _executor(processes: int) -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=max(1, processes),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_leave_with,
                initargs=(os.getpid(),),
            )
        return _pool


def think_in_pool(job: Job, processes: int = 1) -> Future:
    """`think(job)` in a child process; a pool broken by a dead child is replaced."""
    global _pool
    try:
        return _executor(processes).submit(think, job)
    except BrokenProcessPool:
        with _pool_lock:
            _pool = None
        return _executor(processes).submit(think, job)


def shutdown() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
