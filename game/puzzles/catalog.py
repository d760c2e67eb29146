"""The shipped lessons and puzzles: the files of `lessons/` and `data/`, read once per process.

A lesson's slug is its file's stem ("01_venture"), a shipped puzzle's too ("clear_the_way");
the lessons come in the order their `lesson.order` gives (docs/puzzles.md, "Lessons").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from game.scenario.loader import Scenario, parse_scenario

LESSONS_DIR = Path(__file__).parent / "lessons"
PUZZLES_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Lesson:
    slug: str
    text: str  # the file, as a training game stores it
    scenario: Scenario

    @property
    def title(self) -> str:
        assert self.scenario.lesson is not None
        return self.scenario.lesson.title

    @property
    def order(self) -> int:
        assert self.scenario.lesson is not None
        return self.scenario.lesson.order


@functools.cache
def lessons() -> tuple[Lesson, ...]:
    found = []
    for path in sorted(LESSONS_DIR.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        scenario = parse_scenario(text, f"lessons/{path.name}")
        if scenario.lesson is None:
            raise ValueError(f"{path}: a lesson file needs a 'lesson' block")
        found.append(Lesson(path.stem, text, scenario))
    return tuple(sorted(found, key=lambda lesson: (lesson.order, lesson.slug)))


def lesson(slug: str) -> Lesson | None:
    return next((lesson for lesson in lessons() if lesson.slug == slug), None)


def next_lesson(slug: str) -> Lesson | None:
    slugs = [lesson.slug for lesson in lessons()]
    at = slugs.index(slug) if slug in slugs else len(slugs)
    return lessons()[at + 1] if at + 1 < len(slugs) else None


def puzzle_files() -> list[Path]:
    return sorted(PUZZLES_DIR.glob("*.yaml"))
