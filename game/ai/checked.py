"""The computer's answer as it is given: the brain's (`decide`), checked by answering it, so a game
never stalls on the brain.

`answer_checked` answers `seat`'s pending decision on the engine it is given (a thinking
process's own copy of the game, which then stands one answer ahead) with what `decide` returns;
should the brain ever give an illegal answer, or fail, it answers the safe legal one instead
(`answers.safe_answer`: a pass, no attackers, the fewest picks the decision's check accepts) and
logs the error. Unlike `decide`, it changes the engine: give it a copy.

A person waits for the answer, so the server's Hard thinks for at most `THINK_SECONDS` of wall
clock and then answers with the best it has found (`decide`'s deadline): on a busy machine it
finds less, rather than keeping the player waiting. A retried job may then answer differently;
`think_seconds=None` gives the answer that depends on the position and seed alone.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from game.engine.decisions import IllegalAnswer

from . import decide
from .answers import safe_answer

if TYPE_CHECKING:
    from game.engine.game import Engine

log = logging.getLogger(__name__)

# Hard's search stops this long after the decision reached the computer; finishing the sampled
# game under way, a decision takes a little longer (docs/ai.md, "The figures").
THINK_SECONDS = 0.75


def answer_checked(
    engine: Engine,
    seat: str,
    level: str,
    seed: int,
    *,
    game: str = "the game",
    think_seconds: float | None = THINK_SECONDS,
) -> str | list[str]:
    """Answer `seat`'s pending decision on `engine` at `level` (the decision's `seed`), and
    return the answer given. `game` names the game in the log."""
    deadline = None if think_seconds is None else time.monotonic() + think_seconds
    d = engine.pending
    if d is None or d.player != seat:
        raise ValueError(f"{game}: {seat} has no decision at {len(engine.answers)}")
    try:
        answer = decide(level, engine, seat, seed, deadline=deadline)
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
