"""Quick pairing with two Daphne processes on one PostgreSQL and one Redis: guests, half on each
process, press Play now at the same instant, then their waiting pages poll, each poll on the
other process than the last. Every one of them ends up at a game, and every game has exactly
two of them: a seek paired twice would leave a game that only one browser was sent to.

Twelve guests on the deployment of the other scale tests (rate limits lifted), and a crowd of
200 on a deployment set up for a crowd behind one address (`CROWD_LIMITS`), whose pairing is
also checked in the database: each player sits at exactly one game, each game has two.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
import urllib.error
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench import _servers
from bench._client import Browser

from .conftest import running

pytestmark = [pytest.mark.scale, pytest.mark.timeout(300)]

PLAYERS = 12
GAME_URL = re.compile(r"/g/([^/]+)/$")


def test_guests_on_two_processes_pressing_play_now_at_once_are_each_paired_once(two_servers):
    browsers = [Browser(two_servers[i % 2].base) for i in range(PLAYERS)]
    for i, b in enumerate(browsers):
        b.play_as_guest(f"guest{i}")
    barrier = threading.Barrier(PLAYERS)

    def press(b: Browser) -> str:
        barrier.wait()
        url, _ = b.post(
            "/seek/",
            {
                "seek-deck": "Varis (green-white)",
                "seek-time_control": "clock:10+5",
                "seek-mode": "casual",
            },
        )
        return url

    with ThreadPoolExecutor(PLAYERS) as pool:
        landed = list(pool.map(press, browsers))
    for _ in range(10):
        waiting = [i for i, url in enumerate(landed) if not GAME_URL.search(url)]
        if not waiting:
            break
        for i in waiting:  # the page's poll (a plain POST is redirected), on the other process
            b = browsers[i]
            b.base = two_servers[0].base if b.base == two_servers[1].base else two_servers[1].base
        with ThreadPoolExecutor(len(waiting)) as pool:
            polled = list(pool.map(lambda i: browsers[i].post("/seek/status/", {})[0], waiting))
        for i, url in zip(waiting, polled, strict=True):
            landed[i] = url
    codes = [GAME_URL.search(url) for url in landed]
    assert all(codes), f"not every guest was paired: {landed}"
    counts = Counter(m.group(1) for m in codes)
    assert sorted(counts.values()) == [2] * (PLAYERS // 2), counts
    # Each game page names its two guests (and nobody sees a game they are not in).
    for i, b in enumerate(browsers):
        _, html = b.get(f"/g/{codes[i].group(1)}/")
        assert f"guest{i}" in html


# The crowd: 200 guests, every one from 127.0.0.1 as behind a LAN event's or a school's NAT.
CROWD = 200
SEEK_POLL_SECONDS = 2  # the waiting page's poll (game/services/seeks.py)
CROWD_PAIRED_WITHIN = 120  # seconds from the press: every seek is paired by then
# The deployed per-address figures turn such a crowd away ("guest": 30 accounts a minute,
# "seek": 120 presses a minute, "post": 1,200 posts a minute; docs/security.md, "Rate limits").
# A deployment expecting CROWD people behind one address raises them through VENTURE_RATE_LIMITS
# to the crowd's worth, as this one does: one account and one Play now each within the minute,
# and 40 posts a minute each (a waiting page polls 30 times a minute). The session figures, what
# one person may do, stay as deployed. The accounts are limited to exactly CROWD an hour, so one
# more from the address is refused: the limiter is at work, and counts across both processes
# (each served only half the crowd).
CROWD_LIMITS = {
    "guest": {"address": f"{CROWD}/minute;{CROWD}/hour"},
    "seek": {"address": f"{CROWD}/minute;{CROWD * 10}/hour"},
    "post": {"address": f"{CROWD * 40}/minute"},
}
PLAY_NOW = {
    "seek-deck": "Varis (green-white)",
    "seek-time_control": "clock:10+5",
    "seek-mode": "casual",
}


@pytest.fixture
def crowd_servers(deployment, request):
    """Two Daphne processes on the module's database and on Redis (the channel layer and the
    rate limits' counts), under a Redis prefix of their own so that no other test's counts are
    theirs, with the crowd's rate limits."""
    env = {
        **deployment.env,
        "REDIS_PREFIX": _servers.unique_name("venture_crowd"),
        "VENTURE_RATE_LIMITS": json.dumps(CROWD_LIMITS),
    }
    assert env["REDIS_URL"] and env["DATABASE_URL"].startswith("postgres://")
    with running(env, "crowd") as servers:
        yield servers


def _sql(dbname: str, query: str, *params: object) -> list[tuple]:
    import psycopg

    with psycopg.connect(
        host=_servers.PG_HOST, port=_servers.PG_PORT, user=_servers.PG_USER, dbname=dbname
    ) as conn:
        return conn.execute(query, params).fetchall()


def _each(fn, items, workers: int) -> list:
    """`fn` of every item on `workers` threads; an HTTP error fails the test with a 429's
    sentence (which limit) or the page's first words."""

    def guarded(item):
        try:
            return fn(item)
        except urllib.error.HTTPError as e:
            page = " ".join(e.read().decode(errors="replace").split())
            limited = re.search(r"Too many [^<]*try again in [^<]*", page)
            said = limited.group(0) if limited else page[:300]
            pytest.fail(f"{item}: HTTP {e.code} from {e.url}: {said}")

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(guarded, items))


@pytest.mark.timeout(420)
def test_two_hundred_seeks_on_two_processes_at_once_are_each_in_exactly_one_game(
    crowd_servers, deployment
):
    names = [f"Crowd {i:03}" for i in range(CROWD)]
    browsers = [Browser(crowd_servers[i % 2].base) for i in range(CROWD)]
    _each(lambda i: browsers[i].play_as_guest(names[i]), range(CROWD), 16)

    barrier = threading.Barrier(CROWD)
    started = time.monotonic()

    def seek(i: int) -> str:
        """Press Play now with the others, then poll as the waiting page does (each poll on the
        other process) until sent to a game; the URL landed on."""
        b, rng = browsers[i], random.Random(i)
        barrier.wait()
        url, _ = b.post("/seek/", PLAY_NOW)
        # The page's timer starts when it loads: the polls are not in step with each other's.
        time.sleep(rng.uniform(0, SEEK_POLL_SECONDS))
        while not GAME_URL.search(url) and time.monotonic() - started < CROWD_PAIRED_WITHIN:
            b.base = (
                crowd_servers[1].base if b.base == crowd_servers[0].base else crowd_servers[0].base
            )
            url, _ = b.post("/seek/status/", {})
            if not GAME_URL.search(url):
                time.sleep(SEEK_POLL_SECONDS)
        return url

    landed = _each(seek, range(CROWD), CROWD)
    pairing_seconds = time.monotonic() - started
    codes = [GAME_URL.search(url) for url in landed]
    unpaired = [names[i] for i, m in enumerate(codes) if m is None]
    assert not unpaired, f"not paired within {CROWD_PAIRED_WITHIN} s: {unpaired}"
    counts = Counter(m.group(1) for m in codes)
    assert sorted(counts.values()) == [2] * (CROWD // 2), {
        c: n for c, n in counts.items() if n != 2
    }

    # Each opens the game it was sent to, which names them (and it takes their seek off the
    # books: `seeks.arrived`).
    def opens(i: int) -> None:
        _, html = browsers[i].get(f"/g/{codes[i].group(1)}/")
        assert names[i] in html, f"{names[i]} is not at the game {codes[i].group(1)}"

    _each(opens, range(CROWD), 8)

    # The database agrees: each player has exactly one seat, at the game their browser was sent
    # to; each of those games has exactly two seats, two different players; no seek is left.
    seats = _sql(
        deployment.dbname,
        "SELECT p.display_name, g.code, g.id FROM game_seat s"
        " JOIN game_player p ON p.id = s.player_id JOIN game_game g ON g.id = s.game_id"
        " WHERE p.display_name LIKE 'Crowd %%'",
    )
    by_player = Counter(name for name, _, _ in seats)
    assert by_player == Counter(names), {n: k for n, k in by_player.items() if k != 1}
    sent_to = {names[i]: codes[i].group(1) for i in range(CROWD)}
    assert {name: code for name, code, _ in seats} == sent_to
    game_ids = sorted({game_id for _, _, game_id in seats})
    assert len(game_ids) == CROWD // 2
    per_game = _sql(
        deployment.dbname,
        "SELECT game_id, count(*), count(DISTINCT player_id) FROM game_seat"
        " WHERE game_id = ANY(%s) GROUP BY game_id",
        game_ids,
    )
    assert sorted((n, distinct) for _, n, distinct in per_game) == [(2, 2)] * (CROWD // 2)
    left = _sql(
        deployment.dbname,
        "SELECT p.display_name, s.game_id FROM game_seek s"
        " JOIN game_player p ON p.id = s.player_id WHERE p.display_name LIKE 'Crowd %%'",
    )
    assert left == []

    # The limiter was at work the whole time, its count shared through Redis: the crowd used up
    # the address's accounts, and one more is refused by either process.
    for server in crowd_servers:
        with pytest.raises(urllib.error.HTTPError) as refused:
            Browser(server.base).play_as_guest("One too many")
        assert refused.value.code == 429
        assert "Too many new accounts from your network address" in refused.value.read().decode()
    print(f"\n{CROWD} seeks paired in {pairing_seconds:.1f} s")
