"""Hostile input on the game's websocket and its HTTP endpoint: every malformed, oversized,
stale, misaddressed or flooding message gets a clear error, the game is untouched, and the
connection stays open (a valid action still works afterwards)."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from game.asgi import application
from game.models import ActionReceipt, Game, GameAction

from .helpers import option_id, pending
from .sockets import ORIGIN, answer, connect, db, passes, players_and_game, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def flash(frames: str) -> str:
    """The text of the last non-empty #flash in `frames`."""
    texts = [
        part.split(">", 1)[1].split("</div>", 1)[0]
        for part in frames.split('<div id="flash"')[1:]
        if "hidden" not in part.split(">", 1)[0]
    ]
    return texts[-1] if texts else ""


async def snapshot(game: Game) -> tuple[int, int, int]:
    await db(game.refresh_from_db)()
    actions = await db(GameAction.objects.filter(game=game).count)()
    receipts = await db(ActionReceipt.objects.filter(game=game).count)()
    return game.version, actions, receipts


async def test_every_kind_of_bad_message_is_refused_with_a_reason_and_changes_nothing():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    v = str(game.version)
    cast = await db(option_id)(game, "cast Keen-Eared Sentry")
    before = await snapshot(game)
    cases = [
        ("this is not json", "not JSON"),
        ("[1, 2, 3]", "JSON object"),
        ('"answer"', "JSON object"),
        ("[" * 5000 + "]" * 5000, "not JSON"),  # nesting deep enough to break a recursive parser
        (json.dumps({"action": "dance", "version": v, "action_id": "x1"}), "Unknown action"),
        (json.dumps({"version": v, "action_id": "x2"}), "Unknown action"),
        (json.dumps({"action": "answer", "option": cast, "action_id": "x3"}), "which version"),
        (json.dumps({"action": "answer", "option": cast, "version": v}), "no valid action id"),
        (
            json.dumps({"action": "answer", "option": cast, "version": [1], "action_id": "x4"}),
            "which version",
        ),
        (
            json.dumps({"action": "answer", "option": cast, "version": True, "action_id": "x5"}),
            "which version",
        ),
        (
            json.dumps({"action": "answer", "option": cast, "version": "-1", "action_id": "x6"}),
            "which version",
        ),
        (
            json.dumps({"action": "answer", "option": cast, "version": v, "action_id": "a b"}),
            "no valid action id",
        ),
        (
            json.dumps({"action": "answer", "option": cast, "version": v, "action_id": 7}),
            "no valid action id",
        ),
        (
            json.dumps(
                {"action": "answer", "option": {"id": cast}, "version": v, "action_id": "x7"}
            ),
            "Options are named",
        ),
        (
            json.dumps({"action": "answer", "option": [cast, 3], "version": v, "action_id": "x8"}),
            "Options are named",
        ),
        (json.dumps({"action": "answer", "version": v, "action_id": "x9"}), "Choose an option"),
        (
            json.dumps(
                {"action": "answer", "option": cast, "version": v, "action_id": "y1", "admin": 1}
            ),
            "Unknown field",
        ),
        (
            json.dumps({"action": "answer", "pos:a": "x", "version": v, "action_id": "y2"}),
            "position is a number",
        ),
        (
            json.dumps(
                {"action": "pace", "full_control": "maybe", "version": v, "action_id": "y3"}
            ),
            "on or off",
        ),
        (
            json.dumps(
                {"action": "pace", "pass_until": "forever", "version": v, "action_id": "y4"}
            ),
            "Unknown pass mode",
        ),
        (json.dumps({"action": "pace", "version": v, "action_id": "y5"}), "names full_control"),
        (
            json.dumps(
                {"action": "answer", "option": "cast:9999", "version": v, "action_id": "y6"}
            ),
            "is not an option",
        ),
        (json.dumps({"action": "claim", "version": v, "action_id": "y7"}), "may still come back"),
        (
            json.dumps(
                {
                    "action": "pace",
                    "stop": "mine:untap",
                    "stop_on": "on",
                    "version": v,
                    "action_id": "z1",
                }
            ),
            "is not a stop",
        ),
        (
            json.dumps({"action": "pace", "stop": "mine:end", "version": v, "action_id": "z2"}),
            "stop_on is on or off",
        ),
        (
            json.dumps(
                {
                    "action": "pace",
                    "stop": "mine:end",
                    "stop_on": "on",
                    "full_control": "on",
                    "version": v,
                    "action_id": "z3",
                }
            ),
            "on its own",
        ),
        (
            json.dumps({"action": "rematch", "version": v, "action_id": "z4"}),
            "once this game is over",
        ),
        (
            json.dumps({"action": "answer", "option": cast, "version": "99", "action_id": "y8"}),
            "newer than the game",
        ),
    ]
    for message, expected in cases:
        await a.comm.send_to(text_data=message)
        reply = flash(await a.reply())
        assert expected in reply, (message[:80], reply)
    await a.comm.send_to(bytes_data=b"\x00\x01binary")
    assert "send text" in flash(await a.reply())
    assert await snapshot(game) == before

    # Still open, still playing: a good answer goes through.
    await answer(a, game, "cast Keen-Eared Sentry")
    await a.answered(game)
    assert (await snapshot(game))[0] > before[0]
    await a.close()


async def test_an_oversized_message_is_refused_unread_and_the_socket_stays_open():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    big = json.dumps({"action": "answer", "option": "x" * 100_000, "version": "0"})
    await a.comm.send_to(text_data=big)
    assert "too large" in flash(await a.reply())
    await answer(a, game, "cast Keen-Eared Sentry")
    assert 'data-kind="choose_dungeon"' in await a.answered(game)
    await a.close()


async def test_options_from_an_earlier_decision_and_answers_for_the_other_seat_are_refused():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)
    cast = await db(option_id)(game, "cast Keen-Eared Sentry")
    await answer(a, game, "cast Keen-Eared Sentry")
    await a.answered(game)
    await b.caught_up(game)
    await passes(b, game, "bob")  # bob holds cards: asked about the spell on the stack
    await a.caught_up(game)
    before = await snapshot(game)
    d = await db(pending)(game)
    assert d.kind == "choose_dungeon"

    # An option of the earlier decision, sent with the current version: not an option now.
    await a.send(action="answer", option=cast, version=str(before[0]))
    assert "is not an option" in flash(await a.reply())
    # The same option with the old version: that decision was answered.
    await a.send(action="answer", option=cast, version="0")
    assert "You already answered" in flash(await a.reply())
    # Bob answers alice's decision, with a correct option id and version.
    await b.send(action="answer", option=d.options[0].id, version=str(before[0]))
    assert "It is alice&#x27;s decision" in flash(await b.reply())
    # Bob claims to be alice: the seat comes from the session, not from the message.
    await b.send_json(
        {"action": "answer", "option": d.options[0].id, "version": str(before[0]),
         "action_id": "z1", "player": "alice"}
    )  # fmt: skip
    assert "Unknown field(s): player" in flash(await b.reply())
    assert await snapshot(game) == before
    await a.close()
    await b.close()


async def test_a_flood_is_rate_limited_per_connection_and_the_connection_stays_open(settings):
    settings.VENTURE_WS_RATE_PER_SECOND = 5
    settings.VENTURE_WS_BURST = 10
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)
    before = await snapshot(game)
    for i in range(200):
        await a.send(action="pace", full_control="on", version="0", action_id=f"f{i}")
    # Quiet, not a reply: the point is that most of the flood gets none.
    frames = await a.drain(0.3)
    flashes = frames.count('<div id="flash"')
    # The burst of ten (and what trickled in meanwhile at five a second) was taken; the rest
    # was refused with a few "slow down" notices, not one reply each.
    assert "slow down" in frames
    receipts = await db(ActionReceipt.objects.filter(game=game, kind="pace").count)()
    assert 10 <= receipts < 40
    assert flashes < receipts + 40
    assert (await snapshot(game))[0] == before[0]
    # The other connection is not limited by alice's flood, and alice's recovers.
    await b.send(action="pace", full_control="on", version=str(before[0]))
    assert flash(await b.reply()) == ""
    await a.comm.receive_nothing(timeout=0.5)
    await answer(a, game, "cast Keen-Eared Sentry")
    assert flash(await a.answered(game)) == ""
    assert (await snapshot(game))[0] > before[0]
    await a.close()
    await b.close()


async def test_the_origin_is_checked_on_the_handshake():
    alice, bob, game = await players_and_game()
    cookie = await db(session_cookie)(alice)
    for headers in (
        [(b"origin", b"http://evil.example"), (b"cookie", cookie)],
        [(b"cookie", cookie)],  # no Origin at all
    ):
        comm = WebsocketCommunicator(application, f"/ws/game/{game.code}/", headers=headers)
        connected, _ = await comm.connect()
        assert not connected
    comm = WebsocketCommunicator(
        application, f"/ws/game/{game.code}/", headers=[ORIGIN, (b"cookie", cookie)]
    )
    connected, _ = await comm.connect()
    assert connected
    await comm.disconnect()
