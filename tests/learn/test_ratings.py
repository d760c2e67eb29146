"""Puzzle ratings (docs/puzzles.md, "Ratings"): Glicko-2 for the player and for the puzzle, an
attempt a game between them, only a player's first attempt at a puzzle rated."""

from __future__ import annotations

import pytest
from glicko2.math import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi, update_rating

from game.services import glicko
from game.services.puzzle_ratings import record_attempt
from learn.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.web.helpers import make_player

pytestmark = pytest.mark.django_db


def test_the_library_gives_glickmans_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against (1400, 30) won,
    # (1550, 100) lost, (1700, 300) lost.
    rating, rd, vol = glicko.update(
        1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)], tau=0.5
    )
    # The paper rounds its intermediate steps (1464.06, 151.52, 0.05999): hence the margins.
    assert rating == pytest.approx(1464.06, abs=0.015)
    assert rd == pytest.approx(151.52, abs=0.005)
    assert vol == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_results_widens_the_deviation():
    rating, rd, vol = glicko.update(1500, 200, 0.06, [])
    assert rating == 1500 and rd > 200 and vol == 0.06


def _expected(mine, theirs, score):
    """What the library computes, called directly (glicko.py only converts the scale)."""
    new = update_rating(
        rating_to_mu(mine[0]),
        rd_to_phi(mine[1]),
        mine[2],
        [(rating_to_mu(theirs[0]), rd_to_phi(theirs[1]), score)],
        tau=glicko.TAU,
    )
    return mu_to_rating(new.mu), phi_to_rd(new.phi), new.sigma


@pytest.mark.parametrize("solved", [True, False])
def test_a_first_attempt_moves_both_ratings_as_glicko2_computes(solved):
    lea = make_player("Lea")
    puzzle = Puzzle.objects.create(slug="p", title="p", text="x", rating=1600, rd=120, vol=0.06)
    PuzzleRating.objects.create(player=lea, rating=1450, rd=200, vol=0.06)
    attempt = record_attempt(lea, puzzle.pk, solved=solved, game=None)
    score = 1.0 if solved else 0.0
    want_player = _expected((1450, 200, 0.06), (1600, 120), score)
    want_puzzle = _expected((1600, 120, 0.06), (1450, 200), 1 - score)
    mine = PuzzleRating.objects.get(player=lea)
    puzzle.refresh_from_db()
    assert (mine.rating, mine.rd, mine.vol) == pytest.approx(want_player)
    assert (puzzle.rating, puzzle.rd, puzzle.vol) == pytest.approx(want_puzzle)
    assert attempt.rated
    assert (attempt.player_before, attempt.player_after) == pytest.approx((1450, want_player[0]))
    assert (attempt.puzzle_before, attempt.puzzle_after) == pytest.approx((1600, want_puzzle[0]))
    assert (mine.rating > 1450) == solved and (puzzle.rating < 1600) == solved


def test_only_the_first_attempt_at_a_puzzle_is_rated():
    lea = make_player("Lea")
    puzzle = Puzzle.objects.create(slug="p", title="p", text="x")
    first = record_attempt(lea, puzzle.pk, solved=False, game=None)
    after_first = PuzzleRating.objects.get(player=lea).rating
    puzzle.refresh_from_db()
    puzzle_after_first = puzzle.rating
    second = record_attempt(lea, puzzle.pk, solved=True, game=None)
    puzzle.refresh_from_db()
    assert first.rated and not second.rated
    assert PuzzleRating.objects.get(player=lea).rating == after_first
    assert puzzle.rating == puzzle_after_first
    assert PuzzleAttempt.objects.filter(player=lea).count() == 2
    # another player's first attempt at it is rated
    other = make_player("Ola")
    assert record_attempt(other, puzzle.pk, solved=True, game=None).rated
