"""Snapshots of a running game, so a replay can go back without replaying from the start.

An `Engine` runs the rules as one generator, which cannot be copied; its state can. A snapshot
is a copy of the state taken where a fresh generator started from that state behaves exactly as
the running one would: the active player has just received priority at the start of a step, with
an empty stack and nothing waiting (`resumable`). That is the place a scenario position starts
from too (CR 117.3a), so `Engine.resumed` continues it the same way a position is loaded, minus
the step's beginning, which already happened. tests/engine/test_snapshots.py resumes random games
from every such point and checks that the rest of their answers lead to the same game.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import CARDS, TOKENS

if TYPE_CHECKING:
    from .game import Engine
    from .state import GameState

# Steps a game can resume in. Not the combat steps (their start declares attackers and blockers
# and deals damage, and a first-strike damage step gives priority in the middle of one), nor
# untap and cleanup (no priority at their start, CR 502.4, 514.3).
RESUMABLE_STEPS = frozenset(
    {"upkeep", "draw", "precombat_main", "beginning_of_combat", "postcombat_main", "end"}
)


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int  # answers given before it
    state: GameState


def resumable(engine: Engine, step_serial_before: int) -> bool:
    """Whether a snapshot may be taken now: the first decision of a step (the step's serial
    changed since the previous answer) is the active player's priority, nothing is on the stack
    or waiting, and nobody has passed yet in this step."""
    g = engine.state
    d = engine.pending
    return (
        d is not None
        and d.kind == "priority"
        and d.player == g.active
        and g.step in RESUMABLE_STEPS
        and g.step_serial != step_serial_before
        and not g.stack
        and not g.pending_triggers
        and not g.over
    )


def take(engine: Engine) -> Snapshot:
    """A copy of the game's state (card and dungeon definitions shared, not copied)."""
    return Snapshot(len(engine.answers), copy.deepcopy(engine.state, _shared(engine.state)))


def restore(snapshot: Snapshot) -> GameState:
    """A fresh copy of the snapshot's state to run on (the snapshot stays as it was)."""
    return copy.deepcopy(snapshot.state, _shared(snapshot.state))


def _shared(g: GameState) -> dict[int, Any]:
    """deepcopy's memo, seeded with what never changes during a game: the card definitions and
    the dungeons (shared by identity, as the engine compares them so)."""
    memo = dict(_card_memo())
    for spec in g.dungeons.values():
        memo[id(spec)] = spec
    return memo


@functools.cache
def _card_memo() -> dict[int, Any]:
    memo: dict[int, Any] = {}
    for card in [*CARDS.values(), *TOKENS.values()]:
        memo[id(card)] = card
        if card.adventure is not None:
            memo[id(card.adventure)] = card.adventure
    return memo
