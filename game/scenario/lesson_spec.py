"""The `lesson` block of a scenario file (docs/puzzles.md, "Lessons"): the position is a short
guided game against the computer, with words beside the table and a goal the engine checks.

    lesson:
      order: 1                       # where it comes in the Learn list
      title: Venture into the dungeon
      text: |                        # beside the table, a sentence or two
        Casting Kick in the Door ventures into the dungeon…
      goal: {you: {dungeon: {name: Lost Mine of Phandelver}}}   # `expect` keys, met when true
      goal_text: Enter Lost Mine of Phandelver.
      opponent: passive              # passive (passes, never blocks) or easy, medium, hard
      mistakes:                      # checked after each answer, first match wins
        - when: {you: {dungeon: {name: Tomb of Annihilation}}}
          say: Tomb of Annihilation costs you life. Try again and pick Lost Mine.

The lesson fails when the turn it starts in ends before the goal is met (`turn_limit` more turns
may be allowed), or when a mistake matches; the player is told why and may start again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LESSON_KEYS = {
    "order",
    "title",
    "text",
    "goal",
    "goal_text",
    "opponent",
    "mistakes",
    "turn_limit",
    "done_text",
}
OPPONENTS = ("passive", "easy", "medium", "hard")
MAX_TEXT_CHARS = 2_000
MAX_MISTAKES = 20


@dataclass
class Mistake:
    when: dict[str, Any]
    say: str


@dataclass
class LessonSpec:
    order: int
    title: str
    text: str
    goal: dict[str, Any]
    goal_text: str
    opponent: str = "passive"
    mistakes: list[Mistake] = field(default_factory=list)
    turn_limit: int = 0  # turns after the first that may pass before the goal is met
    done_text: str = ""


def parse_lesson(
    raw: Any,
    players: list[str],
    err: Callable[[Any, Any, str], Exception],
    check_expect: Callable[[Any], None],
) -> LessonSpec:
    """The block, checked; `check_expect(block)` checks an `expect`-style mapping."""
    if not isinstance(raw, dict):
        raise err(raw, None, "'lesson' must be a mapping with title, text and goal")
    for key in raw:
        if key not in LESSON_KEYS:
            known = ", ".join(sorted(LESSON_KEYS))
            raise err(raw, key, f"unknown lesson key {key!r}; known: {known}")
    for key in ("title", "text", "goal_text", "done_text"):
        value = raw.get(key, "")
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
            raise err(raw, key, f"lesson.{key} must be text of at most {MAX_TEXT_CHARS} characters")
    if not raw.get("title") or not raw.get("goal_text"):
        raise err(raw, None, "a lesson needs a title and a goal_text")
    order = raw.get("order", 0)
    turn_limit = raw.get("turn_limit", 0)
    for key, value in (("order", order), ("turn_limit", turn_limit)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
            raise err(raw, key, f"lesson.{key} must be a whole number from 0 to 99")
    opponent = raw.get("opponent", "passive")
    if opponent not in OPPONENTS:
        raise err(raw, "opponent", f"lesson.opponent must be one of: {', '.join(OPPONENTS)}")
    goal = raw.get("goal")
    if not isinstance(goal, dict) or not goal:
        raise err(raw, "goal", "lesson.goal is a mapping of `expect` keys that must come true")
    check_expect(goal)
    mistakes_raw = raw.get("mistakes", [])
    if not isinstance(mistakes_raw, list) or len(mistakes_raw) > MAX_MISTAKES:
        raise err(raw, "mistakes", f"lesson.mistakes is a list of at most {MAX_MISTAKES}")
    mistakes = []
    for i, m in enumerate(mistakes_raw):
        if not isinstance(m, dict) or set(m) != {"when", "say"} or not isinstance(m["say"], str):
            raise err(mistakes_raw, i, "a mistake is {when: {expect keys}, say: text}")
        check_expect(m["when"])
        mistakes.append(Mistake(dict(m["when"]), m["say"]))
    return LessonSpec(
        order,
        raw["title"],
        raw.get("text", ""),
        dict(goal),
        raw["goal_text"],
        opponent,
        mistakes,
        turn_limit,
        raw.get("done_text", ""),
    )
