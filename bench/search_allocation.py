"""How Hard's search shares its worlds among its candidates: the even share it uses (every
candidate in every world, `game/ai/search.py`) against sequential halving (each round plays its
share of the budget over the candidates left and keeps the better half, so the last two meet more
worlds: the root of an information-set tree search, which samples a new world each iteration),
at the same budget, on positions from real games. The halving was tried for the search and is
not what it does: this measured it no better (docs/ai.md, "Sharing the worlds").

Positions: Medium plays itself on the bench's deals (bench/ai.py: deal k, the sixteen ordered
pairs of preset decks), and every decision of either seat where Hard would search with more than
one round of halving is kept. For each, every candidate the search keeps after pruning is played
out in the search's own worlds (world w, its seed and its opponent's style, as `search_answer`
draws them) and in `--oracle` further worlds of fresh seeds, the same for every candidate. From
that table:

- the even share picks the best total over the first W worlds, W the worlds the budget gives
  each candidate (`search.plan`);
- sequential halving plays `halving_rounds` over the same worlds, in order;
- the oracle is each candidate's mean over the further worlds, which neither method saw.

Positions where every candidate comes out the same to the oracle are left out of the comparison.
A method's regret at a position is the oracle's best mean less the oracle's mean of the
candidate it picked (in the evaluation's units: `features.evaluate`), 0 when it picked the
oracle's best. Prints the mean regret of each method with a 95% interval (bootstrap over the
positions), how often each picked the oracle's best, and the paired difference, then a JSON line.

    nice -n 10 .venv/bin/python bench/search_allocation.py --positions 150 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ai import DECK_PAIRS, MAX_DECISIONS
from dungeons.official import official_dungeons
from game.ai import decide
from game.ai.candidates import candidate_answers
from game.ai.policy import Policy
from game.ai.search import SEARCHED, Clock, _rank, _try, plan
from game.decks import STARTER_DECKS
from game.engine.game import Engine, GameSetup, replay

# Every this many decisions of a game, at most one position is kept (positions a few decisions
# apart are alike).
SPACING = 6


def halving_rounds(n_candidates: int, worlds: int) -> list[int]:
    """The new worlds each round of sequential halving plays, for `n_candidates` candidates and
    the budget of `worlds` worlds for each: every round plays its share of the budget over the
    candidates left and keeps the better half, until two are left (Karnin, Koren and Somekh,
    2013). With a budget too small for two worlds a candidate in the first round, one round plays
    every candidate in every world (the even share)."""
    left = [n_candidates]
    while left[-1] > 2:
        left.append(-(-left[-1] // 2))
    budget = worlds * n_candidates
    share = budget // len(left)
    if len(left) == 1 or share // n_candidates < 2:
        return [worlds]
    rounds = [share // n for n in left[:-1]]
    used = sum(r * n for r, n in zip(rounds, left, strict=False))
    rounds.append((budget - used) // left[-1])
    assert sum(r * n for r, n in zip(rounds, left, strict=True)) <= budget
    return rounds


def positions_of_deal(task: tuple[int, int]) -> list[tuple[GameSetup, list, str, int]]:
    """The positions of deal k's game where Hard's search halves: (setup, answers, seat, seed)."""
    k, seed_base = task
    deck_a, deck_b = DECK_PAIRS[k % len(DECK_PAIRS)]
    seed = seed_base + k
    decks = {"alice": STARTER_DECKS[deck_a], "bob": STARTER_DECKS[deck_b]}
    game = Engine(GameSetup(["alice", "bob"], seed, decks, official_dungeons()))
    out = []
    last = -SPACING
    n = 0
    while game.pending is not None and n < MAX_DECISIONS:
        d = game.pending
        decision_seed = seed * 100003 + n
        if d.kind in SEARCHED and n - last >= SPACING and _halves(game, d.player, decision_seed):
            out.append((game.setup, list(game.answers), d.player, decision_seed))
            last = n
        game.answer(d.player, decide("medium", game, d.player, decision_seed))
        n += 1
    return out


def _halves(game: Engine, seat: str, seed: int) -> bool:
    d = game.pending
    assert d is not None
    medium = Policy(seat, random.Random(seed)).answer(game)
    candidates = candidate_answers(game, seat, d, medium)
    if len(candidates) <= 2:
        return False
    _, kept, worlds, _ = plan(game, seat, candidates, random.Random(seed), Clock(None), [])
    return len(kept) > 2 and len(halving_rounds(len(kept), worlds)) > 1


def table(task: tuple[GameSetup, list, str, int, int]) -> dict:
    """Each candidate's outcome in the search's worlds and in the oracle's."""
    setup, answers, seat, seed, oracle = task
    game = replay(setup, answers)
    d = game.pending
    assert d is not None
    rng = random.Random(seed)
    medium = Policy(seat, random.Random(seed)).answer(game)
    candidates = candidate_answers(game, seat, d, medium)
    fork, kept, even, world_seeds = plan(game, seat, candidates, rng, Clock(None), [])
    rounds = halving_rounds(len(kept), even)
    # The worlds past the even share's are drawn on from the search's own stream.
    world_seeds += [rng.getrandbits(64) for _ in range(sum(rounds) - len(world_seeds))]
    searched = [
        [_try(fork, game, seat, a, w, world_seeds[w], Clock(None)) for w in range(sum(rounds))]
        for a in kept
    ]
    fresh = random.Random(seed ^ 0x5EED)
    oracle_seeds = [fresh.getrandbits(64) for _ in range(oracle)]
    judged = [
        statistics.fmean(
            _try(fork, game, seat, a, w, oracle_seeds[w], Clock(None)) for w in range(oracle)
        )
        for a in kept
    ]
    return {"searched": searched, "oracle": judged, "rounds": rounds, "even": even}


def even_pick(t: dict) -> int:
    totals = [sum(row[: t["even"]]) for row in t["searched"]]
    return min(range(len(totals)), key=lambda i: _rank(totals, i))


def halving_pick(t: dict) -> int:
    rows = t["searched"]
    alive = list(range(len(rows)))
    totals = [0.0] * len(rows)
    w = 0
    for r, new_worlds in enumerate(t["rounds"]):
        for _ in range(new_worlds):
            for i in alive:
                totals[i] += rows[i][w]
            w += 1
        if r < len(t["rounds"]) - 1:
            alive = sorted(alive, key=lambda i: _rank(totals, i))[: -(-len(alive) // 2)]
    return min(alive, key=lambda i: _rank(totals, i))


def _interval(xs: list[float], rng: random.Random, n: int = 2000) -> tuple[float, float]:
    means = sorted(statistics.fmean(rng.choices(xs, k=len(xs))) for _ in range(n))
    return means[int(0.025 * n)], means[int(0.975 * n) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--oracle", type=int, default=30, help="the oracle's worlds")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    pool = multiprocessing.get_context("fork").Pool(max(1, args.jobs))
    found: list[tuple] = []
    k = 0
    while len(found) < args.positions:
        batch = pool.map(positions_of_deal, [(k + i, args.seed) for i in range(args.jobs * 2)])
        k += args.jobs * 2
        for got in batch:
            found.extend(got)
    found = found[: args.positions]
    tables = pool.map(table, [(*p, args.oracle) for p in found])
    pool.close()
    # Where every candidate comes out the same (two copies of a land to play, say), any pick is
    # right: those positions are counted, not compared.
    differing = [t for t in tables if max(t["oracle"]) - min(t["oracle"]) > 1e-6]
    regret: dict[str, list[float]] = {"even": [], "halving": []}
    hit: dict[str, int] = {"even": 0, "halving": 0}
    for t in differing:
        best = max(t["oracle"])
        for name, pick in (("even", even_pick(t)), ("halving", halving_pick(t))):
            regret[name].append(best - t["oracle"][pick])
            hit[name] += t["oracle"][pick] == best
    rng = random.Random(0)
    diff = [e - h for e, h in zip(regret["even"], regret["halving"], strict=True)]
    out = {
        "positions": len(tables),
        "differing": len(differing),
        "deals": k,
        "oracle_worlds": args.oracle,
        "mean_regret": {m: round(statistics.fmean(x), 4) for m, x in regret.items()},
        "regret_ci": {m: [round(v, 4) for v in _interval(x, rng)] for m, x in regret.items()},
        "picked_oracle_best": {m: round(h / len(differing), 4) for m, h in hit.items()},
        "even_minus_halving": round(statistics.fmean(diff), 4),
        "even_minus_halving_ci": [round(v, 4) for v in _interval(diff, rng)],
        "halving_better": sum(x > 0 for x in diff),
        "halving_worse": sum(x < 0 for x in diff),
    }
    for m in regret:
        print(
            f"{m}: mean regret {out['mean_regret'][m]} (95% {out['regret_ci'][m]}), "
            f"picked the oracle's best in {out['picked_oracle_best'][m]:.1%}",
            file=sys.stderr,
        )
    print(
        f"even - halving: {out['even_minus_halving']} (95% {out['even_minus_halving_ci']}); "
        f"halving better at {out['halving_better']}, worse at {out['halving_worse']} of "
        f"{len(differing)} positions where the candidates differ ({len(tables)} in all)",
        file=sys.stderr,
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
