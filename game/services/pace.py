"""The pace feature: the automatic answers given for a seat that chose not to be asked.

A seat passes priority where it is not stopped (engine/stops.py: from public information and the
player's own stop settings only), or until its next turn, or until something happens, as it chose
(`set_pace`). Its automatic answers are logged like any other answer, so a replay is the same
game. A stop point passed because the player could do nothing there is explained in the game's
log; its answer row is marked `EXPLAINED` so that a replay writes the same line (engines.py).
A decision with one possible answer whose options are public (engine/forced.py) is answered for
a person too, unless they asked to be asked anyway (`ASK_FORCED`, with their stops, or full
control), and explained the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from game.engine.forced import forced_answer, forced_note
from game.engine.game import Engine
from game.engine.kinds import DECLARE_ATTACKERS, PRIORITY
from game.engine.stops import (
    ALL_STOP_KEYS,
    ASK_FORCED,
    COMPUTER_STOPS,
    destination,
    has_means,
    passed_because,
    stops_at,
    stops_from,
)
from game.models import Player, Seat

log = logging.getLogger(__name__)

MAX_AUTO_ANSWERS = 20000  # a game where nobody can act still ends (empty libraries) well before
EXPLAINED = "explained"  # GameAction.note of an automatic pass the log explains


def stops_of(seat: Seat) -> frozenset[str]:
    """The steps where the seat's player is stopped (their stored settings, or the defaults;
    the computer's own set)."""
    if seat.player.is_computer:
        return COMPUTER_STOPS
    return stops_from(seat.player.stops)


def pass_destination(engine: Engine, seat: Seat) -> str:
    """The pass button's words for `seat` holding priority: "Resolve Varis's ability",
    "To combat", "To end of turn"… (engine/stops.py, from public information and the seat's own
    settings)."""
    return destination(engine.state, seat.engine_name, stops_of(seat), seat.full_control)


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
        elif d.kind == PRIORITY:
            return "pass"
        elif d.kind == DECLARE_ATTACKERS and d.multi and d.min_count == 0:
            return []  # "pass the turn" includes not attacking
        else:
            return None  # other choices (blocks, targets…) are still asked; passing goes on after
    elif seat.pass_until == Seat.PASS_SOMETHING:
        stack_now = [s.id for s in g.stack]
        if d.kind != PRIORITY or my_new_turn or set(stack_now) - set(seat.pass_stack):
            seat.pass_until = Seat.PASS_NONE
        else:
            seat.pass_stack = stack_now
            return "pass"
    if seat.player.computer_level == Player.DEFENDER and d.kind == PRIORITY:
        # A puzzle's defender (services/training.py) is asked at every priority where it has
        # the means to act, as the checker tries its answers there; from public information.
        return None if has_means(g, d) else "pass"
    if not seat.full_control and not stops_at(g, d, stops_of(seat)):
        return "pass"  # from public information only, never from the hand (engine/stops.py)
    return None


def forced_for(engine: Engine, seat: Seat) -> str | list[str] | None:
    """The one possible answer given for a person at the pending decision (engine/forced.py),
    or None to ask: the computer answers for itself; a player may ask to be asked anyway."""
    d = engine.pending
    assert d is not None
    if seat.player.is_computer or seat.full_control or ASK_FORCED in stops_of(seat):
        return None
    return forced_answer(d)


def explain_pass(engine: Engine) -> str | None:
    """The log's sentence for an automatic pass at a stop point the player could do nothing at,
    or for a forced answer given for them (the same words live and in a replay: they do not
    depend on the player's settings)."""
    d = engine.pending
    if d is None:
        return None
    if d.kind != PRIORITY:
        answer = forced_answer(d)
        return None if answer is None else forced_note(d, answer)
    return passed_because(engine.state, d, ALL_STOP_KEYS)


def run_pace(
    engine: Engine,
    seats_by_name: dict[str, Seat],
    stop: Callable[[Engine], bool] | None = None,
) -> set[int]:
    """Answer for whoever must decide, as their pace says, until someone is to be asked (or
    `stop(engine)` says so: a training game's lesson or puzzle decided, training_state.py).
    Returns the indices (in the answer log) of the automatic answers the log explains."""
    explained: set[int] = set()
    for _ in range(MAX_AUTO_ANSWERS):
        d = engine.pending
        if d is None or (stop is not None and stop(engine)):
            return explained
        seat = seats_by_name[d.player]
        answer = auto_answer(engine, seat)
        if answer is None:
            answer = forced_for(engine, seat)
            if answer is None:
                return explained
            engine.state.note(forced_note(d, answer))
            explained.add(len(engine.answers))
        elif answer == "pass" and not seat.pass_until and not seat.player.is_computer:
            # Said for a person, who may wonder why they were not asked; the computer's passes
            # said so were one line in six of a game's log (a playtest).
            why = passed_because(engine.state, d, stops_of(seat))
            if why is not None:
                engine.state.note(why)
                explained.add(len(engine.answers))
        engine.answer(d.player, answer)
    log.warning("pace: stopped after %d automatic answers", MAX_AUTO_ANSWERS)
    return explained
