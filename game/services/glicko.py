"""The one call to Glicko-2 (Glickman's system; the arithmetic is the library `glicko2-py`'s,
`glicko2.math.update_rating`: steps 1-8 of "Example of the Glicko-2 system", the Illinois
algorithm for the volatility): a rating, its deviation and its volatility after one rating
period of results. Every rating the site keeps goes through it: the players' game ratings
(ratings.py) and the puzzles' (puzzle_ratings.py). Each rated game or puzzle attempt is a rating
period of its own, as on Lichess.
"""

from __future__ import annotations

from collections.abc import Sequence

from glicko2.math import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi, update_rating

# The system constant: Glickman suggests 0.3 to 1.2; Lichess uses 0.75. Smaller keeps the
# volatility steadier.
TAU = 0.75

# (the opponent's rating, its deviation, the score: 1 a win, 0 a loss, 0.5 a draw)
Result = tuple[float, float, float]


def update(
    rating: float, rd: float, vol: float, results: Sequence[Result], *, tau: float = TAU
) -> tuple[float, float, float]:
    """The (rating, deviation, volatility) after `results`; with none, the deviation grows as a
    period without games makes it (Glickman's step 6)."""
    new = update_rating(
        rating_to_mu(rating),
        rd_to_phi(rd),
        vol,
        [(rating_to_mu(r), rd_to_phi(d), s) for r, d, s in results],
        tau=tau,
    )
    return mu_to_rating(new.mu), phi_to_rd(new.phi), new.sigma
