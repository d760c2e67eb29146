"""Servers for the latency benchmark and the scale tests (tests/scale/).

- PostgreSQL and Redis on this machine: checked, and started when they are down with the same
  commands as `.ci/run`; `ensure_postgres()` / `ensure_redis()` return None when the service is
  up, or a sentence naming what is missing.
- A PostgreSQL database of one's own (`create_database`), a Redis channel prefix of one's own
  (`unique_name`), so runs on one machine don't see each other's games or messages.
- Daphne processes serving Venture on free ports (`Daphne`), each with its own environment,
  killed by their own process id; Channels workers thinking for the computer (`Worker`,
  VENTURE_COMPUTER=worker).

Nothing here imports Django: the servers are configured through the environment only
(DATABASE_URL, REDIS_URL, REDIS_PREFIX, ...), exactly as in production.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parents[1]
# VENTURE_BENCH_PG_PORT points the servers at another port, e.g. a proxy that adds network
# latency between the app and PostgreSQL (docs/performance.md, "Round trips").
PG_HOST, PG_USER = "127.0.0.1", "postgres"
PG_PORT = int(os.environ.get("VENTURE_BENCH_PG_PORT", "5432"))
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
# What the servers run with when nothing else is said: production-like (DEBUG off).
SECRET_KEY = "venture-bench-and-scale-tests-only-" + "x" * 32


def unique_name(prefix: str) -> str:
    """A name no other run on this machine uses at the same time (database, Redis prefix)."""
    return f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:6]}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def _wait(check, timeout: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return check()


# PostgreSQL -------------------------------------------------------------------------------------
def postgres_ready() -> bool:
    try:
        import psycopg
    except ImportError:
        return False
    try:
        with psycopg.connect(
            host=PG_HOST, port=PG_PORT, user=PG_USER, dbname="postgres", connect_timeout=2
        ):
            return True
    except psycopg.Error:
        return False


def ensure_postgres(timeout: float = 30) -> str | None:
    """None when PostgreSQL answers on 127.0.0.1:5432 (starting the cluster if it is down)."""
    if postgres_ready():
        return None
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -r requirements.txt)"
    ctl = shutil.which("pg_ctlcluster")
    clusters = Path("/etc/postgresql")
    if ctl is None or not clusters.is_dir():
        return "PostgreSQL is not installed (no pg_ctlcluster or /etc/postgresql)"
    errors = []
    for version in sorted(os.listdir(clusters)):
        done = subprocess.run(
            [ctl, "--skip-systemctl-redirect", version, "main", "start"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            errors.append(done.stderr.strip() or done.stdout.strip())
    if _wait(postgres_ready, timeout, 0.2):
        return None
    detail = "; ".join(e for e in errors if e)
    return f"PostgreSQL did not start on {PG_HOST}:{PG_PORT}" + (f" ({detail})" if detail else "")


def postgres_url(dbname: str) -> str:
    return f"postgres://{PG_USER}@{PG_HOST}:{PG_PORT}/{dbname}"


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(
        host=PG_HOST, port=PG_PORT, user=PG_USER, dbname="postgres", autocommit=True
    ) as conn:
        conn.execute(sql)


def create_database(dbname: str) -> str:
    """A new, empty database (dropped first if a crashed run left one); returns its URL."""
    drop_database(dbname)
    _admin_sql(f'CREATE DATABASE "{dbname}"')
    return postgres_url(dbname)


def drop_database(dbname: str) -> None:
    _admin_sql(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


# Redis ------------------------------------------------------------------------------------------
def redis_ready() -> bool:
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def ensure_redis(timeout: float = 10) -> str | None:
    """None when Redis answers on 127.0.0.1:6379 (started as .ci/run does if it is down)."""
    if redis_ready():
        return None
    server = shutil.which("redis-server")
    if server is None:
        return "Redis is not installed (no redis-server)"
    for folder in ("/var/lib/redis", "/var/log/redis"):
        with contextlib.suppress(OSError):
            os.makedirs(folder, exist_ok=True)
    done = subprocess.run(
        [
            server,
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1",
            "-::1",
            "--port",
            str(REDIS_PORT),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            "/var/lib/redis",
            "--logfile",
            "/var/log/redis/ci.log",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if _wait(redis_ready, timeout):
        return None
    detail = (done.stderr or done.stdout).strip()
    return f"Redis did not start on {REDIS_HOST}:{REDIS_PORT}" + (f" ({detail})" if detail else "")


def redis_url(db: int = 0) -> str:
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/{db}"


# Venture's processes ----------------------------------------------------------------------------
def server_env(
    database_url: str,
    redis_url: str | None = None,
    redis_prefix: str | None = None,
    **extra: str,
) -> dict[str, str]:
    """The environment of a Venture process: production settings (DEBUG off) on the given
    database and channel layer, nothing inherited that could point it elsewhere."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "REDIS_PREFIX", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="game.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        PYTHONUNBUFFERED="1",
        # Every bot of a benchmark or a scale test connects from 127.0.0.1: hundreds of players
        # behind one address, which the per-address limits (docs/security.md, "Per client")
        # would turn away. Each bot has a session of its own, whose limits stay as deployed.
        VENTURE_WS_SOCKETS_PER_ADDRESS="1000000",
        VENTURE_WS_ADDRESS_RATE="1000000/1000000",
        # The HTTP rate limits (accounts, games, POSTs) are lifted whole: hundreds of bots sign
        # up and start games from 127.0.0.1 within a minute, and a benchmark's crowd is one
        # session starting game after game. A test of the limits passes its own figures.
        VENTURE_RATE_LIMITS=json.dumps(
            {
                action: {"session": "1000000/minute", "address": "1000000/minute"}
                for action in ("guest", "game", "seek", "chat", "login", "post")
            }
        ),
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
        if redis_prefix:
            env["REDIS_PREFIX"] = redis_prefix
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 300) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "manage.py"), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")


def _terminate(proc: subprocess.Popen[bytes]) -> None:
    """Ask a process to stop; kill it if it hasn't within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


class Daphne:
    """One Daphne process serving `app` on a free port of 127.0.0.1, output to `log_path`."""

    def __init__(
        self,
        env: dict[str, str],
        log_path: Path,
        *,
        app: str = "game.asgi:application",
        port: int | None = None,
    ) -> None:
        self.env = env
        self.app = app
        self.port = port or free_port()
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Daphne:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), self.app],
            cwd=REPO,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        ok = _wait(
            lambda: self.proc.poll() is not None or _listening("127.0.0.1", self.port), timeout
        )
        if not ok or self.proc.poll() is not None:
            self.stop()
            raise RuntimeError(f"daphne on port {self.port} did not start; see {self.log_path}")
        return self

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Die at once, as a crashed machine would: no socket is closed politely."""
        if self.alive:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.alive:
            assert self.proc is not None
            _terminate(self.proc)
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


class Worker:
    """One `manage.py runworker --layer computer venture-computer` process: it thinks for the
    computer, one turn at a time (VENTURE_COMPUTER=worker), output to `log_path`, killed by its
    own process id."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.log_path = log_path
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(REPO / "manage.py"),
                "runworker",
                "--layer",
                "computer",
                "venture-computer",
            ],
            cwd=REPO,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def kill(self) -> None:
        """Die at once, mid-thought if it is thinking."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            _terminate(self.proc)
        if not self._log.closed:
            self._log.close()
