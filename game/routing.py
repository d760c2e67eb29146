"""Websocket URL routes, mounted by game.asgi under AuthMiddlewareStack."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
