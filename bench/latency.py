"""Action latency over real websockets, against a bare Channels echo in the same run.

    .venv/bin/python bench/latency.py [--games 50] [--pace 2] [--duration 60] [--scale]

Starts its own servers on free ports of 127.0.0.1 and its own database, then plays `--games`
games at once with bots over real websockets, as two browsers per game would:

- embedded (default): one Daphne process, SQLite (WAL) in a temporary folder, the in-memory
  channel layer: Venture as `make run` serves it;
- `--scale`: PostgreSQL + Redis (started when they are down) and two Daphne processes; the two
  players of a game are on different processes, as behind a load balancer without sticky
  sessions.

Each bot answers whatever its page offers, choosing uniformly among the options, after a think
time drawn uniformly from [pace/2, 3*pace/2] (`--pace 2`: an answer every 1-3 s, a person's pace;
`--pace 0`: at once). The latency of an action runs from sending it until both players' sockets
have shown the new version. A game that ends is replaced by a new one: once every table is
connected, by one of the `--spares` games made before the tables connected (a game between two
other players, who take the table over), so that this process does not make a game, the 500
random answers of a long one included, while it measures; only when they run out is one made
then (`games_made_measuring` counts those).

The baseline: pairs of sockets on `bench.asgi`'s echo route, on the same processes (one socket
of a pair on each process with --scale), sending at the same pace; a message goes through the
channel layer group back to both sockets, the path of an action without the game.

Some games start from a log already `--long-at` answers long (`--long-fraction`), so that the
cost of an action late in a game (answers 500-599) can be set against an early one (10-109).
`replay_1000_ms` times rebuilding a game from a 1000-answer log in the database
(services.replay_game: the whole cost of a cache miss), with the servers idle.

Progress goes to stderr; the last line is a JSON object: games, actions, p50_ms, p99_ms,
echo_p50_ms, echo_p99_ms, ratio_p50, ratio_p99, errors and more (docs/performance.md), among
them the servers' CPU per action and how fast the machine was before and after the run
(`baseline_before_ops_per_s`, `baseline_ops_per_s`: bench/engine.py's fixed workload).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import _servers  # noqa: E402
from bench._client import Outcome, Seat, Table, connect_all  # noqa: E402
from bench._stats import cpu_seconds, ms, quantile  # noqa: E402
from bench._world import World  # noqa: E402

EARLY = (10, 110)  # versions of "an early action" (answer 10 on) ...
LATE = (500, 600)  # ... and of "a late action" (answer 500 on)


def log(message: str) -> None:
    print(f"[latency {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# the run ----------------------------------------------------------------------------------------
@dataclass
class Sample:
    at: float  # seconds since the measurement started
    version: int  # the game's version the action was made on
    latency: float


@dataclass
class Results:
    actions: list[Sample] = field(default_factory=list)
    echoes: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    bot_refusals: int = 0  # random multi-selects the rules refused (retried with the fewest)
    games_finished: int = 0
    games_made_measuring: int = 0  # replacements made while measuring (no spare was left)


class Run:
    def __init__(self, args: argparse.Namespace, servers: list[_servers.Daphne], world: World):
        self.args = args
        self.servers = servers
        self.world = world
        self.rng = random.Random(args.seed)
        self.results = Results()
        self.measuring_since: float | None = None
        self.stopping = False
        self.db = asyncio.Semaphore(1)  # the ORM of this process, one call at a time
        self.connected = 0
        self.all_connected = asyncio.Event()
        self.connect_s = 0.0
        # Games made before the tables connect, for tables whose game ends afterwards: by long
        # (True) or not, each a started game's code and its two players (each with a cookie).
        self.spares: dict[bool, list[tuple[str, list[tuple[Any, str]]]]] = {True: [], False: []}

    def recording(self) -> bool:
        return self.measuring_since is not None and not self.stopping

    def think(self) -> float:
        pace = self.args.pace
        return self.rng.uniform(pace / 2, pace * 3 / 2) if pace > 0 else 0.0

    async def orm(self, fn, *args, **kwargs):
        async with self.db:
            return await asyncio.to_thread(fn, *args, **kwargs)

    def seat(self, n: int, game: int, code: str, cookie: str, name: str) -> Seat:
        return Seat.player(self.servers[(game + n) % len(self.servers)], code, cookie, name)

    async def table_loop(self, n: int, players: list[tuple[Any, str]], long: bool) -> None:
        rng = random.Random(self.rng.random())
        while not self.stopping:
            if self.all_connected.is_set() and self.spares[long]:
                # Making a game here (for a long one: 650 random answers, 0.2-0.4 s of this
                # process's time) would hold up every bot's reading of its socket: the servers'
                # latency would include the benchmark's own set-up.
                code, players = self.spares[long].pop()
            else:
                if self.recording():
                    self.results.games_made_measuring += 1
                code = await self.new_game(players, long)
            seats = [
                self.seat(i, n, code, cookie, player.display_name)
                for i, (player, cookie) in enumerate(players)
            ]
            failed = await connect_all(seats)
            if failed:
                self.results.errors.append(f"game {n}: connect failed: {failed}")
                await asyncio.sleep(1)
                continue
            if not self.all_connected.is_set():
                self.connected += 1
                if self.connected == self.args.games:
                    self.all_connected.set()
            table = Table(seats, rng, timeout=self.args.timeout)
            try:
                await self.play(table)
            finally:
                for s in seats:
                    await s.close()
            if table.over:
                self.results.games_finished += 1

    async def new_game(self, players: list[tuple[Any, str]], long: bool) -> str:
        played = self.args.long_at if long else 0
        code, _ = await self.orm(self.world.game, players[0][0], players[1][0], played=played)
        return code

    async def make_spares(self, n_long: int) -> None:
        args = self.args
        long_spares = round(args.spares * n_long / args.games) if args.games else 0
        for long, count in ((True, long_spares), (False, args.spares - long_spares)):
            for _ in range(count):
                pair = [await self.orm(self.world.player) for _ in range(2)]
                self.spares[long].append((await self.new_game(pair, long), pair))

    async def play(self, table: Table) -> None:
        while not self.stopping:
            pending = await table.next_choice(timeout=self.args.timeout)
            if pending is None:
                if not table.over and self.recording():
                    closed = [s.name for s in table.seats if s.closed]
                    self.results.errors.append(
                        f"nothing offered (closed: {closed})" if closed else "nothing offered"
                    )
                return
            seat, choice = pending
            await asyncio.sleep(self.think())
            if self.stopping:
                return
            outcome: Outcome = await table.answer(seat, choice)
            if not self.recording():
                if outcome.error:
                    return
                continue
            if outcome.latency is not None:
                assert self.measuring_since is not None
                at = time.monotonic() - self.measuring_since
                self.results.actions.append(Sample(at, outcome.version, outcome.latency))
            elif outcome.refused and choice.kind == "multi":
                self.results.bot_refusals += 1
            else:
                self.results.errors.append(outcome.refused or outcome.error)
                if outcome.error:
                    return

    async def echo_loop(self, n: int) -> None:
        """Two sockets of one echo pair; one sends, both must get it back."""
        seats = []
        for i in range(2):
            server = self.servers[(n + i) % len(self.servers)]
            seats.append(Seat(f"{server.ws_base}/ws/echo/pair{n}/", server.base))
        got: list[dict[str, float]] = [{}, {}]

        async def read(i: int) -> None:
            assert seats[i].ws is not None
            async for frame in seats[i].ws:
                got[i][frame] = time.monotonic()
                event.set()

        event = asyncio.Event()
        from websockets.asyncio.client import connect

        for s in seats:
            s.ws = await connect(s.url, origin=s.origin, compression=None, ping_interval=None)
        readers = [asyncio.create_task(read(i)) for i in range(2)]
        seq = 0
        try:
            while not self.stopping:
                await asyncio.sleep(self.think())
                seq += 1
                text = f"{n}:{seq}"
                sent = time.monotonic()
                await seats[seq % 2].ws.send(text)
                deadline = sent + self.args.timeout
                while not all(text in g for g in got) and time.monotonic() < deadline:
                    event.clear()
                    try:
                        await asyncio.wait_for(event.wait(), deadline - time.monotonic())
                    except TimeoutError:
                        break
                if not all(text in g for g in got):
                    if self.recording():
                        self.results.errors.append(f"echo {n}: no echo in time")
                    continue
                if self.recording():
                    self.results.echoes.append(max(g.pop(text) for g in got) - sent)
                else:
                    for g in got:
                        g.pop(text, None)
        finally:
            for s in seats:
                await s.ws.close()
            for r in readers:
                r.cancel()

    async def main(self) -> None:
        args = self.args
        players = []
        for _ in range(args.games):
            pair = [await self.orm(self.world.player) for _ in range(2)]
            players.append(pair)
        n_long = round(args.games * args.long_fraction)
        await self.make_spares(n_long)
        log(
            f"{args.games} tables ({n_long} starting at answer {args.long_at}), echo pairs: "
            f"{args.echo_pairs}, spare games: {args.spares}"
        )
        tasks = [
            asyncio.create_task(self.table_loop(i, players[i], long=i < n_long))
            for i in range(args.games)
        ]
        tasks += [asyncio.create_task(self.echo_loop(i)) for i in range(args.echo_pairs)]
        # Measure the steady state: every table connected (each connection costs its process a
        # full render, and a replay for a long game it has not seen), then a warm-up.
        started = time.monotonic()
        try:
            await asyncio.wait_for(self.all_connected.wait(), 300)
        except TimeoutError:
            self.results.errors.append(f"only {self.connected} of {args.games} tables connected")
        self.connect_s = time.monotonic() - started
        log(f"{self.connected} tables connected in {self.connect_s:.1f} s; warming up")
        await asyncio.sleep(args.warmup)
        log(f"measuring for {args.duration:.0f} s")
        self.measuring_since = time.monotonic()
        cpu_before = cpu_seconds(self.servers)
        await asyncio.sleep(args.duration)
        self.cpu = {k: v - cpu_before.get(k, 0.0) for k, v in cpu_seconds(self.servers).items()}
        self.stopping = True
        log("stopping")
        done, pending = await asyncio.wait(tasks, timeout=args.timeout + 10)
        for t in pending:
            t.cancel()
        for t in done:
            if t.exception() is not None:
                self.results.errors.append(f"bot crashed: {t.exception()!r}")


def summary(
    args: argparse.Namespace,
    run: Run,
    replay: tuple[float, int],
    baseline: float | None = None,
    baseline_before: float | None = None,
) -> dict[str, Any]:
    r = run.results
    cpu = getattr(run, "cpu", {})
    server_cpu = sum(v for k, v in cpu.items() if k.startswith("server"))
    lat = [s.latency for s in r.actions]
    early = [s.latency for s in r.actions if EARLY[0] <= s.version < EARLY[1]]
    late = [s.latency for s in r.actions if LATE[0] <= s.version < LATE[1]]
    p50, p99 = quantile(lat, 0.5), quantile(lat, 0.99)
    e50, e99 = quantile(r.echoes, 0.5), quantile(r.echoes, 0.99)
    p99_early, p99_late = quantile(early, 0.99), quantile(late, 0.99)
    return {
        "mode": "scale" if args.scale else "embedded",
        "processes": 2 if args.scale else 1,
        "pace_s": args.pace,
        "duration_s": args.duration,
        "games": args.games,
        "actions": len(lat),
        "actions_per_s": round(len(lat) / args.duration, 2),
        "p50_ms": ms(p50),
        "p90_ms": ms(quantile(lat, 0.9)),
        "p99_ms": ms(p99),
        "max_ms": ms(max(lat) if lat else None),
        "echo_samples": len(r.echoes),
        "echo_p50_ms": ms(e50),
        "echo_p99_ms": ms(e99),
        "ratio_p50": round(p50 / e50, 2) if p50 and e50 else None,
        "ratio_p99": round(p99 / e99, 2) if p99 and e99 else None,
        "early_actions": len(early),
        "late_actions": len(late),
        "p99_early_ms": ms(p99_early),
        "p99_late_ms": ms(p99_late),
        "ratio_late_early_p99": round(p99_late / p99_early, 2) if p99_late and p99_early else None,
        "replay_1000_ms": round(replay[0], 1),
        "connect_s": round(run.connect_s, 1),
        "games_finished": r.games_finished,
        "games_made_measuring": r.games_made_measuring,
        "bot_refusals": r.bot_refusals,
        "cpu_s": {k: round(v, 1) for k, v in cpu.items()},
        "server_cpu_ms_per_action": round(server_cpu / len(lat) * 1000, 2) if lat else None,
        "baseline_ops_per_s": round(baseline) if baseline else None,
        "baseline_before_ops_per_s": round(baseline_before) if baseline_before else None,
        "errors": len(r.errors),
        "error_kinds": dict(Counter(re.sub(r"\d+", "N", e)[:80] for e in r.errors)),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    p.add_argument(
        "--pace", type=float, default=2.0, help="mean think time in s (default 2: 1-3 s)"
    )
    p.add_argument("--scale", action="store_true", help="PostgreSQL + Redis + two Daphnes")
    p.add_argument("--duration", type=float, default=60, help="measured seconds (default 60)")
    p.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    p.add_argument("--long-fraction", type=float, default=0.5, help="games starting long")
    p.add_argument("--long-at", type=int, default=500, help="their log's length (default 500)")
    p.add_argument("--echo-pairs", type=int, default=None, help="default max(5, games/4)")
    p.add_argument(
        "--spares",
        type=int,
        default=None,
        help="games made ahead for tables whose game ends (default max(4, games/10))",
    )
    p.add_argument("--timeout", type=float, default=15, help="seconds an update may take")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", type=Path, help="write every latency to this JSON file")
    p.add_argument("--keep", type=Path, help="keep the servers' logs in this folder")
    args = p.parse_args(argv)
    if args.echo_pairs is None:
        args.echo_pairs = max(5, args.games // 4)
    if args.spares is None:
        args.spares = max(4, args.games // 10)
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="venture-latency-"))
    logs = args.keep or work
    dbname = None
    if args.scale:
        for ensure in (_servers.ensure_postgres, _servers.ensure_redis):
            reason = ensure()
            if reason is not None:
                sys.exit(f"--scale needs PostgreSQL and Redis: {reason}")
        dbname = _servers.unique_name("venture_latency")
        env = _servers.server_env(
            _servers.create_database(dbname),
            _servers.redis_url(0),
            _servers.unique_name("venture_latency"),
        )
    else:
        env = _servers.server_env(f"sqlite:///{work / 'venture.sqlite3'}")
    servers: list[_servers.Daphne] = []
    try:
        log(f"migrating ({'PostgreSQL' if args.scale else 'SQLite'})")
        _servers.manage(env, "migrate", "--noinput")
        os.environ.update(env)
        import django

        django.setup()
        world = World(args.seed)
        # How fast this machine is before the run and (below) after it: bench/engine.py's
        # fixed workload. The machines of this workplace differ, and one machine from one
        # minute to the next, by up to 2x; the two figures tell runs taken at different speeds
        # apart, and a run whose machine slowed down (or sped up) while it ran.
        from bench.engine import baseline_ops_per_s

        before = baseline_ops_per_s()
        for i in range(2 if args.scale else 1):
            servers.append(
                _servers.Daphne(env, logs / f"daphne-{i + 1}.log", app="bench.asgi:application")
            )
            servers[-1].start()
        log(f"servers: {', '.join(s.base for s in servers)}")
        run = Run(args, servers, world)
        # The bots of every table share this one process (400 sockets at 200 games): its own
        # garbage collector's pauses would count as the servers' latency. It runs as the
        # servers do (the same settings): what is loaded frozen, young collections rarer.
        from game.runtime import gc_tuning

        gc_tuning.tune()
        asyncio.run(run.main())
        for s in servers:
            s.stop()
        replay = world.replay_ms()
        result = summary(args, run, replay, baseline_ops_per_s(), before)
        for e in run.results.errors[:10]:
            log(f"error: {e}")
        if args.samples:
            args.samples.write_text(
                json.dumps(
                    {
                        "result": result,
                        "actions": [
                            [round(s.at, 3), s.version, s.latency] for s in run.results.actions
                        ],
                        "echoes": run.results.echoes,
                    }
                )
            )
        print(json.dumps(result), flush=True)
        return result
    finally:
        for s in servers:
            s.stop()
        if dbname:
            from django.db import connections

            connections.close_all()
            _servers.drop_database(dbname)


if __name__ == "__main__":
    main()
