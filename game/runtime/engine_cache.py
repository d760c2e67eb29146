"""A process's live engines, kept between uses so that an answer costs one engine step, not a
replay of the game: the one engine cache both a server (game/services/engines.py, caught up from
the database's log) and a thinking process (thinking.py, caught up from the log its job carries)
use.

Guarantees. `EngineCache` keeps at most `size` games in progress and `finished_size` finished
ones, each dropped least recently used first (`lru.LRU`): a finished game's page may linger on
the game-over screen, but it never crowds out a game in progress. Reading (`get`) does not make
a game more recently used; keeping (`put`, after each answer) does. It is a memo, not a lock:
its callers say who may use a cached engine meanwhile.

`caught_up(engine, setup, answers)` is the game after exactly `answers`, made from `engine` (a
kept copy, or None) when that copy's log is the beginning of `answers` (only the answers it has
not seen are applied), and replayed from `setup` otherwise: no copy, a copy ahead of the log,
or one whose log is not a beginning of it (an answer refused after all, another game under a
reused key).

Private APIs: none (the engine's own `apply_logged` and `replay`, `lru.LRU`).

Re-measure: `bench/latency.py --scale` (`ratio_late_early_p99`: an action's cost does not grow
with the game's length; `replay_1000_ms`, the price of a miss) against a copy whose cache keeps
nothing (size 1); docs/performance.md has the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine, GameSetup, replay

from .lru import LRU

# (pk, code, log epoch): a primary key alone could in principle be reused after a delete, and a
# settled takeback rewrites the game's log (models.Game.log_epoch), its version going back.
Key = tuple[int, str, int]

CACHE_SIZE = 256  # a server's games in progress
FINISHED_CACHE_SIZE = 16


class EngineCache:
    """A process's engines: games in progress, and the few finished ones still looked at."""

    def __init__(self, size: int = CACHE_SIZE, finished_size: int = FINISHED_CACHE_SIZE) -> None:
        self.in_progress: LRU[Key, Engine] = LRU(size)
        self.finished: LRU[Key, Engine] = LRU(finished_size)

    def get(self, key: Key) -> Engine | None:
        engine = self.in_progress.peek(key)
        return engine if engine is not None else self.finished.peek(key)

    def take(self, key: Key) -> Engine | None:
        engine = self.in_progress.pop(key, None)
        return engine if engine is not None else self.finished.pop(key, None)

    def put(self, key: Key, engine: Engine) -> None:
        if engine.over:
            self.in_progress.pop(key, None)
            self.finished.put(key, engine)
        else:
            self.in_progress.put(key, engine)

    def clear(self) -> None:
        self.in_progress.clear()
        self.finished.clear()


def _plain(answer: Any) -> Any:
    return list(answer) if isinstance(answer, (list, tuple)) else answer


def _same(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    return a[0] == b[0] and _plain(a[1]) == _plain(b[1])


def caught_up(
    engine: Engine | None, setup: GameSetup, answers: Sequence[tuple[str, Any]]
) -> Engine:
    """The game of `setup` after `answers`: `engine` caught up when its log begins `answers`,
    else a replay."""
    have = len(engine.answers) if engine is not None else 0
    if (
        engine is None
        or have > len(answers)
        or not all(_same(x, y) for x, y in zip(engine.answers, answers, strict=False))
    ):
        return replay(setup, answers)
    try:
        for who, answer in answers[have:]:
            engine.apply_logged(who, answer)
    except IllegalAnswer:
        return replay(setup, answers)
    return engine
