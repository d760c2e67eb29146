"""Engine throughput benchmark: random games between the preset decks (every pairing in turn)
on one core.

Prints progress lines, then as its last line a JSON object with games_per_s, decisions_per_s,
replay_ms_per_1000 (time to rebuild a game from 1000 logged answers), longest_game_decisions,
and a same-run baseline (a fixed pure-Python workload) with the ratios against it, so figures
from different machines or runs can be compared (docs/performance.md).

    .venv/bin/python bench/engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dungeons.official import official_dungeons
from game.decks import STARTER_DECKS
from game.engine.bot import play_random_game
from game.engine.game import Engine, GameSetup, replay


def baseline_ops_per_s(rounds: int = 20000) -> float:
    """A fixed pure-Python workload (shuffle and sort a 40-card list) measured in this run."""
    rng = random.Random(0)
    deck = list(range(40))
    start = time.perf_counter()
    for _ in range(rounds):
        rng.shuffle(deck)
        deck.sort()
    return rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    dungeons = official_dungeons()
    pairings = list(itertools.permutations(STARTER_DECKS.values(), 2))
    baseline = baseline_ops_per_s()
    played: list[Engine] = []
    decisions = 0
    start = time.perf_counter()
    for i in range(args.games):
        alice, bob = pairings[i % len(pairings)]
        decks = {"alice": alice, "bob": bob}
        game = Engine(GameSetup(["alice", "bob"], args.seed + i, decks, dungeons))
        decisions += play_random_game(game, args.seed + i, max_decisions=50000)
        played.append(game)
    play_s = time.perf_counter() - start
    unfinished = sum(1 for g in played if not g.over)
    print(f"played {args.games} games, {decisions} decisions in {play_s:.2f}s", file=sys.stderr)
    start = time.perf_counter()
    for game in played:
        replay(game.setup, game.answers)
    replay_s = time.perf_counter() - start
    games_per_s = args.games / play_s
    result = {
        "games": args.games,
        "unfinished_games": unfinished,
        "games_per_s": round(games_per_s, 2),
        "decisions_per_s": round(decisions / play_s, 1),
        "replay_ms_per_1000": round(replay_s * 1000 / decisions * 1000, 2),
        "longest_game_decisions": max(len(g.answers) for g in played),
        "baseline_ops_per_s": round(baseline, 1),
        "ratio_games_per_baseline_kop": round(games_per_s / (baseline / 1000), 4),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
