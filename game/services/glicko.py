"""The one call to Glicko-2 (Glickman's system, the library `glicko2`): a rating, its
deviation and its volatility after one rating period of results. Shared by every rating the
site keeps (the puzzles', services/puzzle_ratings.py).

Each attempt at a puzzle is its own rating period, as on Lichess: the player's rating moves at
once. The system constant tau is the library's, 0.5 (Glickman suggests 0.3 to 1.2).
"""

from __future__ import annotations

from collections.abc import Sequence

import glicko2

# (the opponent's rating, its deviation, the score: 1 a win, 0 a loss, 0.5 a draw)
Result = tuple[float, float, float]


def update(
    rating: float, rd: float, vol: float, results: Sequence[Result]
) -> tuple[float, float, float]:
    """The (rating, deviation, volatility) after `results`; with none, the deviation grows as a
    period without games makes it (Glickman's step 6)."""
    player = glicko2.Player(rating=rating, rd=rd, vol=vol)
    if results:
        player.update_player(
            [r for r, _, _ in results], [d for _, d, _ in results], [s for _, _, s in results]
        )
    else:
        player.did_not_compete()
    return player.rating, player.rd, player.vol
