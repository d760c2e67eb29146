"""The puzzles' defender at the table: the computer seat of a puzzle's training game answers
with the checker's best defence (`checker.best_defence`), from a game's setup and answer log.

This is not one of the computer's levels (Easy, Medium, Hard, docs/ai.md), which decide only from
what their seat may see: the defence searches the whole position, both hands and both libraries,
as the checker does when it proves a puzzle. It plays only the defending side of a puzzle, whose
position its author wrote out in full; the solver sees what any player sees (docs/puzzles.md,
"At the table"). Its search is bounded (`DEFENCE_BOUND` positions, or the puzzle's own bound if
smaller): a decision it cannot settle within it gets `None`, and the caller answers as the Hard
computer instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.engine.game import GameSetup

from .checker import BoundReached, Search, best_defence

# Positions one decision of the defender may visit (each a replay from the puzzle's start, well
# under a millisecond for a puzzle's few permanents): a few seconds at most on a busy server.
DEFENCE_BOUND = 4_000


@dataclass(frozen=True)
class Defence:
    """What the defender knows of the puzzle besides the game: its goal, the solver's name in
    the game, how many answers of the log reached the puzzle's position and its turn."""

    goal: str
    solver: str
    start: int
    start_turn: int
    bound: int = DEFENCE_BOUND
    name: str = "the puzzle"


def search_for(setup: GameSetup, answers: Any, defence: Defence) -> Search:
    """The puzzle's tree from the game's position (`answers`: the game's log, or its start)."""
    return Search.resumed(
        setup,
        list(answers)[: defence.start],
        goal=defence.goal,
        solver=defence.solver,
        start_turn=defence.start_turn,
        bound=min(defence.bound, DEFENCE_BOUND),
        path=defence.name,
    )


def defend(setup: GameSetup, answers: Any, seat: str, defence: Defence) -> Any | None:
    """The best defence at `seat`'s pending decision of the game `setup` and `answers` make, or
    None when the search reached its bound first."""
    search = search_for(setup, answers, defence)
    line = [(who, answer) for who, answer in list(answers)[defence.start :]]
    game = search.game(line)
    d = game.pending
    if d is None or d.player != seat:
        raise ValueError(f"{defence.name}: {seat} has no decision at {len(answers)}")
    options = search.answers(game, d)
    if len(options) == 1:
        return options[0]
    try:
        return best_defence(search, line)
    except BoundReached:
        return None
