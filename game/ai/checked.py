"""The computer's answer as it is given: the brain's (`decide`), checked by answering it, so a game
never stalls on the brain.

`answer_checked` answers `seat`'s pending decision on the engine it is given (a thinking
process's own copy of the game, which then stands one answer ahead) with what `decide` returns;
should the brain ever give an illegal answer, or fail, it answers the smallest legal one
instead (a pass, no attackers, the fewest picks) and logs the error. Unlike `decide`, it
changes the engine: give it a copy.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from game.engine.decisions import Decision, IllegalAnswer

from . import decide

if TYPE_CHECKING:
    from game.engine.game import Engine

log = logging.getLogger(__name__)


def smallest_answer(d: Decision) -> str | list[str]:
    """The most modest legal answer: pass, or pick the fewest (none when none is allowed)."""
    ids = [o.id for o in d.options]
    if d.ordered:
        return ids
    if d.multi:
        return ids[: d.min_count]
    return "pass" if "pass" in ids else ids[0]


def answer_checked(
    engine: Engine, seat: str, level: str, seed: int, *, game: str = "the game"
) -> str | list[str]:
    """Answer `seat`'s pending decision on `engine` at `level` (the decision's `seed`), and
    return the answer given. `game` names the game in the log."""
    d = engine.pending
    if d is None or d.player != seat:
        raise ValueError(f"{game}: {seat} has no decision at {len(engine.answers)}")
    try:
        answer = decide(level, engine, seat, seed)
    except Exception:  # a bug in the brain must not stall the game: the modest answer
        log.exception("%s: the %s computer failed to decide", game, level)
        answer = smallest_answer(d)
    try:
        engine.answer(seat, answer)
    except IllegalAnswer as e:
        log.error("%s: the %s computer's answer %r is illegal: %s", game, level, answer, e)
        answer = smallest_answer(d)
        engine.answer(seat, answer)
    return answer
