"""The websocket's Host and scheme (docs/security.md, "Another site"): a handshake whose Host is
not one of ALLOWED_HOSTS is refused, by the same rules as HTTP; the absolute links the socket
writes (the invite, the watch link) use the scheme the browser used, the proxy's
X-Forwarded-Proto only when the settings say a proxy terminates TLS."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from game import services
from game.asgi import application
from game.models import Game

from .helpers import make_player
from .sockets import ORIGIN, db, players_and_game, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PROXY_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # what DJANGO_HTTPS=true sets


def with_scheme(scheme: str) -> Any:
    """The ASGI app as Daphne calls it for a socket over TLS (scope "scheme": "wss")."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        return await application({**scope, "scheme": scheme}, receive, send)

    return app


async def handshake(
    game: Game,
    host: bytes,
    *,
    cookie: bytes | None = None,
    extra: list[tuple[bytes, bytes]] = (),  # type: ignore[assignment]
    path: str = "",
    scheme: str = "ws",
) -> tuple[bool, str]:
    """Whether the handshake was accepted, and the first frame (the board) when it was."""
    # (The Origin check is channels' own, on ALLOWED_HOSTS as the server started: the page's
    # origin here is one it accepts, so that the Host check alone decides.)
    headers = [ORIGIN, (b"host", host), *extra]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(with_scheme(scheme), f"/ws/game/{game.code}/{path}", headers)
    connected, _ = await comm.connect()
    if not connected:
        return False, ""
    frame = await comm.receive_from(timeout=10)
    await comm.disconnect()
    return True, frame


async def test_a_host_outside_allowed_hosts_is_refused_at_the_handshake(settings: Any):
    settings.ALLOWED_HOSTS = ["venture.example", "testserver"]
    alice, bob, game = await players_and_game()
    for host in (b"evil.example", b"venture.example.evil.example", b"", b"venture.example@evil"):
        accepted, _ = await handshake(game, host)
        assert not accepted, host
    # Allowed, with or without a port: the board, its links on the page's own host.
    for host in (b"venture.example", b"venture.example:8443", b"testserver"):
        accepted, board = await handshake(game, host, path="watch/")
        assert accepted, host
        assert f'href="http://{host.decode()}/g/{game.code}/watch/"' in board


async def test_debug_without_allowed_hosts_allows_localhost_only_as_http_does(settings: Any):
    settings.DEBUG = True
    settings.ALLOWED_HOSTS = []
    alice, bob, game = await players_and_game()
    for host in (b"localhost:8000", b"127.0.0.1:8000", b"[::1]:8000", b"play.localhost"):
        assert (await handshake(game, host))[0], host
    assert not (await handshake(game, b"evil.example:8000"))[0]


async def test_the_invite_link_follows_the_proxys_scheme_only_when_a_proxy_is_trusted(
    settings: Any,
):
    settings.ALLOWED_HOSTS = ["venture.example"]
    alice = await db(make_player)("alice")
    game = await db(services.create_game)(alice, deck_name="Forests", deck=["Forest"] * 40)
    cookie = await db(session_cookie)(alice)
    behind_tls = [(b"x-forwarded-proto", b"https")]
    invite = f"venture.example/g/{game.code}/"

    # DJANGO_HTTPS=true: the proxy terminates TLS and says so; the link is https.
    settings.SECURE_PROXY_SSL_HEADER = PROXY_HEADER
    _, board = await handshake(game, b"venture.example", cookie=cookie, extra=behind_tls)
    assert f'id="invite-link" type="text" readonly value="https://{invite}"' in board
    # Trusted, but this request did not come through TLS: http.
    forwarded_http = [(b"x-forwarded-proto", b"http")]
    _, board = await handshake(game, b"venture.example", cookie=cookie, extra=forwarded_http)
    assert f'value="http://{invite}"' in board

    # No proxy is trusted: anyone could send the header, so it is not read.
    settings.SECURE_PROXY_SSL_HEADER = None
    _, board = await handshake(game, b"venture.example", cookie=cookie, extra=behind_tls)
    assert f'value="http://{invite}"' in board
    # The socket's own TLS (wss) is https either way.
    _, board = await handshake(game, b"venture.example", cookie=cookie, scheme="wss")
    assert f'value="https://{invite}"' in board
