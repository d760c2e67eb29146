"""Puzzle ratings (docs/puzzles.md, "Ratings"): every player and every puzzle has a Glicko-2
rating, and a player's first attempt at a puzzle is a game between them, which the player wins
by solving it. Later attempts are recorded but not rated (as on Lichess): the solution has been
seen by then. Both ratings are updated together, each from the other's rating before.
"""

from __future__ import annotations

from django.db import transaction

from game.models import Game, Player
from learn.models import Puzzle, PuzzleAttempt, PuzzleRating

from . import glicko


def rating_of(player: Player) -> PuzzleRating:
    """The player's puzzle rating (a newcomer's until their first rated attempt; not stored)."""
    found = PuzzleRating.objects.filter(player=player).first()
    return found if found is not None else PuzzleRating(player=player)


def record_attempt(
    player: Player, puzzle_id: int, *, solved: bool, game: Game | None
) -> PuzzleAttempt:
    """A finished attempt of `player` at the puzzle; rated when it is their first."""
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        mine, _ = PuzzleRating.objects.select_for_update().get_or_create(player=player)
        first = not PuzzleAttempt.objects.filter(player=player, puzzle=puzzle).exists()
        attempt = PuzzleAttempt(player=player, puzzle=puzzle, game=game, solved=solved, rated=first)
        if first:
            score = 1.0 if solved else 0.0
            before = (mine.rating, mine.rd, mine.vol), (puzzle.rating, puzzle.rd, puzzle.vol)
            (p_rating, p_rd, _), (z_rating, z_rd, _) = before
            mine.rating, mine.rd, mine.vol = glicko.update(*before[0], [(z_rating, z_rd, score)])
            puzzle.rating, puzzle.rd, puzzle.vol = glicko.update(
                *before[1], [(p_rating, p_rd, 1.0 - score)]
            )
            attempt.player_before, attempt.player_after = p_rating, mine.rating
            attempt.puzzle_before, attempt.puzzle_after = z_rating, puzzle.rating
            mine.save()
            puzzle.save(update_fields=["rating", "rd", "vol"])
        attempt.save()
    return attempt
