"""The profile's rating chart: the player's rating after each rated game, laid out here as numbers
for an SVG drawn on the server (templates/profile.html), as the replay's life chart is
(lifechart.py): readable without JavaScript, and listed in the page's text as well."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .lifechart import Tick

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 14, 30  # margins: the axis labels


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    rating: int
    label: str  # its tooltip: "after the game against Bob, 2026-12-04: 1662"


@dataclass(frozen=True, slots=True)
class RatingChart:
    width: int
    height: int
    points: str  # SVG polyline points
    dots: tuple[Dot, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    plot: tuple[float, float, float, float]  # left, top, right, bottom


def rating_chart(
    games: list[tuple[datetime, float, str]], *, start: float | None
) -> RatingChart | None:
    """`games`: (when, rating after, opponent) per rated game, oldest first; `start`: the rating
    before the first. The x axis counts rated games (0: before the first), so a burst of games
    in one evening is as readable as a month of them. None when there is no rated game."""
    if not games or start is None:
        return None
    ratings = [start, *(r for _, r, _ in games)]
    low = min(ratings)
    high = max(ratings)
    # At least 100 points of height, rounded out to 50s, so one game's change is not a cliff.
    low, high = 50 * int(low // 50), 50 * (int(high // 50) + 1)
    if high - low < 100:
        high = low + 100
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    span = max(1, len(ratings) - 1)

    def x(i: int) -> float:
        return round(LEFT + (right - LEFT) * i / span, 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - TOP) * (v - low) / (high - low), 1)

    dots = [Dot(x(0), y(start), round(start), f"before the first rated game: {round(start)}")]
    for i, (at, rating, opponent) in enumerate(games, start=1):
        label = f"after game {i}, against {opponent}, {at:%Y-%m-%d}: {round(rating)}"
        dots.append(Dot(x(i), y(rating), round(rating), label))
    step = max(1, len(ratings) // 10)  # at most about ten game numbers on the axis
    labelled = list(range(0, len(ratings), step))
    if labelled[-1] != len(ratings) - 1:
        labelled.append(len(ratings) - 1)
    y_step = 50 if high - low <= 400 else 100 * max(1, (high - low) // 800)
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(low, high + 1, y_step))
    return RatingChart(
        WIDTH,
        HEIGHT,
        " ".join(f"{d.x},{d.y}" for d in dots),
        tuple(dots),
        tuple(Tick(x(i), str(i)) for i in labelled),
        y_ticks,
        (LEFT, TOP, right, bottom),
    )
