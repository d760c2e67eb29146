"""`{% learn_profile player %}`: a profile's lessons done, puzzle rating and last puzzle
attempts (templates/learn/_profile.html), so the profile page shows them without its view
knowing of the learn app."""

from __future__ import annotations

from typing import Any

from django import template

from game.models import Player
from game.puzzles.catalog import lessons

from ..models import PuzzleAttempt, PuzzleRating

register = template.Library()

HISTORY = 10  # attempts listed


@register.inclusion_tag("learn/_profile.html")
def learn_profile(player: Player) -> dict[str, Any]:
    done = set(player.lessons_done.values_list("lesson", flat=True))
    rating = PuzzleRating.objects.filter(player=player).first()
    attempts = list(PuzzleAttempt.objects.filter(player=player).select_related("puzzle")[:HISTORY])
    for a in attempts:
        change = a.player_change
        a.change_text = f"{round(change):+d}" if change is not None else ""
    return {
        "profile": player,
        "lessons": [(lesson, lesson.slug in done) for lesson in lessons()],
        "lessons_done": len(done & {lesson.slug for lesson in lessons()}),
        "rating": round(rating.rating) if rating is not None else None,
        "attempts": attempts,
    }
