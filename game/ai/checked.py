"""The computer's answer as it is given: the brain's (`decide`), checked by answering it, so a game
never stalls on the brain.

`answer_checked` answers `seat`'s pending decision on the engine it is given (a thinking
process's own copy of the game, which then stands one answer ahead) with what `decide` returns;
should the brain ever give an illegal answer, or fail, it answers the safe legal one instead
(`answers.safe_answer`: a pass, no attackers, the fewest picks the decision's check accepts) and
logs the error. Unlike `decide`, it changes the engine: give it a copy.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from game.engine.decisions import IllegalAnswer

from . import decide
from .answers import safe_answer

if TYPE_CHECKING:
    from game.engine.game import Engine

log = logging.getLogger(__name__)


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
        answer = safe_answer(d)
    try:
        engine.answer(seat, answer)
    except IllegalAnswer as e:
        log.error("%s: the %s computer's answer %r is illegal: %s", game, level, answer, e)
        answer = safe_answer(d)
        engine.answer(seat, answer)
    return answer
