"""The chat over the game's websocket (game/consumers.py, services/chat.py): lines arrive live to
their audience and no one else, the limits and every malformed frame answer with a sentence and
change nothing, muting and free text redraw the viewer's pages, a report is acknowledged, and
what a person wrote arrives escaped."""

from __future__ import annotations

import html
import json
import re

import pytest

from game import services
from game.models import ChatMessage, ChatReport
from game.services import rate_limits

from .helpers import make_player
from .sockets import Socket, connect, db, players_and_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

LINE = re.compile(
    r'<span class="chat-author">([^<]*)</span> <span class="chat-text">([^<]*)</span>'
)
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    settings.VENTURE_RATE_LIMITS = {
        **settings.VENTURE_RATE_LIMITS,
        "chat": {"player": "100/minute", "address": "100/minute"},
    }
    rate_limits.reset()
    yield
    rate_limits.reset()


def said(text: str) -> list[tuple[str, str]]:
    """The chat lines in frames: (author, words), unescaped."""
    return [(html.unescape(a), html.unescape(w)) for a, w in LINE.findall(text)]


async def everything(sock: Socket) -> list[tuple[str, str]]:
    """Every chat line this socket has received so far (after a quiet moment)."""
    await sock.drain()
    return said(sock.text)


def line_of(author: str, words: str) -> str:
    return f'<span class="chat-author">{author}</span> <span class="chat-text">{words}</span>'


async def test_a_line_reaches_the_two_players_live_and_no_spectator():
    alice, bob, game = await players_and_game()
    carol = await db(make_player)("carol")
    a, b = await connect(game, alice), await connect(game, bob)
    bob_watching = await connect(game, bob, path="watch/")  # a seated player on the watch link
    c = await connect(game, carol)  # logged in, not seated
    visitor = await connect(game, path="watch/")

    await a.send(action="chat", quick="hello")
    assert (await a.reply()).endswith(  # applied: the empty flash
        '<div id="flash" class="flash" role="alert" hx-swap-oob="true" hidden></div>'
    )
    await b.wait_for(line_of("alice", "Hello"))
    await bob_watching.wait_for(line_of("alice", "Hello"))
    await a.wait_for(line_of("alice", "Hello"))  # her own line, in its place
    await b.send(action="chat", text="good luck, have fun")
    await b.reply()
    await a.wait_for(line_of("bob", "good luck, have fun"))

    for spectator in (c, visitor):
        assert await everything(spectator) == []
        assert "good luck" not in spectator.text
    # Stored once each, and a reload shows them (the page's panel, then the socket's).
    assert await db(ChatMessage.objects.count)() == 2
    again = await connect(game, bob)
    assert said(again.text) == [("alice", "Hello"), ("bob", "good luck, have fun")]
    for sock in (a, b, bob_watching, c, visitor, again):
        await sock.close()


async def test_the_spectators_room_is_theirs_until_the_game_is_over():
    alice, bob, game = await players_and_game()
    carol, dave = await db(make_player)("carol"), await db(make_player)("dave")
    a = await connect(game, alice)
    c, d = await connect(game, carol), await connect(game, dave, path="watch/")
    visitor = await connect(game, path="watch/")

    # A spectator's socket chats, though it can't act on the game.
    await c.send(action="chat", text="alice has lethal")
    await c.reply()
    await d.wait_for(line_of("carol", "alice has lethal"))
    await d.send(action="chat", quick="nice")
    await visitor.wait_for(line_of("dave", "Nice play"))  # a visitor reads quick messages
    assert ("carol", "alice has lethal") not in await everything(visitor)  # free text: accounts
    await c.send(action="concede", version="0")
    assert "You are watching this game" in await c.reply()
    assert await everything(a) == []  # no kibitzing

    # Once the game is over the players' page opens the spectators' room.
    await db(services.concede)(game.pk, bob)
    await a.wait_for("open to you now that the game is over")
    assert ("carol", "alice has lethal") in said(a.text)
    await c.send(action="chat", quick="gg")
    await a.wait_for(line_of("carol", "Good game"))
    for sock in (a, c, d, visitor):
        await sock.close()


async def test_malformed_and_oversized_chat_frames_are_refused_with_a_reason_and_change_nothing():
    alice, bob, game = await players_and_game()
    a, b = await connect(game, alice), await connect(game, bob)
    bad = [
        ({"action": "chat"}, "one at a time"),
        ({"action": "chat", "quick": "gg", "text": "hi"}, "one at a time"),
        ({"action": "chat", "text": 5}, "is text"),
        ({"action": "chat", "text": ["a", "b"]}, "is text"),
        ({"action": "chat", "text": "x" * 141}, "at most 140 characters (this one has 141)"),
        ({"action": "chat", "text": "x" * 5000}, "at most 140 characters (this one has 5000)"),
        ({"action": "chat", "text": "   "}, "Type a message first"),
        ({"action": "chat", "text": "ring\x07"}, "can't hold the character U+0007"),
        ({"action": "chat", "quick": "insult"}, "Unknown quick message"),
        ({"action": "chat", "quick": "<b>"}, "Unknown quick message"),
        ({"action": "chat", "quick": "gg", "colour": "red"}, "Unknown field(s) in a chat"),
        ({"action": "chat", "quick": "gg", "action_id": "not an id!"}, "no valid action id"),
        ({"action": "chat_mute", "on": "maybe"}, "Say on or off"),
        ({"action": "chat_free_text"}, "Say on or off"),
        ({"action": "chat_report", "message": "first"}, "by its number"),
        ({"action": "chat_report", "message": "\u00b2"}, "by its number"),  # a digit to isdigit()
        ({"action": "chat_report", "message": "123456"}, "no such message"),
        ({"action": "chat_report", "message": "9" * 40}, "no such message"),
    ]
    for fields, words in bad:
        fields = {"action_id": "fresh0", **fields}
        await a.send_json(fields)
        reply = html.unescape(await a.reply())
        assert words in reply, (fields, reply)
    await a.comm.send_to(text_data=json.dumps({"action": "chat", "text": "y" * 40_000}))
    assert "too large" in await a.reply()

    assert await db(ChatMessage.objects.count)() == 0
    assert await db(ChatReport.objects.count)() == 0
    assert await everything(b) == []
    # The socket stays open and a good message goes through.
    await a.send(action="chat", quick="gg")
    await b.wait_for(line_of("alice", "Good game"))
    await a.close()
    await b.close()


async def test_what_a_person_wrote_arrives_escaped():
    alice, bob, game = await players_and_game()
    a, b = await connect(game, alice), await connect(game, bob)
    await a.send(action="chat", text=HOSTILE)
    await b.wait_for('class="chat-text"')
    frames = b.text
    assert "<script>alert" not in frames and "<img src=x" not in frames
    assert ("alice", HOSTILE) in said(frames)
    await a.close()
    await b.close()


async def test_a_mute_hides_the_other_side_on_every_page_of_the_muter_and_is_kept():
    alice, bob, game = await players_and_game()
    a, b = await connect(game, alice), await connect(game, bob)
    other_tab = await connect(game, alice)
    await b.send(action="chat", text="first")
    await a.wait_for(line_of("bob", "first"))

    await a.send(action="chat_mute", on="on")
    await a.reply()
    await a.wait_for("Muted: bob")
    await other_tab.wait_for("Muted: bob")  # her other tab too
    await b.send(action="chat", text="second")
    await b.wait_for(line_of("bob", "second"))
    rooms = a.text[a.text.rindex('id="chat-rooms"') :]
    assert said(rooms) == []  # the muted lines left her page
    assert ("bob", "second") not in await everything(a)
    assert ("bob", "second") not in await everything(other_tab)
    assert "Mute alice" in b.text and "Muted" not in b.text  # bob is not told

    reloaded = await connect(game, alice)
    assert said(reloaded.text) == [] and "Muted: bob" in reloaded.text
    await reloaded.send(action="chat_mute", on="off")
    await reloaded.wait_for("Mute bob")
    assert said(reloaded.text[reloaded.text.rindex('id="chat-rooms"') :]) == [
        ("bob", "first"),
        ("bob", "second"),
    ]
    for sock in (a, b, other_tab, reloaded):
        await sock.close()


async def test_a_guest_is_refused_free_text_until_they_turn_it_on():
    alice = await db(make_player)("alice")
    gus = await db(make_player)("gus", guest=True)
    from .helpers import start_position

    game = await db(start_position)(alice, gus, "varis_fork.yaml")
    a, g = await connect(game, alice), await connect(game, gus)
    assert 'id="chat-text"' not in g.text and "Free text is off for you" in g.text
    await a.send(action="chat", text="hi gus")
    await a.wait_for(line_of("alice", "hi gus"))
    await g.send(action="chat", text="hello")
    assert "Free text is off for you" in await g.reply()
    assert ("alice", "hi gus") not in await everything(g)
    await g.send(action="chat", quick="hello")
    await a.wait_for(line_of("gus", "Hello"))

    await g.send(action="chat_free_text", on="on")
    await g.wait_for('id="chat-text"')
    assert ("alice", "hi gus") in said(g.text)  # the rooms again, with the free text
    await g.send(action="chat", text="hello alice")
    await a.wait_for(line_of("gus", "hello alice"))
    await a.close()
    await g.close()


async def test_a_report_is_acknowledged_and_the_line_says_so():
    alice, bob, game = await players_and_game()
    a, b = await connect(game, alice), await connect(game, bob)
    await a.send(action="chat", text="rude words")
    await b.wait_for(line_of("alice", "rude words"))
    message = await db(ChatMessage.objects.get)()
    await b.send(action="chat_report", message=str(message.pk))
    assert "Reported" in await b.reply()
    await b.wait_for('class="chat-reported"')
    assert await db(ChatReport.objects.filter(message=message, reporter=bob).exists)()
    await b.send(action="chat_report", message=str(message.pk))
    assert "already" in await b.reply()
    assert await db(ChatReport.objects.count)() == 1
    await a.close()
    await b.close()


async def test_the_chat_rate_limit_refuses_with_a_sentence(settings):
    settings.VENTURE_RATE_LIMITS = {
        **settings.VENTURE_RATE_LIMITS,
        "chat": {"player": "2/minute", "address": "2/minute"},
    }
    alice, bob, game = await players_and_game()
    a, b = await connect(game, alice), await connect(game, bob)
    for _ in range(2):
        await a.send(action="chat", quick="hello")
        assert "too fast" not in await a.reply()
    await a.send(action="chat", quick="gg")
    assert "sending messages too fast" in await a.reply()
    assert await db(ChatMessage.objects.count)() == 2
    # Another tab of alice counts against the same player.
    other = await connect(game, alice)
    await other.send(action="chat", quick="gg")
    assert "too fast" in await other.reply()
    for sock in (a, b, other):
        await sock.close()


async def test_a_message_sent_twice_is_stored_once_and_the_form_comes_back_fresh():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    await a.send(action="chat", quick="hello", action_id="twice1")
    await a.reply()
    await a.send(action="chat", quick="hello", action_id="twice1")
    assert "already sent" in await a.reply()
    await a.wait_for('id="chat-quick"')
    assert 'value="twice1"' not in a.text[a.text.rindex('id="chat-quick"') :]
    assert await db(ChatMessage.objects.count)() == 1
    await a.close()
