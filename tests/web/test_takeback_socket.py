"""Takebacks over the game's websocket, with two real communicators: the request reaches the
opponent's page live, the asker's page shows it pending with a way to withdraw it; accepted,
declined, withdrawn; refused with a sentence that changes nothing; the computer's reply."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.utils import timezone

from game import services
from game.models import Game, Seat
from game.services.lifecycle import start_game

from .helpers import make_player, position_text
from .sockets import answer, connect, db, players_and_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TABLE = "takeback_table.yaml"
VERSIONS = re.compile(r'id="topbar"[^>]*?data-version="(\d+)"')


def last_version(sock) -> int:
    """The version the page shows now (after a takeback it goes down: not the highest seen)."""
    return int(VERSIONS.findall(sock.text)[-1])


async def shown(sock, text: str) -> None:
    """`text` is on the page: already received (with the reply to its own message, say), or in
    a frame to come."""
    if text not in sock.text:
        await sock.wait_for(text)


async def send(sock, game: Game, action: str) -> str:
    await db(game.refresh_from_db)()
    await sock.send(action=action, version=str(game.version))
    return await sock.reply()


async def played_forest():
    alice, bob, game = await players_and_game(TABLE)
    a = await connect(game, alice)
    b = await connect(game, bob)
    await answer(a, game, "play Forest")
    await a.answered(game)
    await b.caught_up(game)
    assert "alice plays Forest · 3 left" in a.text
    return alice, bob, game, a, b


async def test_asked_then_accepted_live_on_both_pages():
    alice, bob, game, a, b = await played_forest()
    watching = await connect(game, path="watch/")
    assert (await send(a, game, "takeback")).endswith("hidden></div>")  # applied: no message
    await shown(a, "You asked bob to take back an answer")
    assert 'id="withdraw-takeback"' in a.text
    await shown(b, "alice asks to take back an answer")
    assert 'id="accept-takeback"' in b.text and 'id="decline-takeback"' in b.text
    await shown(
        watching, "alice asks to take back an answer (alice plays Forest); bob is to reply."
    )
    assert "accept-takeback" not in watching.text and 'id="takeback"' not in watching.text

    assert "hidden></div>" in await send(b, game, "accept_takeback")
    for sock in (a, b):
        await shown(sock, "bob accepted")
    await db(game.refresh_from_db)()
    assert game.version == 0
    assert 'data-option="play Forest"' in a.text  # her decision again, the land in hand
    assert last_version(a) == 0 and last_version(b) == 0
    await shown(watching, "bob accepted")
    await watching.close()
    await a.close()
    await b.close()


async def test_declined_and_withdrawn_live():
    alice, bob, game, a, b = await played_forest()
    await send(a, game, "takeback")
    await shown(b, "alice asks to take back an answer")
    await send(b, game, "decline_takeback")
    for sock in (a, b):
        await shown(sock, "bob declined")
    assert "alice plays Forest · 2 left" in a.text

    await send(a, game, "takeback")
    await b.wait_for("alice asks to take back an answer")  # (again: a new frame)
    await send(a, game, "withdraw_takeback")
    for sock in (a, b):
        await shown(sock, "then withdrew the request")
    await db(game.refresh_from_db)()
    assert game.version == 1 and game.log_epoch == 2
    assert not await db(Seat.objects.filter(game=game, takeback_to__isnull=False).exists)()
    await a.close()
    await b.close()


async def test_a_refusal_is_a_sentence_to_the_sender_alone_and_changes_nothing():
    alice, bob, game, a, b = await played_forest()
    reply = await send(b, game, "takeback")
    assert "The last answer was alice&#x27;s" in reply
    await b.drain()
    assert "asks to take back" not in a.text
    # While a request is pending an answer waits, with a sentence.
    await send(a, game, "takeback")
    await shown(b, "alice asks to take back an answer")
    await db(game.refresh_from_db)()
    await b.send(action="answer", option="pass", version=str(game.version))
    assert "alice asks to take back an answer: accept or decline first." in await b.reply()
    reply = await send(b, game, "withdraw_takeback")
    assert "You have no request to take back an answer to withdraw" in reply
    await db(game.refresh_from_db)()
    assert game.version == 1 and game.log_epoch == 0
    await a.close()
    await b.close()


async def test_a_reply_from_anyone_but_the_opponent_is_refused_and_the_request_stands():
    alice, bob, game, a, b = await played_forest()
    carol = await db(make_player)("carol")
    await send(a, game, "takeback")
    await shown(b, "alice asks to take back an answer")
    strangers = [
        await connect(game, carol),
        await connect(game),  # no session at all
        await connect(game, bob, path="watch/"),  # the opponent's spectator page
    ]
    for sock in strangers:
        for action in ("accept_takeback", "decline_takeback", "withdraw_takeback"):
            assert "only its two players can act" in await send(sock, game, action), action
        await sock.close()
    # The asker can't answer her own request.
    reply = await send(a, game, "accept_takeback")
    assert "There is no request to take back an answer to reply to" in reply
    await db(game.refresh_from_db)()
    assert game.version == 1 and game.log_epoch == 0
    assert await db(Seat.objects.filter(game=game, takeback_to=0).count)() == 1
    assert 'id="accept-takeback"' in b.text  # still bob's to answer
    await a.close()
    await b.close()


def _against_easy_computer(alice) -> Game:
    with transaction.atomic():
        return _start_against_easy_computer(alice)


def _start_against_easy_computer(alice) -> Game:
    game = Game.objects.create(
        created_by=alice, scenario_name=TABLE, scenario_text=position_text(TABLE), dungeons=[]
    )
    Seat.objects.create(game=game, player=alice, position=0)
    Seat.objects.create(game=game, player=services.computer_player("easy"), position=1)
    start_game(game, timezone.now())
    game.refresh_from_db()
    return game


async def test_the_computer_replies_at_once():
    alice = await db(make_player)("alice")
    game = await db(_against_easy_computer)(alice)
    a = await connect(game, alice)
    await answer(a, game, "play Forest")
    await a.answered(game)
    await send(a, game, "takeback")
    await shown(a, "Computer (Easy) accepted")
    assert "You asked" not in a.text  # never pending: the reply came with the request
    await db(game.refresh_from_db)()
    assert game.version == 0
    await a.close()
