"""Where a lesson or a puzzle being played stands: still going, done, or failed and why
(docs/puzzles.md). The web layer asks after each answer; the engine's state is the judge."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.game import Engine
from game.scenario.loader import Scenario
from game.scenario.runner import compare

from .checker import Search

PLAYING, SOLVED, FAILED = "playing", "solved", "failed"


@dataclass
class Status:
    state: str
    message: str = ""
    line: list[str] = field(default_factory=list)  # a line of play that explains a failure


def lesson_status(scenario: Scenario, game: Engine, start_turn: int) -> Status:
    """The lesson's goal met; else the first mistake that matches; else failed when the game is
    over or the turns it allows have passed; else still going."""
    spec = scenario.lesson
    assert spec is not None
    if not compare(game, spec.goal, scenario.players):
        return Status(SOLVED, spec.done_text or f"Done: {spec.goal_text}")
    for mistake in spec.mistakes:
        if not compare(game, mistake.when, scenario.players):
            return Status(FAILED, mistake.say)
    if game.over:
        return Status(FAILED, f"The game ended before the goal: {spec.goal_text}")
    if game.state.turn > start_turn + spec.turn_limit:
        return Status(FAILED, f"The turn ended before the goal: {spec.goal_text}")
    return Status(PLAYING)


def puzzle_status(search: Search, game: Engine) -> Status:
    """Solved or failed once the puzzle's goal is decided (docs/puzzles.md, "Goals")."""
    done = search.outcome(game)
    if done is None:
        return Status(PLAYING)
    if done:
        return Status(SOLVED, "Solved!")
    return Status(FAILED, search._why_not(game).capitalize() + ".")
