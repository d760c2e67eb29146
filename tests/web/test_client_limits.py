"""One client's share of a server (docs/security.md, "Per client"): a spectator's messages are
answered without the database, every spectator socket of a game gets the one shared render of
each state (with nothing of any viewer's in it), and the sockets and messages of one session
and of one address are bounded across sockets."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from game import consumers, services, socket_clients
from game.asgi import application
from game.board import batching
from game.models import Game

from .helpers import make_player
from .sockets import (
    FLASH as REPLY,
)
from .sockets import (
    ORIGIN,
    VERSION,
    WAIT,
    Socket,
    answer,
    connect,
    db,
    players_and_game,
    session_cookie,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HANDS = ["Gloom Stalker", "Power Word Kill", "Acererak the Archlich"]
FLASH = re.compile(r'<div id="flash"[^>]*>(.*?)</div>', re.S)


@pytest.fixture(autouse=True)
def no_clients_left() -> Iterator[None]:
    """Each test counts its own sockets (a failed test may leave some open)."""
    socket_clients._CLIENTS.clear()
    yield
    socket_clients._CLIENTS.clear()


def flashes(text: str) -> list[str]:
    return [m.strip() for m in FLASH.findall(text) if m.strip()]


def from_address(address: str) -> Any:
    """The ASGI app as a socket from `address` reaches it (Daphne's scope["client"])."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        return await application({**scope, "client": [address, 50000]}, receive, send)

    return app


async def open_socket(
    game: Game,
    *,
    cookie: bytes | None = None,
    path: str = "",
    address: str | None = None,
    host: bytes | None = None,
) -> tuple[WebsocketCommunicator, str]:
    """A socket and the first frame it received (the board, or why it is refused)."""
    headers = [ORIGIN]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    if host is not None:
        headers.append((b"host", host))
    app = from_address(address) if address else application
    comm = WebsocketCommunicator(app, f"/ws/game/{game.code}/{path}", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=10)


# the spectator's path ---------------------------------------------------------------------------
async def test_a_spectators_message_is_refused_in_the_consumer_with_the_services_words(
    monkeypatch: pytest.MonkeyPatch,
):
    alice, bob, game = await players_and_game()
    carol = await db(make_player)("carol")
    # What the services answer someone not seated is what a spectator's socket says.
    await db(game.refresh_from_db)()
    with pytest.raises(services.ActionRefused) as refused:
        await db(services.concede)(game.pk, carol, version=game.version, action_id="c-1")
    assert refused.value.message == consumers.WATCHING

    a = await connect(game, alice)
    spectators = [
        await connect(game, carol),  # a stranger on the game's own URL
        await connect(game),  # no session
        await connect(game, alice, path="watch/"),  # a player's watch link
    ]
    # From now on a spectator's message must not reach the action path (nor the database).
    calls: list[Any] = []
    monkeypatch.setattr(services, "perform", lambda *a: calls.append(a))
    for s in spectators:
        await s.send(action="concede", version=str(game.version))
        await s.send(action="answer", option="x", version=str(game.version))
        said = flashes(await s.reply() + await s.reply())
        assert said == [consumers.WATCHING.replace("'", "&#x27;")] * 2
    assert calls == []
    # A message that is not understood is still told so, as before.
    await spectators[0].send_json({"action": "fly"})
    said = flashes(await spectators[0].reply())
    assert said and "watching" not in said[0]
    # A seated player's socket still acts (through the action path).
    monkeypatch.undo()
    await answer(a, game, "cast Keen-Eared Sentry")
    assert 'data-kind="choose_dungeon"' in await a.answered(game)
    for s in [a, *spectators]:
        await s.close()
    await db(game.refresh_from_db)()
    assert game.status == Game.ACTIVE


async def test_spectator_sockets_share_one_render_per_version_with_nothing_of_their_viewers():
    alice, bob, game = await players_and_game()
    carol = await db(make_player)("carol")
    # Each browser has its own CSRF cookie; a spectator's page must carry none of them.
    secrets = {"alice-csrf-0123456789abcdef0123", "carol-csrf-0123456789abcdef0123"}
    alice_cookie = await db(session_cookie)(alice)
    carol_cookie = await db(session_cookie)(carol)
    host = b"testserver"
    # The player first: a player's arrival is news to every page (presence), a spectator's not.
    player = Socket(game, alice_cookie + b"; csrftoken=alice-csrf-0123456789abcdef0123")
    await player.connect()
    assert "alice-csrf-0123456789abcdef0123" in player.text  # a player's forms carry hers
    made = batching.renders_made
    watch, first = await open_socket(
        game,
        cookie=alice_cookie + b"; csrftoken=alice-csrf-0123456789abcdef0123",
        path="watch/",
        host=host,
    )
    stranger, second = await open_socket(
        game, cookie=carol_cookie + b"; csrftoken=carol-csrf-0123456789abcdef0123", host=host
    )
    # Two spectators, one render: the second socket got the very board the first did.
    assert first == second
    assert batching.renders_made == made + 1

    await answer(player, game, "cast Keen-Eared Sentry")
    await player.answered(game)
    frames: list[list[str]] = [[], []]
    for frames_of, comm in zip(frames, (watch, stranger), strict=True):
        while str(game.version) not in VERSION.findall(frames_of[-1] if frames_of else ""):
            frame = await comm.receive_from(timeout=WAIT)
            # The chat is its viewer's own, apart from the board (tests/web/test_chat_socket.py).
            if not frame.lstrip().startswith('<div id="chat-panel"'):
                frames_of.append(frame)
    # The new version reached both as the same fragments, rendered once for both.
    assert frames[0] == frames[1] and frames[0]
    assert batching.renders_made == made + 2
    seen = "\n".join([first, *frames[0]])
    assert "Keen-Eared Sentry" in seen and "alice is choosing a dungeon" in seen
    assert "spectating" in first
    for secret in [*HANDS, *secrets, "csrfmiddlewaretoken", 'name="option"', "(you)"]:
        assert secret not in seen, secret
    # The watch link is made from the page's own host.
    assert f'href="http://testserver/g/{game.code}/watch/"' in first
    for comm in (watch, stranger):
        await comm.disconnect()
    await player.close()


async def test_someone_not_seated_in_an_open_game_who_joins_gets_their_seat_on_the_same_socket():
    alice = await db(make_player)("alice")
    carol = await db(make_player)("carol")
    game = await db(services.create_game)(alice, deck_name="Forests", deck=["Forest"] * 40)
    s = await connect(game, carol)  # not seated yet, but may join: not a known spectator
    assert "waiting for its second player" in s.text
    await db(services.join_game)(game.pk, carol, deck_name="Forests", deck=["Forest"] * 40)
    frames = await s.wait_for("Your hand")
    assert "spectating" not in frames
    await s.close()


# sockets per client ------------------------------------------------------------------------------
async def test_a_session_holds_at_most_its_sockets_and_the_page_says_why(settings: Any):
    settings.VENTURE_WS_SOCKETS_PER_SESSION = 2
    alice, bob, game = await players_and_game()
    cookie = await db(session_cookie)(alice)
    held = [await open_socket(game, cookie=cookie), await open_socket(game, cookie=cookie)]
    comm, said = await open_socket(game, cookie=cookie, path="watch/")
    assert "Too many open game pages from this browser (at most 2 at once)" in said
    assert (await comm.receive_output(timeout=1)) == {
        "type": "websocket.close",
        "code": consumers.TOO_MANY_SOCKETS,
    }
    await comm.disconnect()
    # Another browser is not affected; a closed tab frees its place.
    other, board = await open_socket(game, cookie=await db(session_cookie)(bob))
    assert 'id="board"' in board
    await held[0][0].disconnect()
    again, board = await open_socket(game, cookie=cookie)
    assert 'id="board"' in board and "Too many" not in board
    for c in (held[1][0], other, again):
        await c.disconnect()
    assert socket_clients._CLIENTS == {}  # nothing kept once a client's sockets are closed


async def test_an_address_holds_at_most_its_sockets(settings: Any):
    settings.VENTURE_WS_SOCKETS_PER_ADDRESS = 3
    alice, bob, game = await players_and_game()
    held = [await open_socket(game, path="watch/", address="10.0.0.7") for _ in range(3)]
    comm, said = await open_socket(game, path="watch/", address="10.0.0.7")
    assert "Too many open game pages from your network address (at most 3 at once)" in said
    assert (await comm.receive_output(timeout=1))["code"] == consumers.TOO_MANY_SOCKETS
    await comm.disconnect()
    elsewhere, board = await open_socket(game, path="watch/", address="10.0.0.8")
    assert 'id="board"' in board
    for c, _ in held:
        await c.disconnect()
    await elsewhere.disconnect()


# messages per client -----------------------------------------------------------------------------
async def _flashes(comm: WebsocketCommunicator, count: int) -> str:
    """Frames until `count` #flash replies have arrived."""
    out: list[str] = []
    while sum(f.startswith(REPLY) for f in out) < count:
        out.append(await comm.receive_from(timeout=WAIT))
    return "\n".join(out)


async def _quiet(comm: WebsocketCommunicator) -> str:
    """Frames until 0.3 s pass without one: for a socket some of whose messages get no reply."""
    out = []
    while not await comm.receive_nothing(timeout=0.3):
        out.append(await comm.receive_from())
    return "\n".join(out)


async def _send(comm: WebsocketCommunicator, **fields: str) -> str:
    fields.setdefault("action_id", f"id-{id(fields)}")
    await comm.send_to(text_data=json.dumps({**fields, "HEADERS": {"HX-Request": "true"}}))
    # Each message here is answered: a reply, or the first "slow down" of a bucket run dry.
    return await _flashes(comm, 1)


async def test_the_sockets_of_one_session_share_one_message_bucket(settings: Any):
    settings.VENTURE_WS_SESSION_RATE = (0.01, 3)  # three messages, then (nearly) none
    alice, bob, game = await players_and_game()
    cookie = await db(session_cookie)(alice)
    tabs = [(await open_socket(game, cookie=cookie))[0] for _ in range(2)]
    said = [await _send(tabs[i % 2], action="fly") for i in range(4)]
    # Each tab is far under its own connection's limit (20 a second, bursts of 40), yet the
    # fourth message of the session is dropped, unread, with the "slow down" notice.
    assert all(flashes(s) and consumers.SLOW_DOWN not in s for s in said[:3])
    assert consumers.SLOW_DOWN in said[3]
    # Another session is not affected.
    bobs = (await open_socket(game, cookie=await db(session_cookie)(bob)))[0]
    assert consumers.SLOW_DOWN not in await _send(bobs, action="fly")
    for c in [*tabs, bobs]:
        await c.disconnect()


async def test_the_sockets_of_one_address_share_one_message_bucket(settings: Any):
    settings.VENTURE_WS_ADDRESS_RATE = (0.01, 2)
    alice, bob, game = await players_and_game()
    socks = [(await open_socket(game, path="watch/", address="10.0.0.9"))[0] for _ in range(3)]
    said = [await _send(s, action="concede", version="0") for s in socks]
    assert "watching" in said[0] and "watching" in said[1]
    assert consumers.SLOW_DOWN in said[2]
    other = (await open_socket(game, path="watch/", address="10.0.0.10"))[0]
    assert "watching" in await _send(other, action="concede", version="0")
    for c in [*socks, other]:
        await c.disconnect()


async def test_the_defaults_allow_tabs_and_a_lan_party():
    """A person has several tabs; a LAN party shares one address."""
    assert settings.VENTURE_WS_SOCKETS_PER_SESSION == 16
    assert settings.VENTURE_WS_SOCKETS_PER_ADDRESS == 64
    assert settings.VENTURE_WS_SESSION_RATE == (20.0, 40.0)
    assert settings.VENTURE_WS_ADDRESS_RATE == (100.0, 200.0)


async def test_a_spectator_socket_has_a_small_bucket_of_its_own():
    """A spectator's page has no form: its socket may send VENTURE_WS_SPECTATOR_RATE (2 a
    second, bursts of 10), where a player's may send 20 (bursts of 40)."""
    alice, bob, game = await players_and_game()
    spectator = (await open_socket(game, path="watch/"))[0]
    player = (await open_socket(game, cookie=await db(session_cookie)(alice)))[0]
    for comm, fields in ((spectator, {"action": "concede", "version": "0"}), (player, {})):
        for n in range(15):  # at once: the buckets have no time to refill
            message = {**fields, "action_id": f"m{n}", "HEADERS": {"HX-Request": "true"}}
            await comm.send_to(text_data=json.dumps(message or {"action": "fly"}))
    # The player's fifteen are each answered; the spectator's beyond its bucket are not (a
    # few "slow down" notices instead), so its count is taken once its socket is quiet.
    said = [await _quiet(spectator), await _flashes(player, 15)]
    assert said[0].count("watching") in (10, 11) and consumers.SLOW_DOWN in said[0]
    assert consumers.SLOW_DOWN not in said[1] and len(flashes(said[1])) == 15
    for c in (spectator, player):
        await c.disconnect()
