"""The Learn section and the puzzles (docs/puzzles.md, "At the table"): the puzzles as rows (the
shipped files, loaded by `manage.py puzzle load` and every `migrate`, and staff's drafts from
replays), the training games (a lesson or a puzzle played at the table), the lessons each player
has done, every attempt at a puzzle and each player's puzzle rating (Glicko-2)."""

from __future__ import annotations

from django.db import models
from django.urls import reverse

from game.models import Game, Player

# Glicko-2's start for a newcomer (Glickman's paper): 1500, deviation 350, volatility 0.06.
START_RATING, START_RD, START_VOL = 1500.0, 350.0, 0.06


class Puzzle(models.Model):
    """A puzzle: the whole scenario file with its `puzzle` block (docs/puzzles.md). A shipped
    one mirrors its file in game/puzzles/data/; a draft is made by staff from a point of a
    replay and published from the admin once the checker proves it sound."""

    FILE, GAME = "file", "game"
    SOURCES = [(FILE, "shipped file"), (GAME, "a game's replay")]
    SOUND, UNSOUND, UNPROVEN, INVALID = "sound", "unsound", "unproven", "invalid"
    VERDICTS = [
        ("", "not checked"),
        (SOUND, "sound"),
        (UNSOUND, "unsound"),
        (UNPROVEN, "unproven"),
        (INVALID, "invalid"),
    ]

    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    text = models.TextField(help_text="The scenario file with its puzzle block (docs/puzzles.md).")
    goal = models.CharField(max_length=10, default="win")
    themes = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=10, choices=SOURCES, default=FILE)
    source_game = models.ForeignKey(
        Game, null=True, blank=True, related_name="puzzle_drafts", on_delete=models.SET_NULL
    )
    source_at = models.PositiveIntegerField(null=True, blank=True)
    published = models.BooleanField(default=False)
    verdict = models.CharField(max_length=10, choices=VERDICTS, blank=True, default="")
    verdict_text = models.TextField(blank=True, default="")
    # The puzzle's Glicko-2 rating (services/puzzle_ratings.py): each first attempt of a player
    # is a game between them, which the puzzle wins when the player fails.
    rating = models.FloatField(default=START_RATING)
    rd = models.FloatField(default=START_RD)
    vol = models.FloatField(default=START_VOL)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rating", "slug"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("puzzle", args=[self.slug])


class Training(models.Model):
    """A game that plays a lesson or a puzzle (services/training.py): who learns, from which
    file, where the file's script left the game, and how it ended."""

    LESSON, PUZZLE = "lesson", "puzzle"
    KINDS = [(LESSON, "lesson"), (PUZZLE, "puzzle")]
    PLAYING, SOLVED, FAILED = "playing", "solved", "failed"
    STATES = [(PLAYING, "playing"), (SOLVED, "solved"), (FAILED, "failed")]

    game = models.OneToOneField(Game, related_name="training", on_delete=models.CASCADE)
    player = models.ForeignKey(Player, related_name="trainings", on_delete=models.CASCADE)
    kind = models.CharField(max_length=10, choices=KINDS)
    lesson = models.CharField(max_length=100, blank=True, default="", help_text="Its slug.")
    puzzle = models.ForeignKey(
        Puzzle, null=True, blank=True, related_name="trainings", on_delete=models.CASCADE
    )
    start = models.PositiveIntegerField(default=0, help_text="Answers of the file's script.")
    start_turn = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=10, choices=STATES, default=PLAYING)
    message = models.TextField(blank=True, default="")
    line = models.JSONField(default=list, blank=True, help_text="The line played, in words.")

    def __str__(self) -> str:
        return f"{self.kind} {self.lesson or self.puzzle_id} in {self.game}"


class LessonDone(models.Model):
    player = models.ForeignKey(Player, related_name="lessons_done", on_delete=models.CASCADE)
    lesson = models.CharField(max_length=100)
    done = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["lesson"]
        constraints = [
            models.UniqueConstraint(fields=["player", "lesson"], name="one_done_per_lesson")
        ]

    def __str__(self) -> str:
        return f"{self.player} did {self.lesson}"


class PuzzleRating(models.Model):
    """A player's puzzle rating (Glicko-2), apart from any rating of games between players."""

    player = models.OneToOneField(Player, related_name="puzzle_rating", on_delete=models.CASCADE)
    rating = models.FloatField(default=START_RATING)
    rd = models.FloatField(default=START_RD)
    vol = models.FloatField(default=START_VOL)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.0f}"


class PuzzleAttempt(models.Model):
    """A finished attempt at a puzzle. Only a player's first attempt at a puzzle is rated (as
    Lichess does): `rated`, with both ratings before and after."""

    player = models.ForeignKey(Player, related_name="puzzle_attempts", on_delete=models.CASCADE)
    puzzle = models.ForeignKey(Puzzle, related_name="attempts", on_delete=models.CASCADE)
    game = models.OneToOneField(
        Game, null=True, blank=True, related_name="puzzle_attempt", on_delete=models.SET_NULL
    )
    solved = models.BooleanField()
    rated = models.BooleanField(default=False)
    player_before = models.FloatField(null=True, blank=True)
    player_after = models.FloatField(null=True, blank=True)
    puzzle_before = models.FloatField(null=True, blank=True)
    puzzle_after = models.FloatField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "puzzle"],
                condition=models.Q(rated=True),
                name="one_rated_attempt_per_puzzle",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {'solved' if self.solved else 'failed'} {self.puzzle}"

    @property
    def player_change(self) -> float | None:
        if self.player_before is None or self.player_after is None:
            return None
        return self.player_after - self.player_before
