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
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from .cards import CARDS, TOKENS
from .kinds import PRIORITY
from .state import GameState, Obj

if TYPE_CHECKING:
    from .game import Engine

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
        and d.kind == PRIORITY
        and d.player == g.active
        and g.step in RESUMABLE_STEPS
        and g.step_serial != step_serial_before
        and not g.stack
        and not g.pending_triggers
        and not g.over
    )


def take(engine: Engine) -> Snapshot:
    """A copy of the game's state (card and dungeon definitions shared, not copied)."""
    return Snapshot(len(engine.answers), copy_state(engine.state))


def restore(snapshot: Snapshot) -> GameState:
    """A fresh copy of the snapshot's state to run on (the snapshot stays as it was)."""
    return copy_state(snapshot.state)


_OBJ_FIELDS = tuple(f.name for f in fields(Obj))
_DONE = {"players", "by_name", "battlefield", "rng", "log", "triggered_once", "loyalty_used"}
_DONE |= {"chars_memo", "sources_memo", "dungeons"}


def copy_state(g: GameState) -> GameState:
    """A deep copy of `g`, made the quick way where its shape is known: objects field by field
    (their two dicts copied), the zones as lists of copies, the log and the sets copied; what
    is left (the stack, waiting triggers, effects, combat, any other attribute) goes through
    `copy.deepcopy` with every object already copied in its memo, so a reference to an object
    from anywhere is a reference to its copy. Card and dungeon definitions are shared: they
    never change during a game. (A plain deepcopy of a mid-game state takes several times as
    long; a replay takes a snapshot every few dozen answers.)"""
    memo = dict(_card_memo())
    for spec in g.dungeons.values():
        memo[id(spec)] = spec

    def obj(o: Obj) -> Obj:
        found = memo.get(id(o))
        if found is None:
            found = object.__new__(Obj)
            for name in _OBJ_FIELDS:
                setattr(found, name, getattr(o, name))
            found.counters = dict(o.counters)
            found.goaded_by = dict(o.goaded_by)
            memo[id(o)] = found
        return found

    new = copy.copy(g)
    new.players = []
    for p in g.players:
        q = copy.copy(p)
        q.library = [obj(o) for o in p.library]
        q.hand = [obj(o) for o in p.hand]
        q.graveyard = [obj(o) for o in p.graveyard]
        q.exile = [obj(o) for o in p.exile]
        q.pool = dict(p.pool)
        q.completed = list(p.completed)
        q.emblems = list(p.emblems)
        q.dungeon = copy.copy(p.dungeon)
        memo[id(p)] = q
        new.players.append(q)
    new.by_name = {q.name: q for q in new.players}
    new.battlefield = [obj(o) for o in g.battlefield]
    new.rng = copy.deepcopy(g.rng)
    new.log = list(g.log)
    new.triggered_once = set(g.triggered_once)
    new.loyalty_used = set(g.loyalty_used)
    new.chars_memo = None
    new.sources_memo = None
    for name, value in vars(g).items():
        if name not in _DONE:
            setattr(new, name, copy.deepcopy(value, memo))
    return new


@functools.cache
def _card_memo() -> dict[int, Any]:
    memo: dict[int, Any] = {}
    for card in [*CARDS.values(), *TOKENS.values()]:
        memo[id(card)] = card
        if card.adventure is not None:
            memo[id(card.adventure)] = card.adventure
    return memo
