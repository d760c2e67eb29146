"""Where the computer opponent thinks: `think` (pure: the engine and game.ai, no Django) and the
process pool a server runs it in (`think_in_pool`).

Guarantees. `think(job)` returns an answer the engine accepts for the computer's pending
decision: the one `game.ai.decide` gives, checked against the decision by answering it on this
process's copy of the game; should the brain ever give an illegal one, or fail, the smallest
legal answer instead (a pass, no attackers, the fewest picks), logged as an error, so a game
never stalls on it. The copy is cached per process, keyed by game, and caught up from the log
the job carries (only the answers it has not seen); a log that is not a continuation of the
copy (a refused answer, another game under a reused key) replays the game from its setup.

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
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from game.engine.decisions import Decision, IllegalAnswer
from game.engine.game import Engine, GameSetup, replay

log = logging.getLogger(__name__)

CACHE_SIZE = 32  # games a thinking process keeps a copy of


@dataclass(frozen=True)
class Job:
    """One decision of the computer: the game (setup and answer log, so any process can rebuild
    it), whose decision, at which level, and the seed of this decision."""

    key: tuple[int, str]  # (game id, invite code), as the engine cache keys games
    setup: GameSetup
    answers: tuple[tuple[str, Any], ...]
    seat: str
    level: str
    seed: int


_copies: OrderedDict[tuple[int, str], Engine] = OrderedDict()
_copies_lock = threading.Lock()


def _plain(answer: Any) -> Any:
    return list(answer) if isinstance(answer, (list, tuple)) else answer


def _same(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    return a[0] == b[0] and _plain(a[1]) == _plain(b[1])


def _engine_for(job: Job) -> Engine:
    """This process's copy of the game at the job's log, caught up or replayed."""
    with _copies_lock:
        engine = _copies.pop(job.key, None)
    have = len(engine.answers) if engine is not None else 0
    if (
        engine is None
        or have > len(job.answers)
        or not all(_same(x, y) for x, y in zip(engine.answers, job.answers, strict=False))
    ):
        return replay(job.setup, job.answers)
    try:
        for who, answer in job.answers[have:]:
            engine.apply_logged(who, answer)
    except IllegalAnswer:
        return replay(job.setup, job.answers)
    return engine


def _keep(key: tuple[int, str], engine: Engine) -> None:
    with _copies_lock:
        _copies[key] = engine
        _copies.move_to_end(key)
        while len(_copies) > CACHE_SIZE:
            _copies.popitem(last=False)


def smallest_answer(d: Decision) -> str | list[str]:
    """The most modest legal answer: pass, or pick the fewest (none when none is allowed)."""
    ids = [o.id for o in d.options]
    if d.ordered:
        return ids
    if d.multi:
        return ids[: d.min_count]
    return "pass" if "pass" in ids else ids[0]


def think(job: Job) -> str | list[str]:
    """The computer's answer to its pending decision in the game the job describes."""
    from game.ai import decide  # here: a spawned child imports the brain on its first job

    engine = _engine_for(job)
    d = engine.pending
    if d is None or d.player != job.seat:
        raise ValueError(f"game {job.key[0]}: {job.seat} has no decision at {len(job.answers)}")
    try:
        answer = decide(job.level, engine, job.seat, job.seed)
    except Exception:  # a bug in the brain must not stall the game: the modest answer
        log.exception("game %s: the %s computer failed to decide", job.key[0], job.level)
        answer = smallest_answer(d)
    try:
        engine.answer(job.seat, answer)  # the check; the copy then stands one answer ahead
    except IllegalAnswer as e:
        log.error(
            "game %s: the %s computer's answer %r is illegal: %s", job.key[0], job.level, answer, e
        )
        answer = smallest_answer(d)
        engine.answer(job.seat, answer)
    _keep(job.key, engine)
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
