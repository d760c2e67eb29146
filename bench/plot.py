"""Plots of bench/latency.py runs as plain SVG (no plotting library needed).

    .venv/bin/python bench/plot.py RUN.json [RUN.json ...] --out docs/latency.svg

Each RUN.json is a file written by `bench/latency.py --samples RUN.json`. The picture has two
panels:

- left, the latency distribution: for each run whose file is named in --dist (default: every
  run), the share of actions slower than x, against x on a log scale, with the same run's
  echo baseline dashed;
- right, latency against concurrent games: p50 and p99 of every run, one line per mode
  (embedded, scale), against the number of games.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

W, H = 1100, 460
PANEL_W, PANEL_H = 440, 330
LEFT_X, RIGHT_X, TOP_Y = 80, 620, 60
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
MODE_COLOURS = {"embedded": "#1f77b4", "scale": "#d62728"}


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def text(self, x: float, y: float, s: str, size: int = 12, anchor: str = "start", **kw) -> None:
        extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in kw.items())
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" {extra}>'
            f"{esc(s)}</text>"
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, **kw) -> None:
        style = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in kw.items())
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>')

    def path(self, points: list[tuple[float, float]], colour: str, dash: str = "", width=2) -> None:
        if not points:
            return
        d = "M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"{dashed}/>')

    def render(self) -> str:
        body = "\n".join(self.parts)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
            f'viewBox="0 0 {W} {H}" font-family="sans-serif">\n'
            f'<rect width="{W}" height="{H}" fill="white"/>\n{body}\n</svg>\n'
        )


def label(result: dict[str, Any]) -> str:
    return f"{result['mode']}, {result['games']} games"


def distribution(svg: Svg, runs: list[dict[str, Any]]) -> None:
    """Share of actions slower than x (log-log), echo baselines dashed."""
    x0, y0 = LEFT_X, TOP_Y
    lo, hi = 0.3, 30000.0  # ms
    shares = [1.0, 0.1, 0.01, 0.001]

    def px(ms: float) -> float:
        ms = min(max(ms, lo), hi)
        return x0 + PANEL_W * (math.log10(ms) - math.log10(lo)) / (math.log10(hi / lo))

    def py(share: float) -> float:
        share = max(share, 0.0005)
        return y0 + PANEL_H * (0 - math.log10(share)) / 3.3

    svg.text(x0 + PANEL_W / 2, y0 - 30, "Latency distribution", 15, "middle", font_weight="bold")
    for ms in (1, 10, 100, 1000, 10000):
        svg.line(px(ms), y0, px(ms), y0 + PANEL_H, stroke="#ddd")
        svg.text(px(ms), y0 + PANEL_H + 16, f"{ms:g}", 11, "middle")
    for share in shares:
        svg.line(x0, py(share), x0 + PANEL_W, py(share), stroke="#ddd")
        svg.text(x0 - 6, py(share) + 4, f"{share * 100:g}%", 11, "end")
    svg.text(
        x0 + PANEL_W / 2, y0 + PANEL_H + 36, "ms (send until both sockets updated)", 12, "middle"
    )
    svg.text(
        x0 - 55,
        y0 + PANEL_H / 2,
        "slower than x",
        12,
        "middle",
        transform=f"rotate(-90 {x0 - 55} {y0 + PANEL_H / 2})",
    )
    for i, run in enumerate(runs):
        colour = COLOURS[i % len(COLOURS)]
        actions = [a[2] for a in run["actions"]]
        for values, dash in ((actions, ""), (run["echoes"], "5,4")):
            xs = sorted(values)
            n = len(xs)
            if not n:
                continue
            points = []
            step = max(1, n // 400)
            for k in range(0, n, step):
                points.append((px(xs[k] * 1000), py(1 - k / n)))
            points.append((px(xs[-1] * 1000), py(1 / n)))
            svg.path(points, colour, dash)
        y = y0 + PANEL_H - 10 - 18 * (len(runs) - i)
        svg.line(x0 + 12, y - 4, x0 + 32, y - 4, stroke=colour, stroke_width=2)
        svg.text(x0 + 37, y, label(run["result"]), 11)
    y = y0 + PANEL_H - 10
    svg.line(
        x0 + 12,
        y - 4,
        x0 + 32,
        y - 4,
        stroke="#555",
        stroke_width=2,
        stroke_dasharray="5,4",
    )
    svg.text(x0 + 37, y, "dashed: echo baseline of the same run", 11)
    svg.add(
        f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#333"/>'
    )


def against_games(svg: Svg, results: list[dict[str, Any]]) -> None:
    x0, y0 = RIGHT_X, TOP_Y
    games = sorted({r["games"] for r in results})
    lo, top = 1.0, 10 ** math.ceil(math.log10(max(max(r["p99_ms"] or 1 for r in results), 10)))
    g_hi = max(games) * 1.05 if games else 1

    def px(g: float) -> float:
        return x0 + PANEL_W * g / g_hi

    def py(ms: float) -> float:
        ms = min(max(ms, lo), top)
        return y0 + PANEL_H * (1 - math.log10(ms / lo) / math.log10(top / lo))

    svg.text(
        x0 + PANEL_W / 2,
        y0 - 30,
        "Latency against concurrent games (human pace)",
        15,
        "middle",
        font_weight="bold",
    )
    for k in range(round(math.log10(top / lo)) + 1):
        ms = lo * 10**k
        svg.line(x0, py(ms), x0 + PANEL_W, py(ms), stroke="#ddd")
        svg.text(x0 - 6, py(ms) + 4, f"{ms:g}", 11, "end")
    for g in games:
        svg.line(px(g), y0, px(g), y0 + PANEL_H, stroke="#eee")
        svg.text(px(g), y0 + PANEL_H + 16, str(g), 11, "middle")
    svg.text(x0 + PANEL_W / 2, y0 + PANEL_H + 36, "concurrent games", 12, "middle")
    svg.text(x0 - 50, y0 + PANEL_H / 2, "ms (log)", 12, "middle")
    svg.line(x0, py(100), x0 + PANEL_W, py(100), stroke="#999", stroke_dasharray="2,3")
    svg.text(x0 + PANEL_W - 4, py(100) - 4, "100 ms", 10, "end", fill="#777")
    row = 0
    for mode in ("embedded", "scale"):
        mine = sorted((r for r in results if r["mode"] == mode), key=lambda r: r["games"])
        if not mine:
            continue
        colour = MODE_COLOURS[mode]
        for key, dash in (("p50_ms", "5,4"), ("p99_ms", "")):
            points = [(px(r["games"]), py(r[key])) for r in mine if r[key] is not None]
            svg.path(points, colour, dash)
            for x, y in points:
                svg.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
            y = y0 + PANEL_H - 82 + 18 * row  # bottom right: the lines rise to the top
            svg.line(
                x0 + PANEL_W - 225,
                y - 4,
                x0 + PANEL_W - 205,
                y - 4,
                stroke=colour,
                stroke_width=2,
                stroke_dasharray=dash or "none",
            )
            name = "one process, SQLite" if mode == "embedded" else "two processes, PG + Redis"
            svg.text(x0 + PANEL_W - 200, y, f"{key[:3]} — {name}", 11)
            row += 1
    svg.add(
        f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#333"/>'
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("runs", nargs="+", type=Path)
    p.add_argument("--dist", nargs="*", type=Path, help="runs drawn in the left panel")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    runs = {path: json.loads(path.read_text()) for path in args.runs}
    svg = Svg()
    dist = [runs[path] for path in (args.dist or args.runs) if path in runs]
    distribution(svg, dist)
    against_games(svg, [r["result"] for r in runs.values() if r["result"]["pace_s"] > 0])
    args.out.write_text(svg.render())
    print(args.out)


if __name__ == "__main__":
    main()
