"""Other games' action latency while the computer thinks, against the same server without it.

    .venv/bin/python bench/computer_latency.py [--games 8] [--computer-games 2] [--level hard]
        [--pace 1] [--duration 30] [--modes process,thread,worker] [--workers 2]

For each mode it starts one embedded Daphne (SQLite in a temporary folder, the in-memory channel
layer: Venture as `make run` serves it) that thinks for the computer itself:

- `process`: in spawned child processes (VENTURE_COMPUTER_PROCESSES=`--processes`, default 1,
  the server's default);
- `thread`: in a thread of the server process (VENTURE_COMPUTER_PROCESSES=0);
- `worker`: as at scale, on PostgreSQL and Redis (started if they are down, as `.ci/run` does),
  by `--workers` Channels workers (`manage.py runworker`, VENTURE_COMPUTER=worker), the one
  Daphne thinking for nobody.

`--games` games between two bots play over real websockets, each bot answering what its page
offers after a think time drawn from [pace/2, 3*pace/2], and the latency of every action (sent
until both players' sockets show the new version) is recorded, in three phases of `--duration`
seconds on the same server:

- `baseline`: those games alone;
- `easy`: and `--computer-games` games against the computer at Easy (no delay), whose human
  side is a bot at the same pace: the same traffic as the next phase, next to no thinking;
- `thinking`: the same against the computer at `--level` (Hard by default: search over sampled
  worlds, up to a second or more per decision), so the computer thinks much of the time.

A computer game that ends is replaced. Progress goes to stderr; the last line is a JSON object:
for each mode each phase's p50/p95/p99 (ms), counts and the machine's load average, the ratios
of `thinking` to `easy` and to `baseline`, and how many versions the computer games went through
(docs/performance.md, "The computer opponent").

    .venv/bin/python bench/computer_latency.py --case crowd [--crowd 12] [--level hard]
        [--limits 3,12] [--modes process] [--duration 60]

The crowd case: is the computer fair to everyone? One player ("Bob") plays `--computer-games`
games against the computer at `--level`; what is measured is how long his computer takes to
answer (from the moment his page shows the computer deciding until it shows the next version;
the delay is 0). For each limit of running games per player (VENTURE_COMPUTER_GAMES_PER_PLAYER)
a server is started and two phases of `--duration` are run on it:

- `alone`: Bob's games only;
- `crowd`: and another player ("Crowd") tries to run `--crowd` games against the computer at
  `--level` at once (the limit lets some of them start: the rest are refused, and counted),
  each at the same pace as Bob.

The JSON gives, per mode and limit, each phase's p50/p95/p99 of Bob's computer answers (and of
the crowd's), and `ratio_p95`: Bob's p95 in the crowd over his p95 alone (the target: 1.5 at
most).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import _servers  # noqa: E402
from bench._client import Browser, Seat, Table, first_seen_after  # noqa: E402
from bench._stats import ms, quantile  # noqa: E402

DECKS = ("Varis (green-white)", "Crawlers (black-red)")


def log(message: str) -> None:
    print(f"[computer_latency {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def seat(server: _servers.Daphne, browser: Browser, code: str, name: str) -> Seat:
    return Seat.player(server, code, browser.cookie_header, name)


def people_game(server: _servers.Daphne, n: int) -> tuple[Browser, Browser, str]:
    host, guest = Browser(server.base), Browser(server.base)
    host.play_as_guest(f"Host {n}")
    guest.play_as_guest(f"Guest {n}")
    code = host.create_game(DECKS[0])
    guest.join_game(code, DECKS[1])
    return host, guest, code


async def play_people(table: Table, pace: float, until: float, rng: random.Random) -> list[float]:
    """A bot pair at a person's pace until `until`; the latency of each applied answer."""
    latencies = []
    while time.monotonic() < until:
        pending = await table.next_choice(timeout=max(0.1, until - time.monotonic()))
        if pending is None:
            break
        await asyncio.sleep(rng.uniform(pace / 2, 3 * pace / 2) if pace else 0)
        if time.monotonic() >= until:
            break
        outcome = await table.answer(*pending)
        if outcome.error:
            raise RuntimeError(outcome.error)
        if outcome.latency is not None:
            latencies.append(outcome.latency)
    return latencies


async def play_until(table: Table, me: Seat, until: float, pace: float, rng: random.Random) -> None:
    """The person's side of a game against the computer, at a person's pace, until `until` or
    the game's end; an answer the server refuses is an error of the benchmark."""
    while time.monotonic() < until and not me.over:
        pending = await table.next_choice(timeout=max(0.1, until - time.monotonic()))
        if pending is None:
            break
        await asyncio.sleep(rng.uniform(pace / 2, 3 * pace / 2) if pace else 0)
        outcome = await table.answer(*pending)
        if outcome.error and not me.over:
            raise RuntimeError(outcome.error)


async def play_computer(
    server: _servers.Daphne,
    browser: Browser,
    level: str,
    pace: float,
    until: float,
    rng: random.Random,
) -> int:
    """The human side of games against the computer at a person's pace, until `until`; the
    number of versions the games went through (the computer's answers and the person's)."""
    versions = 0
    while time.monotonic() < until:
        code = await asyncio.to_thread(browser.play_computer, *DECKS, level)
        me = await seat(server, browser, code, "Human").connect()
        start = me.version
        await play_until(Table([me], rng, timeout=30), me, until, pace, rng)
        versions += me.version - start
        await me.close()
    return versions


# the crowd case ----------------------------------------------------------------------------------
COMPUTER = "Computer ("  # how a page names the computer deciding: "Computer (Hard)"


def start_computer_game(browser: Browser, level: str) -> str | None:
    """A new game against the computer, or None when the server refuses it (too many games of
    this player against the computer already)."""
    url, html = browser.post(
        "/games/computer/",
        {
            "computer-deck": DECKS[0],
            "computer-computer_deck": DECKS[1],
            "computer-level": level,
        },
    )
    m = re.search(r"/g/([^/]+)/$", url)
    if m:
        return m.group(1)
    assert "against the computer in progress" in html, f"starting a game led to {url}"
    return None


async def watch_computer(seat: Seat, answers: list[float]) -> None:
    """Record how long the computer takes to answer in `seat`'s game: from the first frame that
    shows it deciding at a version until the first frame of a newer one."""
    asked: dict[int, float] = {}
    while not seat.closed:
        version = seat.version
        if seat.waiting_on.startswith(COMPUTER) and version not in asked:
            asked[version] = seat.seen_at.get(version, time.monotonic())
        for v, since in list(asked.items()):
            after = first_seen_after(seat, v)
            if after is not None:
                answers.append(after - since)
                del asked[v]
        await seat.wait_for(lambda v=version: seat.version != v or seat.closed, 3600)


async def play_crowd_slot(
    server: _servers.Daphne,
    browser: Browser,
    level: str,
    pace: float,
    until: float,
    rng: random.Random,
    answers: list[float],
    name: str,
) -> bool:
    """One game slot of a player against the computer until `until` (a game that ends is
    replaced), recording the computer's answer times. False when the server refused the
    slot's first game."""
    first = True
    while time.monotonic() < until:
        code = await asyncio.to_thread(start_computer_game, browser, level)
        if code is None:
            return not first
        first = False
        me = await seat(server, browser, code, name).connect()
        watcher = asyncio.create_task(watch_computer(me, answers))
        await play_until(Table([me], rng, timeout=60), me, until, pace, rng)
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        if not me.over:  # the phase is over: this game makes room for the next phase's
            await asyncio.to_thread(browser.post, f"/g/{code}/act/", {"action": "concede"})
        await me.close()
    return True


async def measure_crowd(server: _servers.Daphne, args: argparse.Namespace) -> dict:
    bob, crowd = Browser(server.base), Browser(server.base)
    await asyncio.to_thread(bob.play_as_guest, "Bob")
    await asyncio.to_thread(crowd.play_as_guest, "Crowd")
    out: dict = {}
    for phase, crowd_games in (("alone", 0), ("crowd", args.crowd)):
        log(f"{phase}: Bob's {args.computer_games} games and the crowd's {crowd_games}")
        until = time.monotonic() + args.duration
        mine: list[float] = []
        theirs: list[float] = []
        slots = [
            play_crowd_slot(
                server, bob, args.level, args.pace, until, random.Random(i), mine, "Bob"
            )
            for i in range(args.computer_games)
        ]
        crowd_slots = []
        for i in range(crowd_games):
            crowd_slots.append(
                play_crowd_slot(
                    server,
                    crowd,
                    args.level,
                    args.pace,
                    until,
                    random.Random(100 + i),
                    theirs,
                    f"Crowd {i}",
                )
            )
        started = await asyncio.gather(*slots, *crowd_slots)
        out[phase] = {
            "bob": summary(mine),
            "crowd": summary(theirs),
            "crowd_slots_running": sum(started[len(slots) :]),
            "crowd_slots_refused": crowd_games - sum(started[len(slots) :]),
            "load_1min": round(os.getloadavg()[0], 1),
        }
        log(f"{phase}: {out[phase]}")
    alone, busy = out["alone"]["bob"]["p95_ms"], out["crowd"]["bob"]["p95_ms"]
    if alone and busy:
        out["ratio_p95"] = round(busy / alone, 2)
    return out


def summary(latencies: list[float]) -> dict[str, float | int | None]:
    return {
        "actions": len(latencies),
        "p50_ms": ms(quantile(latencies, 0.5)),
        "p95_ms": ms(quantile(latencies, 0.95)),
        "p99_ms": ms(quantile(latencies, 0.99)),
    }


async def measure(server: _servers.Daphne, args: argparse.Namespace) -> dict:
    rng = random.Random(args.seed)
    tables = []
    for n in range(args.games):
        host, guest, code = await asyncio.to_thread(people_game, server, n)
        a = await seat(server, host, code, "host").connect()
        b = await seat(server, guest, code, "guest").connect()
        tables.append(Table([a, b], random.Random(rng.random()), timeout=30))
    computer_side = Browser(server.base)
    await asyncio.to_thread(computer_side.play_as_guest, "Human")
    out = {}
    for phase, level in (("baseline", None), ("easy", "easy"), ("thinking", args.level)):
        log(f"{phase}: {args.games} games for {args.duration:g} s")
        until = time.monotonic() + args.duration
        people = [play_people(t, args.pace, until, random.Random(rng.random())) for t in tables]
        computer = []
        if level is not None:
            computer = [
                play_computer(server, computer_side, level, args.pace, until, random.Random(i))
                for i in range(args.computer_games)
            ]
        results = await asyncio.gather(*people, *computer)
        latencies = [x for r in results[: len(people)] for x in r]
        out[phase] = summary(latencies)
        # The machine's load: on 2 cores shared with other work, a run at a load of 15 says
        # little about which way of thinking is better (docs/performance.md).
        out[phase]["load_1min"] = round(os.getloadavg()[0], 1)
        if level is not None:
            out[phase]["computer_game_versions"] = sum(results[len(people) :])
        log(f"{phase}: {out[phase]}")
    for table in tables:
        for s in table.seats:
            await s.close()
    busy = out["thinking"]
    for against in ("easy", "baseline"):
        for q in ("p50", "p95", "p99"):
            base = out[against][f"{q}_ms"]
            if base and busy[f"{q}_ms"]:
                out[f"ratio_{q}_to_{against}"] = round(busy[f"{q}_ms"] / base, 2)
    return out


def run_workers(args: argparse.Namespace, limit: int | None) -> dict:
    """The `worker` mode: PostgreSQL, Redis, one Daphne and `--workers` Channels workers that
    think for the computer (VENTURE_COMPUTER=worker), as Venture runs at scale."""
    for ensure in (_servers.ensure_postgres, _servers.ensure_redis):
        reason = ensure()
        if reason is not None:
            raise SystemExit(f"the worker mode needs PostgreSQL and Redis: {reason}")
    dbname = _servers.unique_name("venture_bench")
    url = _servers.create_database(dbname)
    extra = {} if limit is None else {"VENTURE_COMPUTER_GAMES_PER_PLAYER": str(limit)}
    env = _servers.server_env(
        url,
        _servers.redis_url(0),
        dbname,
        VENTURE_COMPUTER="worker",
        VENTURE_COMPUTER_DELAY_SECONDS="0",
        **extra,
    )
    with tempfile.TemporaryDirectory() as folder:
        server, workers = None, []
        try:
            _servers.manage(env, "migrate", "--noinput")
            server = _servers.Daphne(env, Path(folder) / "daphne.log").start()
            workers = [
                _servers.Worker(env, Path(folder) / f"worker-{n}.log") for n in range(args.workers)
            ]
            return asyncio.run((measure if limit is None else measure_crowd)(server, args))
        finally:
            for worker in workers:
                worker.stop()
            if server is not None:
                server.stop()
            _servers.drop_database(dbname)


def run_mode(mode: str, args: argparse.Namespace, limit: int | None = None) -> dict:
    if mode == "worker":
        return run_workers(args, limit)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'venture.sqlite3'}"
        extra = {} if limit is None else {"VENTURE_COMPUTER_GAMES_PER_PLAYER": str(limit)}
        env = _servers.server_env(
            url,
            VENTURE_COMPUTER="server",
            VENTURE_COMPUTER_PROCESSES=str(args.processes) if mode == "process" else "0",
            VENTURE_COMPUTER_DELAY_SECONDS="0",
            **extra,
        )
        _servers.manage(env, "migrate", "--noinput")
        server = _servers.Daphne(env, Path(folder) / "daphne.log").start()
        try:
            return asyncio.run((measure if limit is None else measure_crowd)(server, args))
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games between two bots")
    parser.add_argument("--computer-games", type=int, default=2)
    parser.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    parser.add_argument("--pace", type=float, default=1.0, help="a bot's mean think time (s)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per phase")
    parser.add_argument("--modes", default="process,thread")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--processes", type=int, default=1, help="VENTURE_COMPUTER_PROCESSES of the process mode"
    )
    parser.add_argument("--workers", type=int, default=2, help="workers of the worker mode")
    parser.add_argument(
        "--case", default="others", choices=("others", "crowd"), help="what is measured"
    )
    parser.add_argument("--crowd", type=int, default=12, help="games the crowd tries to run")
    parser.add_argument(
        "--limits", default="3,12", help="crowd case: VENTURE_COMPUTER_GAMES_PER_PLAYER values"
    )
    args = parser.parse_args()
    result = {
        "case": args.case,
        "games": args.games,
        "computer_games": args.computer_games,
        "level": args.level,
        "pace": args.pace,
        "duration": args.duration,
        "processes": args.processes,
        "workers": args.workers,
        "modes": {},
    }
    for mode in args.modes.split(","):
        log(f"mode {mode}")
        if args.case == "others":
            result["modes"][mode] = run_mode(mode, args)
            continue
        result["crowd"] = args.crowd
        result["modes"][mode] = {}
        for limit in (int(x) for x in args.limits.split(",")):
            log(f"mode {mode}, at most {limit} games against the computer per player")
            result["modes"][mode][f"limit_{limit}"] = run_mode(mode, args, limit)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
