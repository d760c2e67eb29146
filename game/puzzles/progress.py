"""Where a lesson or a puzzle being played stands: still going, done, or failed and why
(docs/puzzles.md). The web layer asks after each answer; the engine's state is the judge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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


def lesson_status(
    scenario: Scenario, game: Engine, start_turn: int, names: dict[str, str] | None = None
) -> Status:
    """The lesson's goal met; else the first mistake that matches; else failed when the game is
    over or the turns it allows have passed; else still going. `names` maps the file's players
    to the game's, when the game names them otherwise (a training game: the players' names)."""
    spec = scenario.lesson
    assert spec is not None
    names = names or {}
    players = [names.get(p, p) for p in scenario.players]
    if not compare(game, renamed(spec.goal, names), players):
        return Status(SOLVED, spec.done_text or f"Done: {spec.goal_text}")
    for mistake in spec.mistakes:
        if not compare(game, renamed(mistake.when, names), players):
            return Status(FAILED, mistake.say)
    if game.over:
        return Status(FAILED, f"The game ended before the goal: {spec.goal_text}")
    if game.state.turn > start_turn + spec.turn_limit:
        return Status(FAILED, f"The turn ended before the goal: {spec.goal_text}")
    return Status(PLAYING)


def renamed(expect: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """`expect` keys with the file's player names replaced by the game's (`names`): a player's
    own keys, the winner, the active player."""
    if not names:
        return expect
    out: dict[str, Any] = {}
    for key, want in expect.items():
        if key in names:
            out[names[key]] = want
        elif key == "winner" and isinstance(want, str):
            out[key] = names.get(want, want)
        elif key == "turn" and isinstance(want, dict) and "active" in want:
            out[key] = {**want, "active": names.get(want["active"], want["active"])}
        else:
            out[key] = want
    return out


def puzzle_status(search: Search, game: Engine) -> Status:
    """Solved or failed once the puzzle's goal is decided (docs/puzzles.md, "Goals")."""
    done = search.outcome(game)
    if done is None:
        return Status(PLAYING)
    if done:
        return Status(SOLVED, "Solved!")
    why = search._why_not(game)
    return Status(FAILED, why[:1].upper() + why[1:] + ".")
