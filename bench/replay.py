"""Replay benchmark: opening a game's replay and stepping through it, for games of 1000 answers.

Each game is played by the random bot to 1000 answers (then conceded, so it is finished and its
replay shows both hands) and written to a fresh SQLite database as the services write it. Then,
through Django's request handling in this process (routing, view, database, render: what a
request costs the server, without the network):

- open: the replay page at a random point with no timeline of the game in the process (the
  first viewer after a restart: the log read, the game rebuilt once, the page rendered);
- step: from there, what the page's buttons ask (the part of the page that changes): forward
  a few answers, then back far enough to cross the views kept and a snapshot or two, and jumps
  to a random point (the scrub bar).

Prints progress, then as its last line a JSON object: open_ms and step_ms (p50, p95, max),
step_forward_ms, step_back_ms and jump_ms (p50, p95), open_cpu_ms and step_cpu_ms (the same
requests' CPU time, p50 and p95), replay_1000_ms (the plain engine rebuilding
the same games from their logs, p50), and a same-run baseline (bench/engine.py's fixed
pure-Python workload) with the ratios against it (docs/performance.md).

    .venv/bin/python bench/replay.py [--games N] [--opens N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ANSWERS = 1000
FORWARD, BACK, JUMPS = 5, 40, 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--opens", type=int, default=8, help="opens per game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    db = Path(tempfile.mkdtemp(prefix="venture-replay-bench-")) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "game.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from bench._stats import ms, quantile
    from bench.engine import baseline_ops_per_s
    from game import services
    from game.engine.game import replay

    call_command("migrate", verbosity=0)
    from game.runtime import gc_tuning

    gc_tuning.tune()  # as a server process does (game/asgi.py)
    baseline = baseline_ops_per_s()
    games = [_game(args.seed + i) for i in range(args.games)]
    print(f"{len(games)} games of {ANSWERS} answers written to {db}", file=sys.stderr)

    replays = []
    for game, answers in games:
        setup = services.engine_setup(game)
        start = time.perf_counter()
        replay(setup, answers)
        replays.append(time.perf_counter() - start)

    client = Client()
    rng = random.Random(args.seed)
    opens, forward, back, jumps = [], [], [], []
    cpu_opens, cpu_steps = [], []

    def get(url: str, point: bool) -> float:
        headers = {"HTTP_X_REPLAY_POINT": "1"} if point else {}
        start, cpu = time.perf_counter(), time.process_time()
        response = client.get(url, HTTP_HOST="127.0.0.1", **headers)
        took = time.perf_counter() - start
        (cpu_steps if point else cpu_opens).append(time.process_time() - cpu)
        assert response.status_code == 200, (url, response.status_code)
        return took

    for game, answers in games:
        base = f"/g/{game.code}/replay/?at="
        last = len(answers)
        for _ in range(args.opens):
            services.clear_timelines()
            k = rng.randrange(BACK, last - FORWARD)
            opens.append(get(base + str(k), point=False))
            for j in range(1, FORWARD + 1):
                forward.append(get(base + str(k + j), point=True))
            for j in range(FORWARD - 1, FORWARD - BACK - 1, -1):
                back.append(get(base + str(k + j), point=True))
            for _ in range(JUMPS):
                jumps.append(get(base + str(rng.randrange(last + 1)), point=True))
        print(f"game {game.code}: {args.opens} opens", file=sys.stderr)

    steps = forward + back + jumps
    p95_open = quantile(opens, 0.95)
    result = {
        "games": len(games),
        "answers_per_game": ANSWERS,
        "opens": len(opens),
        "steps": len(steps),
        "open_ms": {"p50": ms(quantile(opens, 0.5)), "p95": ms(p95_open), "max": ms(max(opens))},
        "step_ms": {
            "p50": ms(quantile(steps, 0.5)),
            "p95": ms(quantile(steps, 0.95)),
            "max": ms(max(steps)),
        },
        "step_forward_ms": {"p50": ms(quantile(forward, 0.5)), "p95": ms(quantile(forward, 0.95))},
        "step_back_ms": {"p50": ms(quantile(back, 0.5)), "p95": ms(quantile(back, 0.95))},
        "jump_ms": {"p50": ms(quantile(jumps, 0.5)), "p95": ms(quantile(jumps, 0.95))},
        # The same requests' CPU time in this process: what they cost, whatever else the
        # machine's cores were doing meanwhile (wall time above includes waiting for a core).
        "open_cpu_ms": {"p50": ms(quantile(cpu_opens, 0.5)), "p95": ms(quantile(cpu_opens, 0.95))},
        "step_cpu_ms": {"p50": ms(quantile(cpu_steps, 0.5)), "p95": ms(quantile(cpu_steps, 0.95))},
        "replay_1000_ms": ms(quantile(replays, 0.5)),
        "baseline_ops_per_s": round(baseline, 1),
        # Milliseconds scaled by the machine's speed this run: comparable across runs.
        "ratio_open_p95_x_baseline_kop": round(p95_open * 1000 * baseline / 1000 / 1000, 3),
        "targets": {"open_p95_ms": 300, "step_p95_ms": 50},
    }
    print(json.dumps(result))


def _game(seed: int):
    """A finished game of exactly ANSWERS answers between two preset decks, in the database as
    the services write one: started by them, its log one row per answer."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from game import services
    from game.decks import STARTER_DECKS
    from game.engine.bot import random_answer
    from game.engine.decisions import IllegalAnswer
    from game.engine.game import Engine
    from game.models import Game, GameAction, Player
    from game.services import lifecycle

    decks = list(STARTER_DECKS.values())
    for attempt in range(50):
        players = []
        for role in ("a", "b"):
            user = get_user_model().objects.create_user(username=f"{role}-{seed}-{attempt}")
            players.append(Player.objects.create(user=user, display_name=f"{role}{seed}"))
        game = services.create_game(players[0], deck_name="one", deck=list(decks[seed % 3]))
        # A whole-number shuffle seed, so a run plays the same games (a game between people
        # has a secret one; the replay's work is the same).
        with mock.patch.object(lifecycle, "new_secret_seed", return_value=seed * 100 + attempt):
            services.join_game(
                game.pk, players[1], deck_name="two", deck=list(decks[(seed + 1) % 3])
            )
        game.refresh_from_db()
        engine = Engine(services.engine_setup(game))
        rng = random.Random(seed * 100 + attempt)
        while engine.pending is not None and len(engine.answers) < ANSWERS - 1:
            d = engine.pending
            try:
                engine.answer(d.player, random_answer(d, rng))
            except IllegalAnswer:
                engine.answer(d.player, [] if d.multi else d.options[0].id)
        if engine.over:  # ended early: another game
            game.delete()
            continue
        seats = {s.engine_name: s for s in game.seats.all()}
        engine.concede(game.seats.get(position=1).engine_name)
        GameAction.objects.bulk_create(
            GameAction(game=game, index=i, seat=seats[who], answer=answer)
            for i, (who, answer) in enumerate(engine.answers)
        )
        Game.objects.filter(pk=game.pk).update(
            version=len(engine.answers),
            status=Game.FINISHED,
            finished=timezone.now(),
            winner=engine.state.winner or "",
            end_reason=engine.state.end_reason,
            turn=engine.state.turn,
            deciding="",
        )
        game.refresh_from_db()
        services.clear_engine_cache()
        return game, list(engine.answers)
    raise RuntimeError("no game of 1000 answers in 50 tries")


if __name__ == "__main__":
    main()
