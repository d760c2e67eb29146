"""Races with real concurrent requests against real servers, on SQLite and on PostgreSQL.

Two Daphne processes share one database. For each decision, at the same instant: the deciding
player double-clicks in a tab on the first process (the same form twice), answers from a
second tab on the other process, and posts the same answer as a plain form (JavaScript off);
the other player answers too. Exactly one of the five is applied, the four others are each
told why (already answered / already received / not yours), and the database holds one
answer for the decision, one receipt, and a log whose length is the game's version."""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import sqlite3
from contextlib import closing

from bench._client import Browser, Seat

from .conftest import start_servers

DECKS = ("Varis (green-white)", "Crawlers (black-red)")
ROUNDS = 3
_MESSAGE = re.compile(r'<ul class="messages">\s*<li class="error">(.*?)</li>', re.S)


def query(url: str, sql: str, *params: object) -> list[tuple]:
    """Read the servers' database directly (no Django in this process points at it)."""
    if url.startswith("sqlite:///"):
        with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as conn:
            return conn.execute(sql.replace("%s", "?"), params).fetchall()
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


def stored(url: str, code: str) -> dict:
    (game_id, version), *_ = query(url, "SELECT id, version FROM game_game WHERE code = %s", code)
    actions = query(
        url,
        "SELECT idx, auto, client_action_id FROM ("
        ' SELECT "index" AS idx, auto, client_action_id FROM game_gameaction'
        " WHERE game_id = %s) a ORDER BY idx",
        game_id,
    )
    receipts = query(
        url, "SELECT kind, action_id FROM game_actionreceipt WHERE game_id = %s", game_id
    )
    return {"version": version, "actions": actions, "receipts": receipts}


def seat(server, browser: Browser, code: str, name: str) -> Seat:
    return Seat(f"{server.ws_base}/ws/game/{code}/", server.base, browser.cookie_header, name=name)


async def race(servers, browsers: dict[str, Browser], code: str, rng: random.Random) -> None:
    tabs = {
        (who, n): await seat(server, browsers[who], code, f"{who}@{n}").connect()
        for who in browsers
        for n, server in enumerate(servers)
    }
    decider = next(who for who in browsers if tabs[(who, 0)].choice() is not None)
    other = next(who for who in browsers if who != decider)
    choice = tabs[(decider, 0)].choice()
    fields = choice.answer(rng)

    def with_id(action_id: str) -> dict:
        return {**fields, "action_id": action_id}

    def post_without_javascript() -> str:
        data = {k: v for k, v in with_id(secrets.token_hex(8)).items() if not isinstance(v, list)}
        if isinstance(fields.get("option"), list):
            data["option"] = fields["option"][0]  # a plain form repeats the field; one is enough
        _, page = browsers[decider].post(f"/g/{code}/act/", data)
        found = _MESSAGE.search(page)
        return found.group(1) if found else ""

    senders = [tabs[(decider, 0)], tabs[(decider, 1)], tabs[(other, 0)]]
    before = [len(s.flashes) for s in senders]
    browsers[decider].base = servers[1].base
    click = with_id(secrets.token_hex(8))
    _, _, _, _, posted = await asyncio.gather(
        tabs[(decider, 0)].send(click),
        tabs[(decider, 0)].send(click),  # the double click: the same form, the same action id
        tabs[(decider, 1)].send(with_id(secrets.token_hex(8))),
        tabs[(other, 0)].send(with_id(secrets.token_hex(8))),
        asyncio.to_thread(post_without_javascript),
    )

    def refusals() -> list[str]:
        texts = [f for s, n in zip(senders, before, strict=True) for f in s.flashes[n:]]
        return texts + ([posted] if posted else [])

    deadline = asyncio.get_running_loop().time() + 15
    while len(refusals()) < 4 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # time for a fifth reply, were two answers both applied
    texts = refusals()
    assert len(texts) == 4, texts
    for text in texts:
        assert re.search(r"already answered|already received|not yours", text), text
    for tab in tabs.values():
        await tab.close()


def test_one_decision_answered_five_ways_at_once_is_applied_once(database_url, request):
    servers = start_servers(database_url, request.node.name.replace("/", "_"), 2)
    try:
        alice, bob = Browser(servers[0].base), Browser(servers[1].base)
        alice.play_as_guest("Alice")
        code = alice.create_game(DECKS[0])
        bob.play_as_guest("Bob")
        bob.join_game(code, DECKS[1])
        rng = random.Random(7)
        for n in range(1, ROUNDS + 1):
            asyncio.run(race(servers, {"alice": alice, "bob": bob}, code, rng))
            game = stored(database_url, code)
            manual = [a for a in game["actions"] if not a[1]]
            assert len(manual) == n, game  # one answer per decision, whatever raced
            assert [a[0] for a in game["actions"]] == list(range(game["version"]))
            answers = [r for r in game["receipts"] if r[0] == "answer"]
            assert len(answers) == n
            assert {a[2] for a in manual} == {r[1] for r in answers}
        for server in servers:
            assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
    finally:
        for server in servers:
            server.stop()
