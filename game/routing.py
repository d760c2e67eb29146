"""Websocket URL routes, mounted by game.asgi under SessionMiddlewareStack (the consumer reads
the user from the session after the handshake), and the handshake's Host check."""

from __future__ import annotations

import logging
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.urls import URLPattern, URLResolver, path

from game.consumers import GameConsumer
from game.socket_clients import host_allowed, request_host

# Where Django reports a request's disallowed Host (HttpRequest.get_host's DisallowedHost).
security_log = logging.getLogger("django.security.DisallowedHost")

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/game/<str:code>/", GameConsumer.as_asgi()),
    # The watch link's socket: a spectator's view even for a seated player.
    path("ws/game/<str:code>/watch/", GameConsumer.as_asgi(), {"watch": True}),
]


class AllowedHostValidator:
    """Refuses a websocket handshake whose Host is not in ALLOWED_HOSTS, by the rules HTTP
    follows (HttpRequest.get_host): the socket builds absolute links (the invite) from that
    Host, so a forged one must never get that far. The Origin check (channels'
    AllowedHostsOriginValidator) is another matter: it says which page opened the socket."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        host = request_host(scope)
        if host is not None and not host_allowed(host):
            security_log.warning(
                "Invalid HTTP_HOST header on a websocket: %r (not in ALLOWED_HOSTS)", host
            )
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
