"""The web tests again, with Django itself on PostgreSQL, the database of a deployment.

The rest of the suite runs in-process on SQLite. What differs on PostgreSQL is not only the SQL:
`game/runtime/prepared.py`'s `together()` sends an action's statements in psycopg's pipeline mode
(their errors and row counts arrive at the end of the batch; a repeated action id is found
there), and a JSON column gives back its objects' keys sorted (which once made a replayed
scenario game number its objects differently from the live one: test_fuzz.py found it here).
So tests/web runs here, in a pytest of its own (two workers) with DATABASE_URL on a database
of this run's; test_prepared.py counts an answer's round trips from libpq's trace. Left out
(`ON_SQLITE_ONLY`) are the tests whose weight is the engine and the rendering, not the
database: they scan every frame or every replay point of long games for hidden cards, or
compare memoised renders, and read and write the game's rows through the same services as the
tests kept, so on PostgreSQL they would add minutes of CPU and no SQL of their own.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench import _servers

ROOT = _servers.REPO
WORKERS = 2
ON_SQLITE_ONLY = (
    "tests/web/test_hidden_information.py",
    "tests/web/test_board_memo.py",
    "tests/web/test_render_batch.py",
    "tests/web/test_replays.py::test_no_byte_of_a_running_games_replay_names_a_card_its_viewer_may_not_know",
    "tests/web/test_computer.py::test_a_whole_game_against_the_computer_replays_exactly",
)

pytestmark = [pytest.mark.scale]


def test_the_web_tests_pass_on_postgresql():
    reason = _servers.ensure_postgres()
    if reason is not None:
        pytest.skip(reason)
    dbname = _servers.unique_name("venture_pg")
    # The suite's own settings, but for the database (and no channel layer but the default);
    # nothing of this pytest's own run (an xdist worker's name would rename the databases).
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "REDIS_PREFIX"} and not k.startswith("PYTEST_")
    }
    env["DATABASE_URL"] = _servers.postgres_url(dbname)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--create-db"]
            + ["-n", str(WORKERS), "tests/web"]
            + [f"--deselect={test}" for test in ON_SQLITE_ONLY],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        # pytest-django's own teardown can't drop them while the pool's threads hold connections.
        for worker in range(WORKERS):
            _servers.drop_database(f"test_{dbname}_gw{worker}")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-2000:]
