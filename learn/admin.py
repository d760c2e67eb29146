"""The puzzles in the admin (docs/puzzles.md, "Puzzles from games"): staff write a draft's
solution in its file and publish it. Every save runs the checker, bounded so the request never
hangs (services/puzzle_drafts.py); a puzzle is published only when the check proves it sound,
and the form shows the defence that beats an unsound one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from game import services

from .models import LessonDone, Puzzle, PuzzleAttempt, PuzzleRating, Training


class PuzzleForm(forms.ModelForm):
    class Meta:
        model = Puzzle
        fields = ("slug", "text", "published")
        widgets = {
            "text": forms.Textarea(
                attrs={
                    "rows": 30,
                    "cols": 100,
                    "class": "vLargeTextField",
                    "spellcheck": "false",
                    "style": "font-family: monospace",
                }
            )
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        text = data.get("text", self.instance.text)
        verdict = services.check_text(text, f"{data.get('slug') or 'puzzle'}.yaml")
        self.verdict = verdict
        if data.get("published") and not verdict.sound:
            self.add_error(
                "published",
                f"Not published: the check says {verdict.verdict}. {verdict.text}",
            )
        return data


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    form = PuzzleForm
    list_display = ("title", "slug", "source", "published", "verdict", "shown_rating", "goal")
    list_filter = ("published", "source", "verdict")
    search_fields = ("title", "slug")
    readonly_fields = (
        "title",
        "goal",
        "themes",
        "source",
        "from_game",
        "verdict",
        "verdict_lines",
        "rating",
        "rd",
        "vol",
    )
    fields = (
        "title",
        "slug",
        "published",
        "verdict",
        "verdict_lines",
        "text",
        "goal",
        "themes",
        "source",
        "from_game",
        "rating",
        "rd",
        "vol",
    )

    def get_readonly_fields(self, request, obj=None):
        fixed = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.source == Puzzle.FILE:
            fixed += ["slug", "text"]  # a shipped file's puzzle is edited in its file
        return fixed

    @admin.display(description="rating")
    def shown_rating(self, obj: Puzzle) -> int:
        return round(obj.rating)

    @admin.display(description="the checker says")
    def verdict_lines(self, obj: Puzzle) -> str:
        return format_html("<pre>{}</pre>", obj.verdict_text) if obj.verdict_text else "—"

    @admin.display(description="from the game")
    def from_game(self, obj: Puzzle) -> str:
        if obj.source_game is None:
            return "—"
        url = reverse("replay", args=[obj.source_game.code]) + f"?at={obj.source_at}"
        return format_html(
            '<a href="{}">game {}, point {}</a>', url, obj.source_game.code, obj.source_at
        )

    def save_model(self, request, obj: Puzzle, form, change) -> None:
        verdict = getattr(form, "verdict", None)
        if verdict is not None:
            obj.verdict, obj.verdict_text = verdict.verdict, verdict.text
            scenario = verdict.scenario
            if scenario is not None:
                obj.title = scenario.name[:200] or obj.title
                if scenario.puzzle is not None:
                    obj.goal = scenario.puzzle.goal
                    obj.themes = list(scenario.puzzle.themes)
        super().save_model(request, obj, form, change)


@admin.register(Training)
class TrainingAdmin(admin.ModelAdmin):
    list_display = ("game", "player", "kind", "lesson", "puzzle", "state")
    list_filter = ("kind", "state")
    raw_id_fields = ("game", "player", "puzzle")


@admin.register(PuzzleAttempt)
class PuzzleAttemptAdmin(admin.ModelAdmin):
    list_display = ("player", "puzzle", "solved", "rated", "player_before", "player_after", "at")
    list_filter = ("solved", "rated")
    raw_id_fields = ("player", "puzzle", "game")


admin.site.register(PuzzleRating)
admin.site.register(LessonDone)
