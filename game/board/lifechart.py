"""The life chart of a game's summary: one line per player, life at the start and at the end of
each turn, laid out here as numbers for an SVG drawn on the server (templates/jinja2/game/
replay.html): readable without JavaScript, and in the page's text as a table too."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 640, 240
LEFT, TOP, BOTTOM = 40, 16, 30  # margins: the axis labels
# The right margin holds each line's label, the player's name and final life at 12 px bold: wide
# enough for the longest at a generous average character width (the font is the browser's), at
# least MIN_RIGHT. A name longer than NAME_CHARS is shortened there; the dots' tooltips, the
# chart's description and the summary below it have it whole.
MIN_RIGHT, LABEL_GAP, CHAR_WIDTH, NAME_CHARS = 60, 12, 8.2, 20


@dataclass(frozen=True, slots=True)
class Line:
    player: str
    css: str  # "p0", "p1": the line's colour
    points: str  # SVG polyline points
    dots: tuple[tuple[float, float, int, int], ...]  # (x, y, turn, life) per turn
    end: tuple[float, float]
    final: int
    label: str  # at the line's end: "Ann 14"


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True, slots=True)
class LifeChart:
    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    plot: tuple[float, float, float, float]  # left, top, right, bottom
    marker: float | None  # x of the turn the replay shows


def life_chart(
    players: tuple[str, ...],
    names: dict[str, str],
    turns: tuple[int, ...],
    life: tuple[tuple[int, ...], ...],
    current_turn: int | None = None,
) -> LifeChart:
    """`life[i][j]`: player i's life after turn `turns[j]` (turn 0: the start)."""
    shown = [names.get(p, p) for p in players]
    labels = [f"{short_name(name)} {row[-1]}" for name, row in zip(shown, life, strict=True)]
    margin = max(MIN_RIGHT, round(LABEL_GAP + CHAR_WIDTH * max(map(len, labels))))
    right, bottom = WIDTH - margin, HEIGHT - BOTTOM
    values = [v for row in life for v in row]
    low = min(0, *values)
    high = max(20, *values)
    span_x = max(1, len(turns) - 1)

    def x(j: int) -> float:
        return round(LEFT + (right - LEFT) * j / span_x, 1)

    def y(v: int) -> float:
        return round(bottom - (bottom - TOP) * (v - low) / (high - low), 1)

    lines = []
    for i in range(len(players)):
        dots = tuple((x(j), y(v), turns[j], v) for j, v in enumerate(life[i]))
        lines.append(
            Line(
                player=shown[i],
                css=f"p{i}",
                points=" ".join(f"{dx},{dy}" for dx, dy, _, _ in dots),
                dots=dots,
                end=(dots[-1][0], dots[-1][1]),
                final=life[i][-1],
                label=labels[i],
            )
        )
    step = max(1, len(turns) // 12)  # at most a dozen turn labels
    last = len(turns) - 1
    labelled = [j for j in range(0, last + 1, step)]
    if labelled[-1] != last:  # the last turn is always labelled; a label too close goes
        if last - labelled[-1] < max(1, step // 2 + 1) and len(labelled) > 1:
            labelled.pop()
        labelled.append(last)
    x_ticks = tuple(Tick(x(j), str(turns[j])) for j in labelled)
    y_step = 5 if high - low <= 40 else 10 * max(1, (high - low) // 80)
    first = low - low % y_step
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(first, high + 1, y_step) if v >= low)
    marker = None
    if current_turn is not None and current_turn in turns:
        marker = x(turns.index(current_turn))
    return LifeChart(
        WIDTH, HEIGHT, tuple(lines), x_ticks, y_ticks, (LEFT, TOP, right, bottom), marker
    )


def short_name(name: str) -> str:
    """`name`, cut to NAME_CHARS characters with an ellipsis if it is longer."""
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + "…"
