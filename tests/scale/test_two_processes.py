"""One game, two Daphne processes, PostgreSQL and Redis (issue "Scale-out").

The players log in, create and join over HTTP and play over websockets, each on a different
process, exactly as two browsers behind a load balancer without sticky sessions would. A bot
answers every decision uniformly at random among the options the page offers, until the game
ends. Then both players must see the same game; and when a process is killed mid-game, its
player reconnects to the other one and the game goes on to its end.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bench import _servers
from bench._client import FRAGMENT_TAGS, Browser, Seat, Table, normalised

pytestmark = [pytest.mark.scale, pytest.mark.timeout(600)]

DECKS = ("Varis (green-white)", "Crawlers (black-red)")
MAX_ANSWERS = 1500  # random games end well before (bench/engine.py); a bound, not an expectation

_PLATE = re.compile(r'<div class="plate[^"]*" data-player="([^"]*)"')
_LIFE = re.compile(r'<span class="life-value">(-?\d+)</span>')
_COUNT = re.compile(r'<dd class="(hand-count|library-count)">(\d+)</dd>')
_PERM = re.compile(r'<div class="perm ([^"]*)"\s+data-name="([^"]*)" data-id="(\d+)"')
_LOG_LINE = re.compile(r"<li>(.*?)</li>", re.S)
_TOPBAR = re.compile(r'data-version="(\d+)" data-step="([^"]*)" data-active="([^"]*)"')
_HEADLINE = re.compile(r'<h2 class="over-headline">(.*?)</h2>')


def public(view: dict[str, str], me: str) -> dict:
    """What both players must see alike: the turn, each player's life, cards in hand and
    library, permanents (tapped or not), the stack, the log and the result. `me` is the
    viewer's name: the log says "targeting your …" to a player (game/board/whose.py), which is
    put back in names here so the two players' logs compare."""
    players = {}
    for name in ("me", "opponent"):
        html = view[name]
        perms = sorted((int(i), n, "tapped" in cls.split()) for cls, n, i in _PERM.findall(html))
        players[_PLATE.search(html).group(1)] = {
            "life": _LIFE.search(html).group(1),
            **dict(_COUNT.findall(html)),
            "permanents": perms,
        }
    headline = _HEADLINE.search(view["over"])
    return {
        "turn": _TOPBAR.search(view["topbar"]).groups(),
        "players": players,
        "stack": normalised(view["stack"]),
        "log": [_in_names(line, me) for line in _LOG_LINE.findall(view["log"])],
        "result": headline.group(1) if headline else None,
    }


def _in_names(line: str, me: str) -> str:
    """A log line as a spectator reads it: the viewer's "Your …" at the start, "(yours)" after
    a permanent dealt damage, and "your …" and "you" as targets, named."""
    if line.startswith("Your "):
        line = f"{me}&#39;s " + line.removeprefix("Your ")
    line = line.replace("(yours)", f"({me}&#39;s)")
    head, found, tail = line.partition(" targeting ")
    if not found:
        return line
    tail = re.sub(r"(^|, )your ", rf"\g<1>{me}&#39;s ", tail)
    tail = re.sub(r"(^|, )you(?=, |$| \(| <)", rf"\g<1>{me}", tail)  # <cite> may follow
    return head + found + tail


def start_game(first: str, second: str) -> tuple[Browser, Browser, str]:
    """Alice creates a game on the first process; Bob joins it on the second."""
    alice, bob = Browser(first), Browser(second)
    alice.play_as_guest("Alice")
    code = alice.create_game(DECKS[0])
    bob.play_as_guest("Bob")
    bob.join_game(code, DECKS[1])
    return alice, bob, code


def seat_on(server, browser: Browser, code: str, name: str) -> Seat:
    return Seat(f"{server.ws_base}/ws/game/{code}/", server.base, browser.cookie_header, name=name)


async def seated(one, two, alice: Browser, bob: Browser, code: str) -> tuple[Seat, Seat]:
    """Alice's socket on the first process, Bob's on the second, both with their boards."""
    a = await seat_on(one, alice, code, "Alice").connect()
    b = await seat_on(two, bob, code, "Bob").connect()
    return a, b


async def play(table: Table, answers: int) -> int:
    """Answer for whoever must decide until the game is over (or `answers` were given);
    returns how many answers were given. Every answer must reach both seats."""
    given = refused = 0
    while given < answers:
        pending = await table.next_choice()
        if pending is None:
            assert table.over, "nobody was offered a decision and the game is not over"
            return given
        seat, choice = pending
        outcome = await table.answer(seat, choice)
        assert not outcome.error, outcome.error
        if outcome.refused:
            # Only a random multi-pick the rules refuse (it is retried with the fewest).
            assert choice.kind == "multi", outcome.refused
            refused += 1
            # A bot that keeps picking what the rules refuse would loop here forever.
            assert refused < 50, f"50 refusals in a row: {outcome.refused}"
            continue
        given += 1
        refused = 0
    return given


async def finish(table: Table) -> None:
    """Play to the end; concede for Alice if the bound is reached (the game must still end)."""
    await play(table, MAX_ANSWERS)
    if not table.over:
        alice = table.seats[0]
        await alice.send({"action": "concede"})
    assert await table.wait(lambda: table.over, 10), "the game did not end"
    versions = {s.version for s in table.seats}
    assert await table.wait(lambda: len({s.version for s in table.seats}) == 1, 5), versions


def replays(server) -> list[str]:
    """The games a process rebuilt from their whole log (VENTURE_LOG_LEVEL=INFO and below)."""
    return re.findall(r"game (\d+): replayed \d+ answers", server.log_text())


async def fresh_view(server, browser: Browser, code: str) -> dict[str, str]:
    seat = await seat_on(server, browser, code, "fresh").connect()
    try:
        return seat.view
    finally:
        await seat.close()


def assert_same_view(mine: dict[str, str], fresh: dict[str, str]) -> None:
    for name in FRAGMENT_TAGS:
        if name in ("board", "flash"):
            continue
        assert normalised(mine[name]) == normalised(fresh[name]), name


def test_two_processes_play_one_game_to_the_end_with_identical_views(two_servers):
    one, two = two_servers
    alice, bob, code = start_game(one.base, two.base)

    async def scenario() -> None:
        a, b = await seated(one, two, alice, bob, code)
        table = Table([a, b], random.Random(2024))
        given = await play(table, MAX_ANSWERS)
        await finish(table)
        assert given > 20
        assert public(a.view, "Alice") == public(b.view, "Bob")
        assert public(a.view, "Alice")["result"] is not None
        # What each player was sent bit by bit is what the other process renders afresh.
        assert_same_view(a.view, await fresh_view(two, alice, code))
        assert_same_view(b.view, await fresh_view(one, bob, code))
        await a.close()
        await b.close()

    asyncio.run(scenario())
    # Each process rebuilt the game from its log at most once (when it first saw it, unless it
    # started the game); afterwards it only caught up with the answers the other one applied.
    for server in (one, two):
        assert len(replays(server)) <= 1, server.log_text()[-3000:]
        assert "caught up from" in server.log_text()


def test_a_killed_process_its_player_reconnects_to_the_other_and_finishes(two_servers):
    one, two = two_servers
    alice, bob, code = start_game(one.base, two.base)

    async def scenario() -> None:
        a, b = await seated(one, two, alice, bob, code)
        table = Table([a, b], random.Random(7))
        assert await play(table, 30) == 30, "the game ended before the process could be killed"
        version = max(a.version, b.version)

        two.kill()  # mid-game, without a goodbye: Bob's socket just drops
        assert await b.wait_for(lambda: b.closed, 10), "Bob's socket outlived its server"

        again = await seat_on(one, bob, code, "Bob").connect()
        assert again.version == version  # the whole current board at once, from the other one
        table.replace(b, again)
        await finish(table)
        assert public(a.view, "Alice") == public(again.view, "Bob")
        assert public(a.view, "Alice")["result"] is not None
        assert_same_view(again.view, await fresh_view(one, bob, code))
        await a.close()
        await again.close()

    asyncio.run(scenario())
    assert len(replays(one)) <= 1, one.log_text()[-3000:]


def test_every_database_connection_cut_mid_game_costs_no_action(two_servers, deployment):
    """PostgreSQL drops every connection of the game's database (a restart, a failover, a
    proxy's cut) between two answers, while the servers trust connections they checked under a
    second ago (game/runtime/dbpool.py): the next answers still apply and reach both players."""
    one, two = two_servers
    alice, bob, code = start_game(one.base, two.base)

    async def scenario() -> None:
        a, b = await seated(one, two, alice, bob, code)
        table = Table([a, b], random.Random(11))
        assert await play(table, 10) == 10, "the game ended too soon"
        for _ in range(3):
            _servers._admin_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{deployment.dbname}' AND pid <> pg_backend_pid()"
            )
            # At once: within the second in which each thread trusts its connection.
            assert await play(table, 3) == 3, "the game ended too soon"
        assert public(a.view, "Alice") == public(b.view, "Bob")
        await a.close()
        await b.close()

    asyncio.run(scenario())
    for server in (one, two):
        assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
