"""Hard's combat decisions with and without the combat calculator as their pruner.

Where an attack or block decision has more candidates than the search keeps (search.py), they
are pruned before any world is sampled. This bench finds such decisions (`--kind blocks` or
`attacks`) in seeded games between Medium and Medium over the preset decks, then answers each
with Hard's search twice, in turn, in the same process: as it is (the combat calculator scores
every candidate, `search.PRUNERS`), and with the pruner taken out (each candidate looked at
one step ahead in a sampled world, the default for other kinds). No deadline, so both answers
depend on the position alone. Prints one line per decision, then a JSON last line:

    {"kind", "decisions", "answer": {...the whole search, as "prune"...}, "same_answer",
     "prune": {"calculator": {"p50", "p95", "max", "total_s"}, "look_ahead": {...}},
     "baseline_ops_per_s"}

The prune's own time is what the calculator saves; the search spends it on more sampled worlds
(its budget no longer pays for the looks), so the whole answer takes about as long.

    nice -n 5 .venv/bin/python bench/combat_pruning.py [--kind blocks] [--decisions 40] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._stats import ms, quantile
from bench.engine import baseline_ops_per_s
from dungeons.official import official_dungeons
from game.ai import decide, search
from game.ai.candidates import candidate_answers
from game.ai.copies import Fork
from game.decks import STARTER_DECKS
from game.engine import kinds
from game.engine.game import Engine, GameSetup, replay

KINDS = {"blocks": kinds.DECLARE_BLOCKERS, "attacks": kinds.DECLARE_ATTACKERS}


def combat_decisions(kind: str, n: int, seed: int) -> list[Engine]:
    """Up to `n` decisions of `kind` with more candidates than the search keeps, from seeded
    games of Medium against Medium (deck pair k of the ordered pairs for game k)."""
    decks = list(STARTER_DECKS.values())
    found: list[Engine] = []
    k = 0
    while len(found) < n and k < 40 * n:
        setup = GameSetup(
            ["alice", "bob"],
            seed + k,
            {"alice": list(decks[k % 4]), "bob": list(decks[(k // 4) % 4])},
            official_dungeons(),
        )
        game = Engine(setup)
        steps = 0
        while game.pending is not None and steps < 4000 and len(found) < n:
            d = game.pending
            answer = decide("medium", game, d.player, seed * 1000 + steps)
            if d.kind == kind:
                many = candidate_answers(game, d.player, d, answer)
                if len(many) > search.MAX_CANDIDATES:
                    found.append(replay(game.setup, game.answers))
            game.answer(d.player, answer)
            steps += 1
        k += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", choices=sorted(KINDS), default="blocks")
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    baseline = baseline_ops_per_s()
    kind = KINDS[args.kind]
    positions = combat_decisions(kind, args.decisions, args.seed)
    pruner = search.PRUNERS[kind]
    prune_times: dict[str, list[float]] = {"calculator": [], "look_ahead": []}
    times: dict[str, list[float]] = {"calculator": [], "look_ahead": []}
    same = 0
    for i, game in enumerate(positions):
        d = game.pending
        assert d is not None
        medium = decide("medium", game, d.player, i)
        candidates = candidate_answers(game, d.player, d, medium)
        answers = {}
        for name in times:  # in turn, so both meet the same load
            if name == "look_ahead":
                del search.PRUNERS[kind]
            try:
                fork = Fork(game)
                start = time.perf_counter()
                search.prune(fork, game, d.player, candidates, i, search.Clock(None), [])
                prune_times[name].append(time.perf_counter() - start)
                start = time.perf_counter()
                answers[name] = search.search_answer(game, d.player, i)
                times[name].append(time.perf_counter() - start)
            finally:
                search.PRUNERS[kind] = pruner
        same += answers["calculator"] == answers["look_ahead"]
        print(
            f"{i}: {len(candidates)} candidates; pruned in "
            f"{prune_times['calculator'][-1] * 1000:.1f} ms by the calculator, "
            f"{prune_times['look_ahead'][-1] * 1000:.1f} ms looking ahead; answered in "
            f"{times['calculator'][-1] * 1000:.0f} and {times['look_ahead'][-1] * 1000:.0f} ms; "
            f"{'the same' if answers['calculator'] == answers['look_ahead'] else 'a different'}"
            " answer",
            file=sys.stderr,
        )

    def summary(values: list[float]) -> dict[str, float | None]:
        return {
            "p50": ms(quantile(values, 0.5)),
            "p95": ms(quantile(values, 0.95)),
            "max": ms(max(values, default=None)),
            "total_s": round(sum(values), 2),
        }

    print(
        json.dumps(
            {
                "kind": args.kind,
                "decisions": len(positions),
                "prune": {name: summary(values) for name, values in prune_times.items()},
                "answer": {name: summary(values) for name, values in times.items()},
                "same_answer": same,
                "baseline_ops_per_s": round(baseline, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
