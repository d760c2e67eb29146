"""The action path's own tests again, with Django itself on PostgreSQL.

The rest of the suite runs in-process on SQLite, where `game/prepared.py`'s `together()` runs
each statement when it is sent. On PostgreSQL it sends an action's statements in psycopg's
pipeline mode: their errors and row counts arrive at the end of the batch, and the receipt of
a repeated action id is found there. These modules (the prepared statements, the services'
checks and refusals, the clocks and claims) run here in a pytest of their own with
DATABASE_URL on a database of this run's, and test_prepared.py counts an answer's round trips
from libpq's trace of the protocol."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench import _servers

ROOT = _servers.REPO
MODULES = [
    "tests/web/test_prepared.py",
    "tests/web/test_services.py",
    "tests/web/test_reliability.py",
]

pytestmark = [pytest.mark.scale]


def test_the_action_paths_tests_pass_on_postgresql():
    reason = _servers.ensure_postgres()
    if reason is not None:
        pytest.skip(reason)
    dbname = _servers.unique_name("venture_pg")
    # The suite's own settings, but for the database (and no channel layer but the default).
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "REDIS_PREFIX"}}
    env["DATABASE_URL"] = _servers.postgres_url(dbname)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--create-db", *MODULES],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        # pytest-django's own teardown can't drop it while the pool's threads hold connections.
        _servers.drop_database(f"test_{dbname}")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-2000:]
