"""`manage.py serve`: Venture under Daphne (what `make run` starts), and once Daphne listens, the
line that says where to open the game.

Daphne runs as a child process with its own options; its log goes through unchanged, and its
"Listening on TCP address HOST:PORT" line (the moment it accepts connections, with the port it
really got) is followed by "Venture is serving on http://HOST:PORT". Ctrl-C reaches both
processes (one terminal, one process group); a SIGTERM or SIGINT sent to this one alone is
passed on. The exit status is Daphne's.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from typing import IO

from django.core.management.base import BaseCommand, CommandParser

LISTENING = re.compile(r"Listening on TCP address (\S+):(\d+)")
# An address that listens everywhere is opened on this machine as localhost.
WILDCARDS = {"0.0.0.0", "::", ""}


def serving_url(host: str, port: str) -> str:
    if host in WILDCARDS:
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address in a URL
    return f"http://{host}:{port}"


class Command(BaseCommand):
    help = "Serve Venture with Daphne and say where to open it once it listens."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to bind (Daphne's -b)")
        parser.add_argument("--port", type=int, default=8000, help="port (0: any free one)")

    def handle(self, *args: object, host: str, port: int, **options: object) -> None:
        daphne = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), "game.asgi:application"],
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert daphne.stderr is not None
        relay = threading.Thread(target=self._relay, args=(daphne.stderr,), daemon=True)
        relay.start()
        forward = lambda signum, _frame: daphne.send_signal(signum)  # noqa: E731
        signal.signal(signal.SIGTERM, forward)
        while True:
            try:
                status = daphne.wait()
                break
            except KeyboardInterrupt:
                daphne.send_signal(signal.SIGINT)  # a no-op when Ctrl-C reached it already
        relay.join(timeout=5)
        if status:
            raise SystemExit(status)

    def _relay(self, stream: IO[str]) -> None:
        """Pass Daphne's log on, and say where to open the game when it listens."""
        announced = False
        for line in stream:
            sys.stderr.write(line)
            sys.stderr.flush()
            found = None if announced else LISTENING.search(line)
            if found:
                announced = True
                self.stdout.write(f"Venture is serving on {serving_url(*found.groups())}")
                self.stdout.flush()
