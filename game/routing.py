"""Websocket URL routes, mounted by game.asgi under SessionMiddlewareStack (the consumer reads
the user from the session after the handshake)."""

from django.urls import URLPattern, URLResolver, path

from game.consumers import GameConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/game/<str:code>/", GameConsumer.as_asgi()),
    # The watch link's socket: a spectator's view even for a seated player.
    path("ws/game/<str:code>/watch/", GameConsumer.as_asgi(), {"watch": True}),
]
