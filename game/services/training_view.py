"""What the table shows of a training game (services/training.py) beside the board and when it
ends: the lesson's or puzzle's words and goal, then its result, a puzzle's published solution,
the line that beat a failed attempt and the ratings the attempt moved, with the way on (try
again, the next lesson or puzzle)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse

from game.engine.state import STEPS
from game.models import Game, Player
from game.puzzles.catalog import next_lesson
from game.scenario.puzzle_spec import PuzzleSpec
from learn.models import PuzzleAttempt, Training

from .puzzle_list import next_puzzle
from .training_state import Info, info_of


@dataclass(frozen=True)
class Rated:
    """A rated attempt's two ratings, before and after (rounded as shown)."""

    player_before: int
    player_after: int
    puzzle_before: int
    puzzle_after: int

    @property
    def player_change(self) -> str:
        return f"{self.player_after - self.player_before:+d}"

    @property
    def puzzle_change(self) -> str:
        return f"{self.puzzle_after - self.puzzle_before:+d}"


@dataclass(frozen=True)
class TrainingView:
    kind: str  # "lesson" or "puzzle"
    title: str
    text: str
    goal_text: str
    state: str  # "playing", "solved", "failed"
    message: str
    is_learner: bool
    give_up_url: str
    again_url: str
    next_url: str | None  # a POST: the next lesson or puzzle starts at once
    next_label: str
    list_url: str
    list_label: str
    solution: tuple[str, ...] = ()  # a puzzle's published solution, once it is over
    line: tuple[str, ...] = ()  # the line that beat a failed puzzle, in the checker's words
    rated: Rated | None = None
    unrated: bool = False  # a later attempt: recorded, not rated

    @property
    def headline(self) -> str:
        if self.kind == Training.LESSON:
            return "Lesson done" if self.state == Training.SOLVED else "Not this time"
        return "Puzzle solved" if self.state == Training.SOLVED else "Puzzle failed"


def training_view(game: Game, viewer: Player | None) -> TrainingView | None:
    """The table's view of a training game for `viewer`; None for any other game."""
    info = info_of(game)
    if info is None:
        return None
    is_learner = viewer is not None and viewer.pk == info.player_id
    base = {
        "kind": info.kind,
        "title": info.title,
        "text": info.text,
        "goal_text": info.goal_text,
        "is_learner": is_learner,
        "give_up_url": reverse("training_give_up", args=[game.code]),
        "again_url": reverse("training_again", args=[game.code]),
    }
    if info.is_puzzle:
        base |= {"list_url": reverse("puzzles"), "list_label": "Puzzles"}
    else:
        base |= {"list_url": reverse("learn"), "list_label": "All lessons"}
    if game.status != Game.FINISHED:
        return TrainingView(
            state=Training.PLAYING, message="", next_url=None, next_label="", **base
        )
    training = Training.objects.get(pk=info.training_id)
    next_url, next_label = _next(info, viewer)
    extra: dict[str, object] = {}
    if info.is_puzzle:
        spec = info.scenario.puzzle
        assert spec is not None
        extra["solution"] = solution_words(spec, info.names)
        extra["line"] = tuple(training.line) if training.state == Training.FAILED else ()
        attempt = PuzzleAttempt.objects.filter(game_id=game.pk).first()
        if attempt is not None and attempt.rated:
            extra["rated"] = Rated(
                round(attempt.player_before or 0),
                round(attempt.player_after or 0),
                round(attempt.puzzle_before or 0),
                round(attempt.puzzle_after or 0),
            )
        elif attempt is not None:
            extra["unrated"] = True
    return TrainingView(
        state=training.state,
        message=training.message or game.end_reason,
        next_url=next_url,
        next_label=next_label,
        **base,
        **extra,
    )


def _next(info: Info, viewer: Player | None) -> tuple[str | None, str]:
    if not info.is_puzzle:
        found = next_lesson(info.slug)
        if found is None:
            return None, ""
        return reverse("lesson_start", args=[found.slug]), "Next lesson"
    puzzle = next_puzzle(viewer, info.slug)
    if puzzle is None:
        return None, ""
    return reverse("puzzle_start", args=[puzzle.slug]), "Next puzzle"


STEP_WORDS = {step: step.replace("_", " ") for step in STEPS}


def solution_words(spec: PuzzleSpec, names: dict[str, str]) -> tuple[str, ...]:
    """The published solution as the learner reads it: each answer's labels, with the file's
    player names as the game names them, and `advance: STEP` as "(pass to STEP)"."""
    out = []
    for step in spec.solution:
        if step.kind == "advance":
            out.append(f"(pass until {STEP_WORDS.get(step.value, step.value)})")
            continue
        labels = step.value if isinstance(step.value, list) else [step.value]
        out.append(", ".join(_named(str(label), names) for label in labels))
    return tuple(out)


def _named(label: str, names: dict[str, str]) -> str:
    if label in names:
        return names[label]
    for file_name, game_name in names.items():
        label = re.sub(rf"(?<=\bto ){re.escape(file_name)}\b", game_name, label)
    return label
