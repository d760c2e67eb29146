"""Puzzles from real games (docs/puzzles.md, "Puzzles from games"): staff turn a point of a
finished game's replay into an unpublished puzzle, write its solution in the admin, and publish
it once the checker proves it sound.

The check in the admin is bounded (`ADMIN_BOUND` positions, fewer than the command line's
default) so that saving never hangs a request: a search that reaches the bound says
"unproven", and an unproven puzzle is not published (`manage.py puzzle check` with a larger
`--bound` settles it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml
from django.db import transaction

from game.models import Game, Player
from game.puzzles.checker import PuzzleError, check
from game.scenario.loader import Scenario, ScenarioError, parse_scenario
from game.scenario.puzzle_spec import GOALS
from learn.models import Puzzle

from .errors import ActionRefused
from .replays import point, scenario_at, timeline

ADMIN_BOUND = 3_000
GOAL_TEXT = {"win": "Win this turn.", "survive": "Survive this turn."}


def draft_from_replay(game_id: int, player: Player | None, at: Any, goal: str) -> Puzzle:
    """An unpublished puzzle from point `at` of a finished game (the position file of that
    point, docs/scenarios.md), with `goal` (win or survive) and no solution yet. Staff only; a
    point already drafted gives its draft again."""
    if player is None or not player.user.is_staff:
        raise ActionRefused("Only staff make puzzles from games.", "forbidden")
    if goal not in GOALS:
        raise ActionRefused(f"The goal is one of: {', '.join(GOALS)}.", "bad_input")
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ActionRefused("There is no such game.", "no_game")
    tl = timeline(game, player)
    k = point(tl, at)
    slug = f"game-{game.code}-{k}".lower()
    with transaction.atomic():
        found = Puzzle.objects.filter(slug=slug).first()
        if found is not None:
            return found
        position = scenario_at(game, tl, k)  # refused where a file cannot start
        title = parse_scenario(position, f"{slug}.yaml").name[:200]
        block = yaml.safe_dump(
            {"puzzle": {"goal": goal, "text": GOAL_TEXT[goal], "themes": []}},
            sort_keys=False,
            allow_unicode=True,
        )
        text = (
            position.rstrip()
            + "\n"
            + block
            + "  # the solver's answers, in the order the game asks them (docs/puzzles.md)\n"
            + "  solution: []\n"
        )
        return Puzzle.objects.create(
            slug=slug,
            title=title,
            text=text,
            goal=goal,
            source=Puzzle.GAME,
            source_game=game,
            source_at=k,
            published=False,
        )


@dataclass(frozen=True)
class Verdict:
    verdict: str  # Puzzle.SOUND, UNSOUND, UNPROVEN or INVALID
    text: str
    scenario: Scenario | None = None

    @property
    def sound(self) -> bool:
        return self.verdict == Puzzle.SOUND


def check_text(text: str, name: str = "puzzle.yaml", *, bound: int = ADMIN_BOUND) -> Verdict:
    """The checker's verdict on a puzzle file, bounded: invalid (why), sound, unsound (the
    defence that beats the solution, in the checker's words) or unproven (the bound reached)."""
    try:
        scenario = parse_scenario(text, name)
    except ScenarioError as e:
        return Verdict(Puzzle.INVALID, str(e))
    spec = scenario.puzzle
    if spec is None:
        return Verdict(Puzzle.INVALID, "The file has no 'puzzle' block.", scenario)
    most = min(bound, spec.bound)
    try:
        report = check(scenario, bound=most, others=False)
    except (PuzzleError, ScenarioError) as e:
        return Verdict(Puzzle.INVALID, str(e), scenario)
    if report.sound:
        return Verdict(
            Puzzle.SOUND,
            f"Sound: the solution wins against every defence ({report.positions:,} positions).",
            scenario,
        )
    if report.bound_reached:
        return Verdict(
            Puzzle.UNPROVEN,
            f"Unproven: the check reached its bound of {most:,} positions here before it "
            "ended; prove it with `manage.py puzzle check FILE --bound N`.",
            scenario,
        )
    lines = [f"Unsound: the solution loses ({report.problem}) after:"]
    lines += [f"  {w}" for w in report.refutation]
    if report.winnable is not None:
        lines.append(
            "The puzzle can be won another way."
            if report.winnable
            else "The puzzle cannot be won at all."
        )
    return Verdict(Puzzle.UNSOUND, "\n".join(lines), scenario)
