"""A server restart while the computer is to move resumes its turn (the embedded setup: one
Daphne process thinking for the computer itself, VENTURE_COMPUTER=server).

The first server holds the computer's answer back for a long delay; it is killed while the
computer holds its turn. A new server on the same database hands out every pending turn of the
computer as it starts, before any page connects, and the computer answers.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import pytest

from bench._client import Browser, Seat, Table

from .conftest import start_servers

# Servers started, killed and started again, with the computer's answer held back on purpose.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

COMPUTER = "Computer (Easy)"


def children_thinking(parent: int) -> list[int]:
    """The pool processes a server spawned (multiprocessing's spawn_main)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_restart_while_the_computer_is_to_move_resumes_its_turn(database_url, request):
    name = request.node.name.replace("[", "-").rstrip("]")
    (slow,) = start_servers(database_url, f"{name}-before", 1, VENTURE_COMPUTER_DELAY_SECONDS="60")
    again = None
    try:
        alice = Browser(slow.base)
        alice.play_as_guest("Alice")
        code = alice.play_computer("Varis (green-white)", "Crawlers (black-red)", "easy")

        async def until_the_computer_decides() -> int:
            seat = await Seat.player(slow, code, alice.cookie_header, "Alice").connect()
            table = Table([seat], random.Random(1), timeout=10)
            while seat.waiting_on != COMPUTER:  # Alice answers (her mulligan, say)
                pending = await table.next_choice()
                assert pending is not None, "Alice has nothing to decide and the computer neither"
                outcome = await table.answer(seat, pending[1])
                assert not outcome.error, outcome.error
            version = seat.version
            await asyncio.sleep(1.0)
            assert seat.version == version  # the computer holds its turn (its long delay)
            await seat.close()
            return version

        version = asyncio.run(until_the_computer_decides())
        thinkers = children_thinking(slow.proc.pid)
        assert thinkers, "the server thinks for the computer in a child process"
        slow.kill()  # mid-turn, without a goodbye
        # Its thinking process does not outlive it.
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in thinkers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(pid) for pid in thinkers), "a killed server left its child behind"

        # DEBUG: the new server says when the computer answers, and at which version.
        (again,) = start_servers(database_url, f"{name}-after", 1, VENTURE_LOG_LEVEL="DEBUG")
        # The new server hands the turn out as it starts, before any page connects.
        deadline = time.monotonic() + 20
        while "handed out again (this server started)" not in again.log_text():
            assert time.monotonic() < deadline, "the computer's turn waited for a connection"
            time.sleep(0.2)

        async def resumed() -> None:
            seat = await Seat.player(again, code, alice.cookie_header, "Alice").connect()
            # The new server handed the turn out as it started: on a loaded machine the computer
            # can answer before this page connects, so the page shows that answer or the game
            # where the old server left it, never less.
            assert seat.version >= version
            assert await seat.wait_for(lambda: seat.version > version, 20), (
                "the computer did not answer after the restart"
            )
            assert not seat.over, "the game ended over the restart"
            await seat.close()

        asyncio.run(resumed())
        # The version moved by the computer's own answer to the decision it held when the old
        # server died (a restart that ended the game would have moved it too).
        assert re.search(rf"the computer answered .* at {version} \(", again.log_text()), (
            again.log_text()[-2000:]
        )
    finally:
        slow.stop()
        if again is not None:
            again.stop()
