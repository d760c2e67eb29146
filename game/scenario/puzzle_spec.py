"""The `puzzle` block of a scenario file (docs/puzzles.md): the position the file sets up (and its
script plays to) is a puzzle, its goal, who solves it and the published solution.

    puzzle:
      goal: win                 # win: the solver wins before this turn ends
                                # survive: the solver is still in the game when the next turn starts
      solver: alice             # default: the active player for `win`, the other for `survive`
      text: Win this turn.      # what the solver reads beside the table
      solution:                 # the solver's answers, in the order the game asks them
        - cast Magic Missile
        - [bob]
        - advance: declare_attackers
        - [Goblin]
      bound: 20000              # optional: the most positions the checker may visit
      rating: 1500              # optional: the puzzle's starting rating

A solution entry is an answer (a label or a list, as a script's `PLAYER: …` without the player)
or `advance: STEP` (pass until the game enters STEP). At the solver's priority the next answer is
played when it is an option, otherwise the solver passes; a decision with a single possible answer
that the next entry does not name is answered for the solver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.engine.state import STEPS

GOALS = ("win", "survive")
PUZZLE_KEYS = {"goal", "solver", "text", "solution", "bound", "rating", "hint", "themes"}
DEFAULT_BOUND = 20_000
MAX_BOUND = 200_000
MAX_SOLUTION_STEPS = 60
MAX_TEXT_CHARS = 1_000


@dataclass
class SolutionStep:
    line: int
    kind: str  # "answer" or "advance"
    value: Any


@dataclass
class PuzzleSpec:
    goal: str
    solver: str
    text: str
    solution: list[SolutionStep] = field(default_factory=list)
    bound: int = DEFAULT_BOUND
    rating: int = 1500
    hint: str = ""
    themes: list[str] = field(default_factory=list)


def parse_puzzle(
    raw: Any,
    players: list[str],
    active: str,
    err: Callable[[Any, Any, str], Exception],
    line_of: Callable[..., int],
) -> PuzzleSpec:
    """The block, checked; `err(container, key, message)` makes the error that names the line."""
    if not isinstance(raw, dict):
        raise err(raw, None, "'puzzle' must be a mapping with goal, text and solution")
    for key in raw:
        if key not in PUZZLE_KEYS:
            raise err(
                raw, key, f"unknown puzzle key {key!r}; known: {', '.join(sorted(PUZZLE_KEYS))}"
            )
    goal = raw.get("goal", "win")
    if goal not in GOALS:
        raise err(raw, "goal", f"puzzle.goal must be one of: {', '.join(GOALS)}")
    other = next(p for p in players if p != active)
    solver = raw.get("solver", active if goal == "win" else other)
    if solver not in players:
        raise err(raw, "solver", f"puzzle.solver must be one of {', '.join(players)}")
    text = raw.get("text", "")
    hint = raw.get("hint", "")
    for key, value in (("text", text), ("hint", hint)):
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
            raise err(raw, key, f"puzzle.{key} must be text of at most {MAX_TEXT_CHARS} characters")
    bound = raw.get("bound", DEFAULT_BOUND)
    if isinstance(bound, bool) or not isinstance(bound, int) or not 1 <= bound <= MAX_BOUND:
        raise err(raw, "bound", f"puzzle.bound must be a whole number from 1 to {MAX_BOUND:,}")
    rating = raw.get("rating", 1500)
    if isinstance(rating, bool) or not isinstance(rating, int) or not 100 <= rating <= 4000:
        raise err(raw, "rating", "puzzle.rating must be a whole number from 100 to 4000")
    themes = raw.get("themes", [])
    if not isinstance(themes, list) or not all(isinstance(t, str) for t in themes):
        raise err(raw, "themes", "puzzle.themes must be a list of words")
    solution_raw = raw.get("solution")
    if not isinstance(solution_raw, list) or not solution_raw:
        raise err(raw, "solution", "puzzle.solution must be a list of the solver's answers")
    if len(solution_raw) > MAX_SOLUTION_STEPS:
        raise err(raw, "solution", f"puzzle.solution has at most {MAX_SOLUTION_STEPS} steps")
    solution = []
    for i, entry in enumerate(solution_raw):
        line = line_of(solution_raw, i)
        if isinstance(entry, dict):
            if list(entry) != ["advance"] or entry["advance"] not in STEPS:
                raise err(
                    solution_raw,
                    i,
                    "a solution step is an answer or 'advance: STEP' (" + ", ".join(STEPS) + ")",
                )
            solution.append(SolutionStep(line, "advance", entry["advance"]))
        elif isinstance(entry, list) and all(isinstance(v, (str, int)) for v in entry):
            solution.append(SolutionStep(line, "answer", [str(v) for v in entry]))
        elif isinstance(entry, (str, int)) and not isinstance(entry, bool):
            solution.append(SolutionStep(line, "answer", str(entry)))
        else:
            raise err(
                solution_raw,
                i,
                "a solution step is an option label, a list of labels or 'advance: STEP'",
            )
    return PuzzleSpec(goal, solver, text, solution, bound, rating, hint, list(themes))
