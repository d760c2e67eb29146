"""A browser's websocket for the consumer tests: the player's session cookie, the page's Origin,
every frame recorded. Shared by test_consumers, test_hostile_input, test_hidden_information."""

from __future__ import annotations

import asyncio
import json
import secrets

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from game.asgi import application
from game.models import Game

from .helpers import make_player, option_id, pending, start_position

ORIGIN = (b"origin", b"http://testserver")


def db(fn):
    return database_sync_to_async(fn)


def session_cookie(player) -> bytes:
    client = Client()
    client.force_login(player.user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


class Socket:
    """A browser's websocket: connects with the player's session, records every frame."""

    def __init__(
        self,
        game: Game,
        cookie: bytes | None = None,
        *,
        path: str = "",
        origin: tuple[bytes, bytes] | None = ORIGIN,
    ) -> None:
        headers = [origin] if origin is not None else []
        if cookie is not None:
            headers.append((b"cookie", cookie))
        url = f"/ws/game/{game.code}/{path}"
        self.comm = WebsocketCommunicator(application, url, headers=headers)
        self.frames: list[str] = []
        self.sent = False  # a message went out since the last drain: a reply is due

    async def connect(self) -> None:
        connected, _ = await self.comm.connect()
        assert connected
        # The whole board comes first; on a busy machine it may take a while.
        self.frames.append(await self.comm.receive_from(timeout=10))
        await self.drain()

    async def drain(self, timeout: float = 0.15, reply_within: float = 3.0) -> str:
        """Everything that arrives until the socket is quiet; returns the new frames joined.
        After this socket sent something, the first frame is awaited up to `reply_within`
        seconds (the server answers every message, an update or a refusal, and a busy machine
        may take longer than the quiet `timeout` to do it)."""
        new = []
        if self.sent and not await self.comm.receive_nothing(timeout=reply_within):
            new.append(await self.comm.receive_from())
        self.sent = False
        while not await self.comm.receive_nothing(timeout=timeout):
            new.append(await self.comm.receive_from())
        self.frames += new
        return "\n".join(new)

    async def wait_for(self, text: str, timeout: float = 10.0) -> str:
        """Frames until one holds `text` (what the server pushes when it is done, however
        long a busy machine makes it take); returns that frame's batch."""
        seen = []
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            chunk = await self.drain(0.05)
            seen.append(chunk)
            if text in chunk:
                return chunk
        raise AssertionError(f"{text!r} never arrived; got {''.join(seen)[-500:]!r}")

    async def send(self, **fields) -> None:
        """Send a form's fields as htmx does; like a rendered form, each carries a fresh action
        id unless the test gives one (or None: none at all)."""
        fields.setdefault("action_id", secrets.token_hex(8))
        if fields["action_id"] is None:
            del fields["action_id"]
        await self.send_json({**fields, "HEADERS": {"HX-Request": "true"}})

    async def send_json(self, data: object) -> None:
        await self.comm.send_to(text_data=json.dumps(data))
        self.sent = True

    @property
    def text(self) -> str:
        return "\n".join(self.frames)

    async def close(self) -> None:
        await self.comm.disconnect()


async def connect(game: Game, player=None, *, path: str = "") -> Socket:
    cookie = await db(session_cookie)(player) if player is not None else None
    sock = Socket(game, cookie, path=path)
    await sock.connect()
    return sock


async def players_and_game(position: str = "varis_fork.yaml"):
    alice = await db(make_player)("alice")
    bob = await db(make_player)("bob")
    game = await db(start_position)(alice, bob, position)
    return alice, bob, game


async def answer(sock: Socket, game: Game, label: str, **extra) -> None:
    await db(game.refresh_from_db)()
    oid = await db(option_id)(game, label)
    await sock.send(action="answer", option=oid, version=str(game.version), **extra)


async def passes(sock: Socket, game: Game, name: str) -> str:
    """The seat named `name` passes priority on `sock` for as long as it is the one asked (the
    pace feature stops a player holding cards when the opponent puts something on the stack);
    returns the frames that socket received meanwhile."""
    got = []
    while (d := await db(pending)(game)) is not None and (d.player, d.kind) == (name, "priority"):
        await answer(sock, game, "pass")
        got.append(await sock.drain())
    return "\n".join(got)
