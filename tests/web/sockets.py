"""A browser's websocket for the consumer tests: the player's session cookie, the page's Origin,
every frame recorded. Shared by the websocket tests of tests/web.

A test waits for what it expects, however long a busy machine makes the server take: the reply
to what its socket sent (`reply`), the page brought to the game's version (`caught_up`), or a
frame holding some text (`wait_for`). Waiting for a quiet socket instead (`drain`) is for a test
that asserts what does NOT arrive."""

from __future__ import annotations

import asyncio
import json
import re
import secrets

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from game.asgi import application
from game.models import Game

from .helpers import make_player, option_id, pending, start_position

ORIGIN = (b"origin", b"http://testserver")
FLASH = '<div id="flash"'
# How long a test waits for a frame it expects: generous, as a busy machine is slow, and no
# test waits it out unless what it expects never comes.
WAIT = 10.0
VERSION = re.compile(r'id="(?:topbar|board)"[^>]*?data-version="(\d+)"')


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

    async def connect(self) -> None:
        connected, _ = await self.comm.connect()
        assert connected
        # The whole board comes first; on a busy machine it may take a while.
        self.frames.append(await self.comm.receive_from(timeout=WAIT))
        if 'id="topbar"' in self.frames[-1]:
            # A game under way: the chat's panel follows, the last thing a connect sends (a
            # test that goes on before it would race the server's connect work).
            await self.wait_for('id="chat-panel"')

    async def until(self, arrived, timeout: float = WAIT) -> str:
        """Frames until `arrived(frame)` holds for one of them (however long a busy machine
        makes the server take); returns the new frames joined, that one included."""
        new = []
        try:
            async with asyncio.timeout(timeout):
                while True:
                    frame = await self.comm.receive_from(timeout=timeout)
                    new.append(frame)
                    self.frames.append(frame)
                    if arrived(frame):
                        return "\n".join(new)
        except TimeoutError:
            raise AssertionError(f"what was awaited never arrived; got {new[-3:]!r}") from None

    async def wait_for(self, text: str, timeout: float = WAIT) -> str:
        """Frames until one holds `text`; returns them joined."""
        try:
            return await self.until(lambda frame: text in frame, timeout)
        except AssertionError:
            raise AssertionError(f"{text!r} never arrived; got {self.text[-500:]!r}") from None

    async def reply(self, timeout: float = WAIT) -> str:
        """Frames until the #flash that answers this socket's last message (the server answers
        every message: a refusal in words, or an empty flash once the action was applied)."""
        return await self.until(lambda frame: frame.startswith(FLASH), timeout)

    async def caught_up(self, game: Game, timeout: float = WAIT) -> str:
        """Frames until the page shows the game's version in the database (or a later one): what
        every page of the game receives once an action is applied. "" if it already does."""
        await db(game.refresh_from_db)()
        if self.shown_version() >= game.version:
            return ""
        return await self.until(lambda _: self.shown_version() >= game.version, timeout)

    async def answered(self, game: Game) -> str:
        """The reply to this socket's answer and its page brought to the game's new version."""
        return await self.reply() + "\n" + await self.caught_up(game)

    def shown_version(self) -> int:
        return max((int(v) for f in self.frames for v in VERSION.findall(f)), default=-1)

    async def drain(self, quiet: float = 0.15) -> str:
        """Everything that arrives until `quiet` seconds pass without a frame; returns it
        joined. Only for a test that asserts what does NOT arrive (after waiting for what
        does): a quiet socket is no proof that the server is done."""
        new = []
        while not await self.comm.receive_nothing(timeout=quiet):
            new.append(await self.comm.receive_from())
        self.frames += new
        return "\n".join(new)

    async def send(self, **fields) -> None:
        """Send a form's fields as htmx does; like a rendered form, each carries a fresh action
        id unless the test gives one (or None: none at all)."""
        fields.setdefault("action_id", secrets.token_hex(8))
        if fields["action_id"] is None:
            del fields["action_id"]
        await self.send_json({**fields, "HEADERS": {"HX-Request": "true"}})

    async def send_json(self, data: object) -> None:
        await self.comm.send_to(text_data=json.dumps(data))

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
        got.append(await sock.answered(game))
    return "\n".join(got)
