"""Websocket URL routes, mounted by game.asgi under AuthMiddlewareStack."""

from django.urls import URLPattern, URLResolver, path

from game.consumers import GameConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/game/<str:code>/", GameConsumer.as_asgi()),
]
