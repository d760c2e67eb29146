"""The pace feature: the automatic answers given for a seat that chose not to be asked.

A seat passes priority where it has nothing to decide (engine/stops.py, from public information
only), or until its next turn, or until something happens, as it chose (`set_pace`). Its
automatic answers are logged like any other answer, so a replay is the same game.
"""

from __future__ import annotations

import logging

from game.engine.game import Engine
from game.engine.stops import stops_at
from game.models import Seat

log = logging.getLogger(__name__)

MAX_AUTO_ANSWERS = 20000  # a game where nobody can act still ends (empty libraries) well before


def auto_answer(engine: Engine, seat: Seat) -> str | list[str] | None:
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


def run_pace(engine: Engine, seats_by_name: dict[str, Seat]) -> None:
    """Answer for whoever must decide, as their pace says, until someone is to be asked."""
    for _ in range(MAX_AUTO_ANSWERS):
        d = engine.pending
        if d is None:
            return
        answer = auto_answer(engine, seats_by_name[d.player])
        if answer is None:
            return
        engine.answer(d.player, answer)
    log.warning("pace: stopped after %d automatic answers", MAX_AUTO_ANSWERS)
