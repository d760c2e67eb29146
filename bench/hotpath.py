"""The server's work per answer, in one quiet process, without sockets: what `bench/latency.py`'s
servers spend their CPU on, split into its parts.

    .venv/bin/python bench/hotpath.py [--answers 600] [--seed 1] [--profile out.prof]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/venture_hot .venv/bin/python bench/hotpath.py

Random games between the starter decks (a new one when a game ends) until `--answers` answers
are applied. After each answer, what the servers do for it: `services.submit_answer`, then for
each of the two players the render a connection makes (`board.load_board` + `board.render_board`,
changed fragments only, as `GameConsumer._render`). CPU time (`time.process_time`) of each part.
With `--profile FILE` the whole loop also runs under cProfile (slower; the times then include
the profiler's own cost).

The database is a temporary SQLite file (migrated here), or the one DATABASE_URL names
(migrated too: use a throwaway database). The last line is a JSON object: `answers`,
`answer_ms`, `render_ms` (one player's render), `per_answer_ms` (answer + two renders) and a
same-run `baseline_ops_per_s` (bench/engine.py's fixed workload), so runs on different machines
compare as `per_answer_ms` × baseline.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(folder: str) -> None:
    """Django as the servers run it (bench/_servers.server_env: DEBUG off), on a new database."""
    from bench import _servers

    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/hotpath.sqlite3"
    os.environ.update(_servers.server_env(url))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", "--noinput", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="also write a cProfile of the loop to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(folder)
        result = run(args.answers, args.seed, args.profile)
    print(json.dumps(result))


def run(answers: int, seed: int, profile_to: str | None) -> dict[str, object]:
    from bench._world import World
    from bench.engine import baseline_ops_per_s
    from game import board, services
    from game.engine.bot import random_answer
    from game.models import Game

    world = World(seed)
    rng = random.Random(seed)
    profiler = cProfile.Profile() if profile_to else None
    spent = {"answer": 0.0, "render": 0.0}
    done = renders = refused = 0

    def new_game() -> tuple[Game, dict[str, object]]:
        host, _ = world.player()
        guest, _ = world.player()
        code, _ = world.game(host, guest)
        game = Game.objects.get(code=code)
        by_name = {s.engine_name: s.player for s in game.seats.select_related("player")}
        return game, by_name

    game, players = new_game()
    if profiler:
        profiler.enable()
    while done < answers:
        game = Game.objects.get(pk=game.pk)
        with services.reading(game) as engine:
            d = engine.pending
            answer = random_answer(d, rng) if d is not None else None
        if d is None or game.status != Game.ACTIVE:
            game, players = new_game()
            continue
        start = time.process_time()
        try:
            services.submit_answer(game.pk, players[d.player], answer, version=game.version)
        except services.ActionRefused:
            refused += 1
            continue
        finally:
            spent["answer"] += time.process_time() - start
        done += 1
        for player in players.values():
            start = time.process_time()
            loaded, seats = board.load_board(game.pk)
            board.render_board(loaded, player, whole=False, base_url="http://x", seats=seats)
            spent["render"] += time.process_time() - start
            renders += 1
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile_to)
    answer_ms = spent["answer"] / done * 1000
    render_ms = spent["render"] / renders * 1000
    return {
        "answers": done,
        "refused": refused,
        "answer_ms": round(answer_ms, 3),
        "render_ms": round(render_ms, 3),
        "per_answer_ms": round(answer_ms + 2 * render_ms, 3),
        "baseline_ops_per_s": round(baseline_ops_per_s()),
    }


if __name__ == "__main__":
    main()
