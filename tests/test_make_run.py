"""`make run` (`manage.py serve`) says where to open the game once Daphne listens, and the
address it gives serves the game."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from game.management.commands.serve import serving_url

ROOT = Path(__file__).resolve().parents[1]


def test_serve_prints_where_to_open_the_game_once_it_listens(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = server.stdout.readline()  # blocks until Daphne listens (or the server died)
        found = re.fullmatch(r"Venture is serving on (http://127\.0\.0\.1:\d+)\n", line)
        assert found, line
        with urllib.request.urlopen(found.group(1) + "/cards.json", timeout=10) as response:
            assert response.status == 200
    finally:
        server.send_signal(signal.SIGTERM)  # passed on to Daphne, which shuts down
        assert server.wait(timeout=20) == 0


def test_a_wildcard_address_is_opened_as_localhost():
    assert serving_url("0.0.0.0", "8000") == "http://127.0.0.1:8000"
    assert serving_url("::1", "8000") == "http://[::1]:8000"
