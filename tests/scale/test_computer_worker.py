"""The computer opponent at scale: PostgreSQL, Redis, two Daphne processes and a Channels worker
(`manage.py runworker --layer computer venture-computer`) that thinks for the computer.

A person creates a game against the computer on one process and plays it over a websocket on
the other, answering at random. While the computer holds its turn (the worker took it from
Redis and waits out its delay before answering), the worker is killed without a goodbye, and a
new one is started. The servers' watch hands the lost turn out again once it is overdue, the new
worker answers it, and the game goes on to its end, with every answer in the log once: the log's
indexes run without a gap, and each of the computer's answers carries its own action id and
receipt, once.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bench import _servers
from bench._client import Browser, Seat, Table

from .conftest import LOGS

pytestmark = [pytest.mark.scale, pytest.mark.timeout(600)]

MAX_ANSWERS = 1500
TIMEOUT_SECONDS = 4  # VENTURE_COMPUTER_TIMEOUT_SECONDS: a lost turn is handed out again after
DELAY_SECONDS = 1.5  # the worker holds each turn this long before answering: time to kill it
COMPUTER = "Computer (Easy)"


def sql(dbname: str, query: str, *params: object) -> list[tuple]:
    import psycopg

    with psycopg.connect(
        host=_servers.PG_HOST, port=_servers.PG_PORT, user=_servers.PG_USER, dbname=dbname
    ) as conn:
        return conn.execute(query, params).fetchall()


def test_a_worker_killed_mid_turn_is_replaced_and_the_game_ends_with_nothing_applied_twice(
    deployment, request
):
    LOGS.mkdir(parents=True, exist_ok=True)
    env = dict(
        deployment.env,
        VENTURE_COMPUTER="worker",
        VENTURE_COMPUTER_TIMEOUT_SECONDS=str(TIMEOUT_SECONDS),
        VENTURE_COMPUTER_DELAY_SECONDS="0.05",
    )
    # The worker alone holds a turn for DELAY_SECONDS: long enough to be killed holding it.
    worker_env = dict(env, VENTURE_COMPUTER_DELAY_SECONDS=str(DELAY_SECONDS))
    name = request.node.name[:60]
    servers, workers = [], []
    try:
        for n in (1, 2):
            log = LOGS / f"{name}-{n}.log"
            log.unlink(missing_ok=True)
            servers.append(_servers.Daphne(env, log).start())
        workers.append(_servers.Worker(worker_env, LOGS / f"{name}-worker-1.log"))
        one, two = servers

        alice = Browser(one.base)
        alice.play_as_guest("Alice")
        code = alice.play_computer("Varis (green-white)", "Crawlers (black-red)", "easy")

        async def scenario() -> None:
            seat = await Seat.player(two, code, alice.cookie_header, "Alice").connect()
            # Long enough for a lost turn: overdue after TIMEOUT_SECONDS, watched every 5 s.
            table = Table([seat], random.Random(5), timeout=40)
            given, killed = 0, False
            while given < MAX_ANSWERS:
                if not killed and given >= 8 and seat.waiting_on == COMPUTER:
                    version = seat.version
                    await asyncio.sleep(DELAY_SECONDS / 3)  # the worker took it and waits
                    workers[0].kill()
                    killed = True
                    # Its turn is lost with it: nothing is answered until it is handed out again.
                    await asyncio.sleep(1.0)
                    assert seat.version == version, "the killed worker's answer was applied"
                    # The new worker answers without holding its turns: nothing more is killed,
                    # and at DELAY_SECONDS a turn the rest of the game would take minutes.
                    workers.append(_servers.Worker(env, LOGS / f"{name}-worker-2.log"))
                pending = await table.next_choice()
                if pending is None:
                    assert table.over, "nobody was offered a decision and the game is not over"
                    break
                _, choice = pending
                outcome = await table.answer(seat, choice)
                assert not outcome.error, outcome.error
                if not outcome.refused:
                    given += 1
            assert killed, "the game ended before the worker could be killed"
            assert table.over, f"no result after {given} answers"
            await seat.close()

        started = time.monotonic()
        asyncio.run(scenario())
        assert time.monotonic() - started < 600
    finally:
        for worker in workers:
            worker.stop()
        for server in servers:
            server.stop()

    game_id, version, status = sql(
        deployment.dbname, "SELECT id, version, status FROM game_game WHERE code = %s", code
    )[0]
    assert status == "finished"
    indexes = [
        i
        for (i,) in sql(
            deployment.dbname,
            "SELECT index FROM game_gameaction WHERE game_id = %s ORDER BY index",
            game_id,
        )
    ]
    assert indexes == list(range(version))  # every answer once, none lost, none twice
    computer_answers = sql(
        deployment.dbname,
        "SELECT a.index, a.client_action_id FROM game_gameaction a"
        " JOIN game_seat s ON s.id = a.seat_id JOIN game_player p ON p.id = s.player_id"
        " WHERE a.game_id = %s AND p.computer_level <> '' AND NOT a.auto AND a.answer <> %s",
        game_id,
        '"!concede"',
    )
    assert len(computer_answers) > 5
    assert all(action_id == f"computer.{index}" for index, action_id in computer_answers)
    receipts = sql(
        deployment.dbname,
        "SELECT action_id, count(*) FROM game_actionreceipt"
        " WHERE game_id = %s AND action_id LIKE 'computer.%%' GROUP BY action_id",
        game_id,
    )
    assert sorted(r[0] for r in receipts) == sorted(a for _, a in computer_answers)
    assert all(n == 1 for _, n in receipts)
    # The lost turn was handed out again by a server's watch, and the new worker answered.
    watch = "".join(s.log_text() for s in servers)
    overdue = f"the computer's turn is handed out again (not answered within {TIMEOUT_SECONDS} s)"
    assert overdue in watch, watch[-3000:]
    assert "Traceback" not in watch, watch[-3000:]
