"""bench/spectators.py still runs (at a tiny size: a benchmark is never a timed test; its
figures are in docs/security.md), and its flood is answered the way a spectator is: refused
in words, then slowed down, with no error on the server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = "--games 2 --spectators 6 --rate 20 --duration 2 --warmup 1 --pace 0.2"


@pytest.mark.slow
@pytest.mark.timeout(240)  # the benchmark's own run is bounded at 180 s
def test_the_spectator_benchmark_runs_at_a_tiny_size() -> None:
    done = subprocess.run(
        [sys.executable, "bench/spectators.py", *TINY.split()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["errors"] == 0 and result["server_tracebacks"] == 0
    assert result["spectator_sockets_accepted"] == 6
    assert result["baseline"]["actions"] > 0 and result["flood"]["actions"] > 0
    assert result["ratio_p99"] is not None
    # Each spectator socket may send 2 messages a second (bursts of 10), and sends 20: both the
    # refusal and the "slow down" reached it.
    answers = result["spectator_answers"]
    assert answers["watching this game"] > 0 and answers["slow down"] > 0
