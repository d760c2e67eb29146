"""Venture as it runs at scale: PostgreSQL + Redis (started when they are down, as .ci/run
does), a database and a Redis prefix of this run's own, and two Daphne processes on it.

The servers are real subprocesses configured only through the environment (DATABASE_URL,
REDIS_URL, ...), like a deployment. A test is skipped only when PostgreSQL or Redis is missing
and can't be started, and the reason names which.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench import _servers

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "scale"


@dataclass
class Deployment:
    env: dict[str, str]
    dbname: str


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    for ensure in (_servers.ensure_postgres, _servers.ensure_redis):
        reason = ensure()
        if reason is not None:
            pytest.skip(reason)
    dbname = _servers.unique_name("venture_scale")
    url = _servers.create_database(dbname)
    try:
        env = _servers.server_env(
            url,
            _servers.redis_url(0),
            _servers.unique_name("venture_scale"),
            # INFO: a line for each full replay of a game's log, DEBUG: each catch-up.
            VENTURE_LOG_LEVEL="DEBUG",
        )
        _servers.manage(env, "migrate", "--noinput")
        yield Deployment(env, dbname)
    finally:
        _servers.drop_database(dbname)


@contextmanager
def running(env: dict[str, str], name: str, count: int = 2) -> Iterator[list[_servers.Daphne]]:
    """`count` Daphne processes with the environment `env`, stopped on the way out; their output
    is kept in test-artifacts/scale/<name>-<n>.log (a failed test's report shows the tracebacks
    in it: `pytest_runtest_makereport`)."""
    LOGS.mkdir(parents=True, exist_ok=True)
    servers = []
    try:
        for n in range(1, count + 1):
            log = LOGS / f"{name}-{n}.log"
            log.unlink(missing_ok=True)
            servers.append(_servers.Daphne(env, log).start())
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed test's report shows the tracebacks its servers logged, so that a rare failure
    is read in the CI output rather than lost to the next run's logs."""
    report = yield
    if report.when == "call" and report.failed and LOGS.is_dir():
        for log in sorted(LOGS.glob("*.log")):
            if log.stat().st_mtime >= call.start:
                found = _tracebacks(log)
                if found:
                    report.sections.append((f"tracebacks in {log}", found))
    return report


def _tracebacks(log: Path, most: int = 5, context: int = 40) -> str:
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    return "\n\n".join("\n".join(lines[max(0, i - 3) : i + context]) for i in starts[:most])


@pytest.fixture
def two_servers(deployment: Deployment, request) -> Iterator[list[_servers.Daphne]]:
    """Two Daphne processes on the shared database and channel layer; their output is kept in
    test-artifacts/scale/<test>-<n>.log."""
    with running(deployment.env, request.node.name) as servers:
        yield servers
