"""Venture's ASGI application plus a bare Channels echo, for bench/latency.py only.

    daphne bench.asgi:application

serves everything game.asgi does, and `/ws/echo/<pair>/`: a consumer that puts whatever a
socket sends into its pair's channel group, and every socket of the pair gets it back. That is
the path an action takes (socket -> consumer -> channel layer group -> every consumer of the
game -> socket) without the game: no database, no engine, no rendering. The benchmark measures
both in the same processes, under the same load, and reports their ratio. Production never
mounts this route: it lives here, not in game/routing.py.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "game.settings")

from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from game.routing import websocket_urlpatterns  # noqa: E402
from game.runtime import gc_tuning  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = "echo." + self.scope["url_route"]["kwargs"]["pair"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.text", "text": text_data})

    async def echo_text(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter(
                    [path("ws/echo/<str:pair>/", EchoConsumer.as_asgi()), *websocket_urlpatterns]
                )
            )
        ),
    }
)

# Everything is imported: freeze it and set the collector's thresholds (game/runtime/gc_tuning.py).
gc_tuning.tune()
