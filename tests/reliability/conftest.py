"""Venture as real server processes for the reliability tests: Daphne subprocesses configured
through the environment only (bench/_servers.py), on SQLite (a file both processes share) or
on a PostgreSQL database of this run's own. Logs go to test-artifacts/reliability/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import _servers

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "reliability"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> Iterator[str]:
    """A migrated, empty database for the servers of one test, SQLite or PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'venture.sqlite3'}"
        _servers.manage(_servers.server_env(url), "migrate", "--noinput")
        yield url
        return
    reason = _servers.ensure_postgres()
    if reason is not None:
        pytest.skip(reason)
    dbname = _servers.unique_name("venture_reliability")
    url = _servers.create_database(dbname)
    try:
        _servers.manage(_servers.server_env(url), "migrate", "--noinput")
        yield url
    finally:
        _servers.drop_database(dbname)


def start_servers(url: str, name: str, count: int, **env: str) -> list[_servers.Daphne]:
    """`count` Daphne processes on the database at `url`."""
    LOGS.mkdir(parents=True, exist_ok=True)
    servers = []
    try:
        for n in range(1, count + 1):
            log = LOGS / f"{name}-{n}.log"
            log.unlink(missing_ok=True)
            servers.append(_servers.Daphne(_servers.server_env(url, **env), log).start())
    except Exception:
        for server in servers:
            server.stop()
        raise
    return servers
