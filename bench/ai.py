"""The computer's levels against each other, against the uniformly random bot and against the
scripted opponents of `bench/scripted.py` (`aggro`, `turtle`, `burn`: Medium with one fixed
habit, to find out whether a level can be exploited by it; e.g. `--pairings medium:aggro`).

Each pairing plays N games over the four preset decks: deal k uses deck pair k (all sixteen
ordered pairs in turn) and whole-number seed `--seed + k`, and is played twice with the seats
swapped, so both levels get the same deals, decks and coin flips. Prints one line per game and
per pairing, then a JSON last line:

    {"pairings": [{"a", "b", "games", "a_wins", "draws", "a_win_rate", "ci_low", "ci_high",
                   "by_b_deck": {deck: [a_wins, games]},
                   "by_decks": {"<a's deck> / <b's deck>": [a_wins, games]}}],
     "think_ms": {level: {"p50", "p95", "max", "decisions"}, "hard_searched": {...}},
     "think_cpu_ms": {...the same in CPU time of the deciding process...},
     "nontrivial_think_ms": {...decisions with more than one option...}, "jobs", ...}

The interval is Wilson's 95% score interval (a draw, or a game stopped at the decision cap,
is not a win). Think time is per decision: wall clock, and the deciding process's own CPU time,
which is what the decision takes on one free core; on a shared machine the wall clock includes
the waits for a core (--one-core runs the games one after another, so the bench never competes
with itself; --jobs 9 runs nine games at once, eight others thinking while one does).
`hard_searched` is Hard's decisions where it searches (more than one candidate), apart from the
many it answers at once. Hard thinks as the server's does: with a deadline of
`checked.THINK_SECONDS` after the decision reaches it (--think-ms changes it, 0 removes it, so
the answers depend on the deals alone).

    nice -n 10 .venv/bin/python bench/ai.py                       # the targets' pairings, 2 jobs
    nice -n 10 .venv/bin/python bench/ai.py --pairings hard:medium --games 40 --one-core
    nice -n 10 .venv/bin/python bench/ai.py --pairings hard:medium --games 18 --jobs 9
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._stats import ms, quantile
from bench.engine import baseline_ops_per_s
from bench.scripted import SCRIPTED, scripted_answer
from dungeons.official import official_dungeons
from game.ai import LEVELS, decide
from game.ai.checked import THINK_SECONDS
from game.ai.search import searches
from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.game import Engine, GameSetup

PLAYERS = ("random", *LEVELS, *SCRIPTED)
# The pairings the targets name, with games enough for each interval to clear one half.
DEFAULT_PAIRINGS = (("easy", "random", 64), ("medium", "easy", 256), ("hard", "medium", 64))
MAX_DECISIONS = 6000
DECK_PAIRS = list(itertools.product(STARTER_DECKS, repeat=2))


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(task: tuple[str, str, int, int, int, float]) -> dict:
    """One game: level a against level b on deal k; a sits first in the setup when mirror=0.
    Hard's deadline is `think_s` after it is asked (none at 0)."""
    a, b, base_seed, k, mirror, think_s = task
    deck_a, deck_b = DECK_PAIRS[k % len(DECK_PAIRS)]
    seed = base_seed + k
    seats = ("alice", "bob") if mirror == 0 else ("bob", "alice")
    level = {seats[0]: a, seats[1]: b}
    decks = {seats[0]: STARTER_DECKS[deck_a], seats[1]: STARTER_DECKS[deck_b]}
    game = Engine(GameSetup(["alice", "bob"], seed, decks, official_dungeons()))
    rng = random.Random(seed * 2 + mirror)
    wall: dict[str, list[float]] = {a: [], b: []}
    cpu: dict[str, list[float]] = {a: [], b: []}
    hard_wall: dict[str, list[float]] = {a: [], b: []}
    searched_wall: list[float] = []
    searched_cpu: list[float] = []
    n = 0
    while game.pending is not None and n < MAX_DECISIONS:
        d = game.pending
        who = level[d.player]
        decision_seed = seed * 100003 + n
        t0, c0 = time.perf_counter(), time.process_time()
        answer = player_answer(who, game, rng, decision_seed, think_s)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        wall[who].append(dt)
        cpu[who].append(dc)
        if len(d.options) > 1:
            hard_wall[who].append(dt)
        if who == "hard" and searches(game, d.player, decision_seed):
            searched_wall.append(dt)
            searched_cpu.append(dc)
        game.answer(d.player, answer)
        n += 1
    winner = game.state.winner
    return {
        "a": a,
        "b": b,
        "k": k,
        "mirror": mirror,
        "decks": [deck_a, deck_b],
        "a_won": winner == seats[0],
        "draw": winner is None,
        "decisions": n,
        "wall": wall,
        "cpu": cpu,
        "nontrivial": hard_wall,
        "searched_wall": searched_wall,
        "searched_cpu": searched_cpu,
    }


def player_answer(
    who: str, game: Engine, rng: random.Random, seed: int, think_s: float = 0.0
) -> str | list[str]:
    """The answer of `who` (the random bot, a level or a scripted opponent) to the pending
    decision; Hard's deadline is `think_s` after it is asked (none at 0)."""
    d = game.pending
    assert d is not None
    if who == "random":
        return random_answer(d, rng)
    if who in SCRIPTED:
        return scripted_answer(who, game, d.player, seed)
    deadline = time.monotonic() + think_s if who == "hard" and think_s else None
    return decide(who, game, d.player, seed, deadline=deadline)


def by_deck(results: list[dict]) -> dict[str, tuple[int, int]]:
    """Player a's wins and games by the preset deck player b played: where a pairing's games
    are lost (the preset decks are not of equal strength)."""
    out: dict[str, tuple[int, int]] = {}
    for deck in STARTER_DECKS:
        mine = [r for r in results if r["decks"][1] == deck]
        if mine:
            out[deck] = (sum(r["a_won"] for r in mine), len(mine))
    return out


def by_decks(results: list[dict]) -> dict[str, tuple[int, int]]:
    """Player a's wins and games by both preset decks ("a's deck / b's deck"): how strong each
    deck is against each other, when a and b are the same level."""
    out: dict[str, tuple[int, int]] = {}
    for deck_a, deck_b in itertools.product(STARTER_DECKS, repeat=2):
        mine = [r for r in results if r["decks"] == [deck_a, deck_b]]
        if mine:
            out[f"{deck_a} / {deck_b}"] = (sum(r["a_won"] for r in mine), len(mine))
    return out


def summarise(times: dict[str, list[float]]) -> dict[str, dict[str, float | int | None]]:
    out = {}
    for level, xs in sorted(times.items()):
        if level == "random":
            continue
        out[level] = {
            "p50": ms(quantile(xs, 0.5)),
            "p95": ms(quantile(xs, 0.95)),
            "max": ms(max(xs) if xs else None),
            "decisions": len(xs),
        }
    return out


def parse_pairings(text: str, games: int | None) -> list[tuple[str, str, int]]:
    out = []
    for part in text.split(","):
        a, _, b = part.strip().partition(":")
        if a not in PLAYERS or b not in PLAYERS:
            raise SystemExit(f"a pairing names two of {', '.join(PLAYERS)}: {part!r}")
        default = next((n for x, y, n in DEFAULT_PAIRINGS if (x, y) == (a, b)), 64)
        out.append((a, b, games or default))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--pairings", default=",".join(f"{a}:{b}" for a, b, _ in DEFAULT_PAIRINGS))
    parser.add_argument("--games", type=int, default=None, help="games per pairing (even)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2, help="parallel game processes")
    parser.add_argument("--one-core", action="store_true", help="the same as --jobs 1")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=THINK_SECONDS * 1000,
        help="Hard's deadline per decision in ms (0: none, the answers depend on the deals alone)",
    )
    args = parser.parse_args()
    jobs = 1 if args.one_core else max(1, args.jobs)
    pairings = parse_pairings(args.pairings, args.games)
    tasks = [
        (a, b, args.seed, k, mirror, args.think_ms / 1000)
        for a, b, n in pairings
        for k in range((n + 1) // 2)
        for mirror in (0, 1)
    ]
    baseline = baseline_ops_per_s()
    start = time.perf_counter()
    results = []
    if jobs == 1:
        iterator = map(play_game, tasks)
    else:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        iterator = pool.imap_unordered(play_game, tasks)
    for r in iterator:
        results.append(r)
        if not args.quiet:
            print(
                f"{r['a']} vs {r['b']} deal {r['k']} seats {r['mirror']}: "
                f"{'draw' if r['draw'] else (r['a'] if r['a_won'] else r['b'])} wins "
                f"({r['decisions']} decisions)",
                file=sys.stderr,
                flush=True,
            )
    if jobs != 1:
        pool.close()
    elapsed = time.perf_counter() - start
    out_pairings = []
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    nontrivial: dict[str, list[float]] = {}
    searched_wall: list[float] = []
    searched_cpu: list[float] = []
    for a, b, _ in pairings:
        mine = [r for r in results if (r["a"], r["b"]) == (a, b)]
        wins = sum(r["a_won"] for r in mine)
        lo, hi = wilson(wins, len(mine))
        row = {
            "a": a,
            "b": b,
            "games": len(mine),
            "a_wins": wins,
            "draws": sum(r["draw"] for r in mine),
            "a_win_rate": round(wins / len(mine), 4) if mine else None,
            "ci_low": round(lo, 4),
            "ci_high": round(hi, 4),
            "by_b_deck": by_deck(mine),
            "by_decks": by_decks(mine),
        }
        out_pairings.append(row)
        print(
            # From the counts, not the rounded rate (1326/2048 is 64.7%, not 64.8%).
            f"{a} beats {b}: {wins}/{len(mine)} = {wins / max(1, len(mine)):.1%} "
            f"(95% CI {lo:.1%}-{hi:.1%}, {row['draws']} draws)",
            file=sys.stderr,
        )
        for deck, (won, played) in row["by_b_deck"].items():
            print(f"  with {b} on {deck}: {won}/{played}", file=sys.stderr)
        for r in mine:
            for source, sink in ((r["wall"], wall), (r["cpu"], cpu), (r["nontrivial"], nontrivial)):
                for level, xs in source.items():
                    sink.setdefault(level, []).extend(xs)
            searched_wall.extend(r["searched_wall"])
            searched_cpu.extend(r["searched_cpu"])
    think_ms = summarise(wall)
    think_cpu_ms = summarise(cpu)
    if any("hard" in (a, b) for a, b, _ in pairings):
        think_ms.update(summarise({"hard_searched": searched_wall}))
        think_cpu_ms.update(summarise({"hard_searched": searched_cpu}))
    result = {
        "pairings": out_pairings,
        "think_ms": think_ms,
        "think_cpu_ms": think_cpu_ms,
        "think_deadline_ms": args.think_ms or None,
        "nontrivial_think_ms": summarise(nontrivial),
        "jobs": jobs,
        "seed": args.seed,
        "elapsed_s": round(elapsed, 1),
        "baseline_ops_per_s": round(baseline, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
