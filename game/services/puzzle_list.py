"""The puzzles as the Puzzles pages list them: each with the viewer's result, the daily puzzle
(the same for everyone all day: chosen from the date among the shipped puzzles), the next one
to try."""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass

from game.models import Player
from learn.models import Puzzle, PuzzleAttempt, Training


@dataclass(frozen=True)
class PuzzleRow:
    puzzle: Puzzle
    result: str  # "solved", "failed" (the first attempt), or "" when not tried
    attempts: int

    @property
    def rating(self) -> int:
        return round(self.puzzle.rating)


def published() -> list[Puzzle]:
    return list(Puzzle.objects.filter(published=True))


def puzzle_rows(player: Player | None) -> list[PuzzleRow]:
    """Every published puzzle (easiest first), with `player`'s result at it."""
    attempts: dict[int, list[PuzzleAttempt]] = {}
    if player is not None:
        for a in PuzzleAttempt.objects.filter(player=player).order_by("at", "pk"):
            attempts.setdefault(a.puzzle_id, []).append(a)
    rows = []
    for puzzle in published():
        mine = attempts.get(puzzle.pk, [])
        first = mine[0] if mine else None
        result = "" if first is None else ("solved" if first.solved else "failed")
        rows.append(PuzzleRow(puzzle, result, len(mine)))
    return rows


def daily_puzzle(day: datetime.date) -> Puzzle | None:
    """The puzzle of `day`: one of the published shipped puzzles, picked by a hash of the date
    (the same on every server, different from day to day without a table to keep)."""
    shipped = list(Puzzle.objects.filter(published=True, source=Puzzle.FILE).order_by("slug"))
    if not shipped:
        return None
    digest = hashlib.blake2b(day.isoformat().encode(), digest_size=8).digest()
    return shipped[int.from_bytes(digest, "big") % len(shipped)]


def next_puzzle(player: Player | None, after: str) -> Puzzle | None:
    """The next published puzzle in the list's order after `after` that `player` has not tried
    yet, else the next one."""
    puzzles = published()
    slugs = [p.slug for p in puzzles]
    at = slugs.index(after) if after in slugs else -1
    ahead = [p for p in puzzles[at + 1 :] + puzzles[: at + 1] if p.slug != after]
    tried: set[str] = set()
    if player is not None:
        tried = set(
            PuzzleAttempt.objects.filter(player=player).values_list("puzzle__slug", flat=True)
        )
    return next((p for p in ahead if p.slug not in tried), ahead[0] if ahead else None)


def running_game_code(player: Player | None, puzzle: Puzzle) -> str | None:
    """The code of the player's game of `puzzle` still in progress, if any."""
    if player is None:
        return None
    found = (
        Training.objects.filter(player=player, puzzle=puzzle, state=Training.PLAYING)
        .filter(game__status="active")
        .values_list("game__code", flat=True)
        .first()
    )
    return found
