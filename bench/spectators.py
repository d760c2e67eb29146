"""Spectators flooding a server: what 400 spectator sockets, each sending as fast as its
connection's rate limit lets it, do to the latency of the other games' actions
(docs/security.md, "Per client").

    .venv/bin/python bench/spectators.py [--games 10] [--spectators 400] [--rate 20]
                                         [--duration 30] [--pace 0.5] [--one-client]

Starts Venture as `make run` serves it (one Daphne process, SQLite in WAL mode in a temporary
folder, the in-memory channel layer) on a free port and plays `--games` games with bots over
real websockets (bench/_client.py), each answering whatever its page offers after a think time
drawn from [pace/2, 3*pace/2]. An action's latency runs from sending it until both players'
sockets show the new version (bench/latency.py's measure).

Two phases in one run, on the same server and games:

1. baseline: the games alone, for `--duration` seconds;
2. flood: a separate process opens `--spectators` sockets on the watch link of game 0 (which
   the bots keep playing) and each sends a well-formed action (a concession) `--rate` times a
   second, reading whatever comes back; the games' latency is measured again for
   `--duration` seconds.

The latency reported is that of the games nobody watches ("another game's"); the watched
game's own is reported beside it. Without `--one-client` the flood is as many clients as
sockets (anonymous sockets, the per-address limits lifted as for every benchmark: they all come
from 127.0.0.1); with it, the flood comes from one other address (127.0.0.2) under the deployed
per-address limits (VENTURE_WS_SOCKETS_PER_ADDRESS, VENTURE_WS_ADDRESS_RATE), so most of its
sockets are turned away and most of its messages dropped.

Progress goes to stderr; the last line is a JSON object: p50/p99 of both phases, their ratio
(`ratio_p99`), the spectator sockets accepted and refused, the messages they sent and what they
were answered, and the server's CPU in each phase. The exit status is 1 when there were errors.
A benchmark, not a test: no test command times it (tests/reliability/test_bench_spectators.py,
part of `make test-all`, runs it at a tiny size to see that it still works).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import _servers  # noqa: E402
from bench._client import Seat, Table, connect_all  # noqa: E402
from bench._stats import cpu_seconds, ms, quantile  # noqa: E402
from bench._world import World  # noqa: E402

ATTACKER_ADDRESS = "127.0.0.2"  # --one-client: the flood's own address (all of 127/8 is local)


def log(message: str) -> None:
    print(f"[spectators {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# the flood: its own process, so that its work never delays the bots' reading ------------------
async def flood(url: str, origin: str, sockets: int, rate: float, local: str | None) -> None:
    """Open `sockets` spectator sockets, each sending a concession `rate` times a second, until
    stdin closes; then print what happened as JSON."""
    from websockets.asyncio.client import connect

    stats = {"accepted": 0, "refused": 0, "failed": 0, "sent": 0, "replies": 0, "closed": 0}
    said: dict[str, int] = {}
    stop = asyncio.Event()
    message = json.dumps(
        {"action": "concede", "version": "0", "action_id": "x", "HEADERS": {"HX-Request": "1"}}
    )

    async def one(n: int) -> None:
        # A socket the server closes is opened again at once, as an attacker would.
        first_time = True
        while not stop.is_set():
            if not await socket(first_time):
                return
            first_time = False
            if not stop.is_set():
                stats["closed"] += 1

    async def socket(first_time: bool) -> bool:
        """One socket's life; False when the server would not have it."""
        extra: dict[str, Any] = {"local_addr": (local, 0)} if local else {}
        try:
            ws = await connect(
                url, origin=origin, compression=None, ping_interval=None, max_size=None, **extra
            )
            first = await ws.recv()
        except Exception:
            stats["failed"] += first_time
            return False
        if "Too many open game pages" in first:
            stats["refused"] += first_time
            await ws.close()
            return False
        stats["accepted"] += first_time

        async def read() -> None:
            async for frame in ws:
                stats["replies"] += 1
                text = frame if isinstance(frame, str) else frame.decode()
                for key in ("watching this game", "slow down", "connection was closed"):
                    if key in text:
                        said[key] = said.get(key, 0) + 1

        reader = asyncio.create_task(read())
        await started.wait()
        # Spread the sockets over the interval, as independent clients would be.
        await asyncio.sleep(random.random() / rate)
        try:
            while not stop.is_set() and not reader.done():
                await ws.send(message)
                stats["sent"] += 1
                await asyncio.sleep(1 / rate)
        except Exception:
            pass
        finally:
            await ws.close()
            reader.cancel()
        return True

    started = asyncio.Event()
    tasks = [asyncio.create_task(one(n)) for n in range(sockets)]
    while sum(stats[k] for k in ("accepted", "refused", "failed")) < sockets:
        await asyncio.sleep(0.05)
    print(json.dumps({"connected": stats}), flush=True)
    started.set()
    since = time.monotonic()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # the parent closes stdin: stop
    stop.set()
    seconds = time.monotonic() - since
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({**stats, "seconds": seconds, "answers": said}), flush=True)


# the games --------------------------------------------------------------------------------------
@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)  # the games nobody watches
    watched: list[float] = field(default_factory=list)  # game 0's
    cpu_s: float = 0.0
    seconds: float = 0.0


class Bench:
    def __init__(self, args: argparse.Namespace, server: _servers.Daphne, world: World) -> None:
        self.args = args
        self.server = server
        self.world = world
        self.rng = random.Random(args.seed)
        self.phase: Phase | None = None
        self.stopping = False
        self.errors: list[str] = []
        self.db = asyncio.Semaphore(1)
        self.connected = 0
        self.all_connected = asyncio.Event()
        self.watched_code = ""

    async def orm(self, fn, *args, **kwargs):
        async with self.db:
            return await asyncio.to_thread(fn, *args, **kwargs)

    async def table(self, n: int) -> None:
        rng = random.Random(self.rng.random())
        players = [await self.orm(self.world.player) for _ in range(2)]
        while not self.stopping:
            code, _ = await self.orm(self.world.game, players[0][0], players[1][0])
            if n == 0 and not self.watched_code:
                self.watched_code = code
            seats = [
                Seat.player(self.server, code, cookie, f"{code}/{p.display_name}")
                for p, cookie in players
            ]
            failed = await connect_all(seats)
            if failed:
                self.errors.append(f"table {n}: connect failed: {failed}")
                await asyncio.sleep(1)
                continue
            if not self.all_connected.is_set():
                self.connected += 1
                if self.connected == self.args.games:
                    self.all_connected.set()
            try:
                await self.play(n, code, Table(seats, rng, timeout=self.args.timeout))
            finally:
                for s in seats:
                    await s.close()

    async def play(self, n: int, code: str, table: Table) -> None:
        pace = self.args.pace
        while not self.stopping:
            pending = await table.next_choice(timeout=self.args.timeout)
            if pending is None:
                if not table.over:
                    self.errors.append(f"{code}: nothing offered")
                return
            seat, choice = pending
            await asyncio.sleep(self.rng.uniform(pace / 2, pace * 3 / 2))
            if self.stopping:
                return
            phase = self.phase
            outcome = await table.answer(seat, choice)
            if outcome.latency is not None:
                if phase is not None and phase is self.phase:
                    watched = n == 0 and code == self.watched_code
                    (phase.watched if watched else phase.latencies).append(outcome.latency)
            elif not (outcome.refused and choice.kind == "multi"):
                self.errors.append(f"{code} v{choice.version}: {outcome.refused or outcome.error}")
                if outcome.error:
                    return

    async def measure(self, phase: Phase) -> None:
        log(f"{phase.name}: measuring for {self.args.duration:.0f} s")
        before = cpu_seconds([self.server]).get("server1", 0.0)
        started = time.monotonic()
        self.phase = phase
        await asyncio.sleep(self.args.duration)
        self.phase = None
        phase.seconds = time.monotonic() - started
        phase.cpu_s = cpu_seconds([self.server]).get("server1", 0.0) - before

    async def main(self) -> dict[str, Any]:
        args = self.args
        tasks = [asyncio.create_task(self.table(n)) for n in range(args.games)]
        try:
            await asyncio.wait_for(self.all_connected.wait(), 120)
        except TimeoutError:
            self.errors.append(f"only {self.connected} of {args.games} games connected")
        await asyncio.sleep(args.warmup)
        baseline = Phase("baseline")
        await self.measure(baseline)

        # The flood, from a process of its own (one socket per spectator).
        url = f"{self.server.ws_base}/ws/game/{self.watched_code}/watch/"
        command = [
            sys.executable, __file__, "--flood", url, "--origin", self.server.base,
            "--spectators", str(args.spectators), "--rate", str(args.rate),
        ]  # fmt: skip
        if args.one_client:
            command += ["--local", ATTACKER_ADDRESS]
        child = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        assert child.stdout is not None and child.stdin is not None
        connected = json.loads(await asyncio.to_thread(child.stdout.readline) or "{}")
        log(f"flood: {connected.get('connected')}")
        await asyncio.sleep(min(5.0, args.warmup))  # the flood in full swing
        flooded = Phase("flood")
        await self.measure(flooded)
        out, _ = await asyncio.to_thread(child.communicate, "", 60)  # stdin closed: stop
        attack = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}

        self.stopping = True
        done, pending = await asyncio.wait(tasks, timeout=args.timeout + 10)
        for t in pending:
            t.cancel()
        for t in done:
            if not t.cancelled() and t.exception() is not None:
                self.errors.append(f"bot crashed: {t.exception()!r}")
        return summary(args, baseline, flooded, attack, self.errors)


def summary(
    args: argparse.Namespace,
    baseline: Phase,
    flooded: Phase,
    attack: dict[str, Any],
    errors: list[str],
) -> dict[str, Any]:
    def figures(p: Phase) -> dict[str, Any]:
        return {
            "actions": len(p.latencies),
            "p50_ms": ms(quantile(p.latencies, 0.5)),
            "p99_ms": ms(quantile(p.latencies, 0.99)),
            "watched_game_actions": len(p.watched),
            "watched_game_p99_ms": ms(quantile(p.watched, 0.99)),
            "server_cpu_pct": round(100 * p.cpu_s / p.seconds, 1) if p.seconds else None,
        }

    base, flood_ = figures(baseline), figures(flooded)
    ratio = (
        round(flood_["p99_ms"] / base["p99_ms"], 2) if base["p99_ms"] and flood_["p99_ms"] else None
    )
    seconds = attack.get("seconds") or 1.0
    return {
        "games": args.games,
        "spectators": args.spectators,
        "rate_per_socket": args.rate,
        "one_client": args.one_client,
        "pace_s": args.pace,
        "duration_s": args.duration,
        "baseline": base,
        "flood": flood_,
        "ratio_p99": ratio,
        "spectator_sockets_accepted": attack.get("accepted"),
        "spectator_sockets_refused": attack.get("refused"),
        "spectator_sockets_failed": attack.get("failed"),
        "spectator_messages_per_s": round(attack.get("sent", 0) / seconds),
        "spectator_sockets_closed_by_server_per_s": round(attack.get("closed", 0) / seconds, 1),
        "spectator_answers": attack.get("answers"),
        "errors": len(errors),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=10, help="games played by bots (default 10)")
    p.add_argument("--spectators", type=int, default=400, help="spectator sockets (default 400)")
    p.add_argument("--rate", type=float, default=20, help="messages a second per spectator")
    p.add_argument("--duration", type=float, default=30, help="seconds per phase (default 30)")
    p.add_argument("--pace", type=float, default=0.5, help="mean think time in s (default 0.5)")
    p.add_argument("--warmup", type=float, default=5, help="seconds before the baseline")
    p.add_argument("--timeout", type=float, default=30, help="seconds an update may take")
    p.add_argument("--one-client", action="store_true", help="the flood from one address")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", type=Path, help="keep the server's log in this folder")
    # The flood's own process (started by the benchmark).
    p.add_argument("--flood", metavar="URL", help=argparse.SUPPRESS)
    p.add_argument("--origin", help=argparse.SUPPRESS)
    p.add_argument("--local", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    if args.flood:
        asyncio.run(flood(args.flood, args.origin, args.spectators, args.rate, args.local))
        return {}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="venture-spectators-"))
    extra = {}
    if args.one_client:
        # The per-address limits as deployed (bench/_servers.py lifts them for the bots).
        extra = {"VENTURE_WS_SOCKETS_PER_ADDRESS": "64", "VENTURE_WS_ADDRESS_RATE": "100/200"}
    env = _servers.server_env(f"sqlite:///{work / 'venture.sqlite3'}", **extra)
    log("migrating (SQLite)")
    _servers.manage(env, "migrate", "--noinput")
    os.environ.update(env)
    import django

    django.setup()
    server = _servers.Daphne(env, (args.keep or work) / "daphne.log")
    try:
        server.start()
        log(f"server: {server.base} (pid {server.proc.pid})")
        result = asyncio.run(Bench(args, server, World(args.seed)).main())
        tracebacks = server.log_text().count("Traceback")
    finally:
        server.stop()
    result["server_tracebacks"] = tracebacks
    result["errors"] += tracebacks
    print(json.dumps(result), flush=True)
    if result["errors"]:
        sys.exit(1)
    return result


if __name__ == "__main__":
    main()
