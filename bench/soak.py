"""Soak: many bot games at once over real websockets for minutes; nothing may be lost or doubled
and the server's memory must stay flat (issue "Reliability and security", item 7).

    .venv/bin/python bench/soak.py [--games 100] [--duration 300] [--pace 1]

Starts Venture as `make run` serves it (one Daphne process, SQLite in WAL mode in a temporary
folder, the in-memory channel layer) on a free port, then keeps `--games` games going at once:
two bots per game, each on its own websocket with its own session, answer whatever their page
offers (uniformly among the options) after a think time drawn from [pace/2, 3*pace/2]. A game
that ends is replaced by a new one between the same players, so the server keeps meeting new
games (and its engine cache keeps turning over) for the whole run.

The tables open over `--ramp` seconds (players arrive; they don't all knock at once), and each
table's first game is already under way (a random 0 to `--aged` answers in its log), so that
what is measured is a server in steady use, not one filling up from empty: the memory at the
start is taken after `--warmup` seconds (90) with every game connected and playing, once the
server's bounded caches have filled (live engines, rendered log and map fragments, map layouts,
parsed log lines: the first minute's growth). Flat after that is what a leak would break.

Every answer a bot sends is remembered with its action id. After the run the database is read:

- lost: answers the bots saw applied (both pages moved past their version) that are not in the
  game's answer log, plus answers that got neither an update nor a refusal in time;
- duplicated: an action id in a log more than once, a receipt more than once, or a game whose log
  holds more manual answers than its bots saw applied;
- errors: connections that failed or closed, updates that did not come, refusals other than a
  random multi-pick the rules forbid, and every traceback in the server's log;
- memory: the server's resident set size (VmRSS) once every game is connected and warmed up
  ("start"), every 10 s, and when the time is up ("end"); flat means within 20 % of the start.

Progress goes to stderr; the last line is a JSON object (docs/performance.md, "Soak"). The
exit status is 1 when there were errors, lost or duplicated answers, or the memory was not flat.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
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
from bench._client import Seat, Table, connect_all  # noqa: E402
from bench._world import World  # noqa: E402

FLAT = 0.20  # the memory at the end within 20 % of the start


def log(message: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


@dataclass
class Sent:
    """One answer a bot sent, and what became of it."""

    code: str
    action_id: str
    version: int
    at: float  # monotonic time it was sent
    applied: bool = False
    refused: str = ""
    error: str = ""


@dataclass
class Results:
    sent: list[Sent] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    first_version: dict[str, int] = field(default_factory=dict)  # a game's log when it began
    games_finished: int = 0
    memory: list[tuple[float, float]] = field(default_factory=list)  # (s since start, MB)


class Soak:
    def __init__(self, args: argparse.Namespace, server: _servers.Daphne, world: World) -> None:
        self.args = args
        self.server = server
        self.world = world
        self.rng = random.Random(args.seed)
        self.results = Results()
        self.stopping = False
        self.db = asyncio.Semaphore(1)  # this process's ORM, one call at a time
        self.connected = 0
        self.all_connected = asyncio.Event()

    async def orm(self, fn, *args, **kwargs):
        async with self.db:
            return await asyncio.to_thread(fn, *args, **kwargs)

    def think(self) -> float:
        pace = self.args.pace
        return self.rng.uniform(pace / 2, pace * 3 / 2) if pace > 0 else 0.0

    async def table_loop(self, n: int, players: list[tuple[Any, str]]) -> None:
        rng = random.Random(self.rng.random())
        # Tables open one after another, `--ramp` seconds for all of them, as players arrive.
        await asyncio.sleep(self.args.ramp * n / self.args.games)
        # The first game of a table is already under way (up to --aged answers in its log): the
        # server meets games of every age from the start, as it would in steady use.
        played = rng.randint(0, self.args.aged) if self.args.aged else 0
        while not self.stopping:
            code, version = await self.orm(
                self.world.game, players[0][0], players[1][0], played=played
            )
            played = 0
            self.results.games_started += 1
            self.results.first_version[code] = version
            seats = [
                Seat.player(self.server, code, cookie, f"{code}/{player.display_name}")
                for player, cookie in players
            ]
            failed = await connect_all(seats)
            if failed:
                self.results.errors.append(f"table {n}: connect failed: {failed}")
                await asyncio.sleep(1)
                continue
            if not self.all_connected.is_set():
                self.connected += 1
                if self.connected == self.args.games:
                    self.all_connected.set()
            table = Table(seats, rng, timeout=self.args.timeout)
            try:
                await self.play(code, table)
            finally:
                for s in seats:
                    await s.close()
            if table.over:
                self.results.games_finished += 1

    async def play(self, code: str, table: Table) -> None:
        while not self.stopping:
            pending = await table.next_choice(timeout=self.args.timeout)
            if pending is None:
                if not table.over:
                    closed = [s.name for s in table.seats if s.closed]
                    self.results.errors.append(
                        f"{code}: nothing offered" + (f" (closed: {closed})" if closed else "")
                    )
                return
            seat, choice = pending
            await asyncio.sleep(self.think())
            if self.stopping:
                return
            sent = Sent(code, choice.action_id, choice.version, time.monotonic())
            self.results.sent.append(sent)
            outcome = await table.answer(seat, choice)
            if outcome.latency is not None:
                sent.applied = True
            elif outcome.refused:
                sent.refused = outcome.refused
                if choice.kind != "multi":  # only a random multi-pick may be refused
                    self.results.errors.append(f"{code} v{choice.version}: {outcome.refused}")
            else:
                sent.error = outcome.error
                self.results.errors.append(f"{code} v{choice.version}: {outcome.error}")
                return

    async def watch_memory(self, since: float) -> None:
        while not self.stopping:
            mb = rss_mb(self.server.proc.pid)
            if mb is not None:
                self.results.memory.append((round(time.monotonic() - since, 1), round(mb, 1)))
            await asyncio.sleep(10)

    measured_from = 0.0
    measured_to = 0.0

    async def main(self) -> tuple[float | None, float | None]:
        args = self.args
        players = [[await self.orm(self.world.player) for _ in range(2)] for _ in range(args.games)]
        tasks = [asyncio.create_task(self.table_loop(i, players[i])) for i in range(args.games)]
        started = time.monotonic()
        try:
            await asyncio.wait_for(self.all_connected.wait(), 300)
        except TimeoutError:
            self.results.errors.append(f"only {self.connected} of {args.games} games connected")
        log(f"{self.connected} games connected in {time.monotonic() - started:.1f} s")
        await asyncio.sleep(args.warmup)
        memory_start = rss_mb(self.server.proc.pid)
        log(f"running {args.duration:.0f} s; server memory {memory_start:.1f} MB")
        since = self.measured_from = time.monotonic()
        watcher = asyncio.create_task(self.watch_memory(since))
        while time.monotonic() - since < args.duration:
            await asyncio.sleep(min(30, args.duration - (time.monotonic() - since)))
            r = self.results
            log(
                f"{time.monotonic() - since:5.0f} s: {sum(s.applied for s in r.sent)} answers "
                f"applied, {r.games_finished} games finished, {len(r.errors)} errors, "
                f"{rss_mb(self.server.proc.pid):.1f} MB"
            )
        memory_end = rss_mb(self.server.proc.pid)
        self.measured_to = time.monotonic()
        self.stopping = True
        log("stopping the bots")
        done, pending = await asyncio.wait([*tasks, watcher], timeout=args.timeout + 10)
        for t in pending:
            t.cancel()
        for t in done:
            if not t.cancelled() and t.exception() is not None:
                self.results.errors.append(f"bot crashed: {t.exception()!r}")
        return memory_start, memory_end


def audit(results: Results) -> dict[str, int]:
    """Compare what the bots saw applied with what the database holds, game by game."""
    from game.models import ActionReceipt, Game, GameAction

    applied: dict[str, set[str]] = {}
    for s in results.sent:
        if s.applied:
            applied.setdefault(s.code, set()).add(s.action_id)
    unanswered = sum(1 for s in results.sent if s.error)
    lost = duplicated = inconsistent = 0
    for game in Game.objects.filter(code__in={s.code for s in results.sent}):
        # The answers made over the sockets: those after the log the game started with.
        rows = list(
            GameAction.objects.filter(
                game=game, auto=False, index__gte=results.first_version.get(game.code, 0)
            ).values_list("client_action_id", flat=True)
        )
        ids = Counter(rows)
        duplicated += sum(n - 1 for n in ids.values() if n > 1)
        receipts = Counter(
            ActionReceipt.objects.filter(game=game, kind="answer").values_list(
                "action_id", flat=True
            )
        )
        duplicated += sum(n - 1 for n in receipts.values() if n > 1)
        seen = applied.get(game.code, set())
        lost += len(seen - set(ids))
        duplicated += max(0, len(rows) - len(seen))  # answers logged that no bot saw applied
        if GameAction.objects.filter(game=game).count() != game.version:
            inconsistent += 1
    return {
        "lost": lost + unanswered,
        "duplicated": duplicated,
        "inconsistent_logs": inconsistent,
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    p.add_argument("--duration", type=float, default=300, help="seconds (default 300)")
    p.add_argument("--pace", type=float, default=1.0, help="mean think time in s (default 1)")
    p.add_argument("--ramp", type=float, default=20, help="seconds to open all tables")
    p.add_argument(
        "--aged", type=int, default=500, help="first games start up to this far in (answers)"
    )
    p.add_argument("--warmup", type=float, default=90, help="seconds before the start figure")
    p.add_argument("--timeout", type=float, default=30, help="seconds an update may take")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", type=Path, help="keep the server's log in this folder")
    p.add_argument("--app", default="game.asgi:application", help="the ASGI app Daphne serves")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    # A `kill` stops the server too (the `finally` below runs), as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="venture-soak-"))
    env = _servers.server_env(f"sqlite:///{work / 'venture.sqlite3'}")
    log("migrating (SQLite)")
    _servers.manage(env, "migrate", "--noinput")
    os.environ.update(env)
    import django

    django.setup()
    world = World(args.seed)
    server = _servers.Daphne(env, (args.keep or work) / "daphne.log", app=args.app)
    try:
        server.start()
        log(f"server: {server.base} (pid {server.proc.pid})")
        soak = Soak(args, server, world)
        memory_start, memory_end = asyncio.run(soak.main())
        alive = server.alive
        server.stop()
        tracebacks = server.log_text().count("Traceback")
    finally:
        server.stop()
    r = soak.results
    figures = audit(r)
    errors = len(r.errors) + tracebacks + (0 if alive else 1)
    growth = (memory_end - memory_start) / memory_start if memory_start and memory_end else None
    measured = [s for s in r.sent if soak.measured_from <= s.at < soak.measured_to and s.applied]
    result = {
        "games": args.games,
        "duration_s": args.duration,
        "pace_s": args.pace,
        "answers_sent": len(r.sent),
        "answers_applied": sum(s.applied for s in r.sent),
        "answers_per_s": round(len(measured) / max(1.0, args.duration), 1),
        "bot_refusals": sum(1 for s in r.sent if s.refused),
        "games_started": r.games_started,
        "games_finished": r.games_finished,
        "errors": errors,
        "server_tracebacks": tracebacks,
        **figures,
        "memory_start_mb": round(memory_start, 1) if memory_start else None,
        "memory_end_mb": round(memory_end, 1) if memory_end else None,
        "memory_max_mb": max((mb for _, mb in r.memory), default=None),
        "memory_every_30s_mb": [mb for _, mb in r.memory[::3]],
        "memory_growth_pct": round(growth * 100, 1) if growth is not None else None,
        "memory_flat": growth is not None and abs(growth) <= FLAT,
    }
    for e in r.errors[:10]:
        log(f"error: {e}")
    print(json.dumps(result), flush=True)
    ok = not errors and not figures["lost"] and not figures["duplicated"] and result["memory_flat"]
    if not ok:
        sys.exit(1)
    return result


if __name__ == "__main__":
    main()
