"""Quick pairing with two Daphne processes on one PostgreSQL: twelve guests, half on each
process, press Play now at the same instant, then their waiting pages poll, each poll on the
other process than the last. Every one of them ends up at a game, and every game has exactly
two of them: a seek paired twice would leave a game that only one browser was sent to."""

from __future__ import annotations

import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench._client import Browser

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
