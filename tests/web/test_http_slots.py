"""game/runtime/http_slots.py: at most VENTURE_HTTP_CONCURRENCY requests of a process are inside
Django at once (a burst waits instead of opening a database connection per request), and each
request closes its connection when done. Django's own handler, for comparison, runs a burst all
at once and leaves each request's connection open."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import path

from game.models import Player
from game.runtime.http_slots import SlottedASGIHandler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

_lock = threading.Lock()
_at_work = {"now": 0, "most": 0}
_wrappers: list = []


def slow(request: HttpRequest) -> HttpResponse:
    """A view that takes a while and says how many requests were at work with it."""
    with _lock:
        _at_work["now"] += 1
        _at_work["most"] = max(_at_work["most"], _at_work["now"])
    time.sleep(0.2)
    with _lock:
        _at_work["now"] -= 1
    return HttpResponse("done")


def reads(request: HttpRequest) -> HttpResponse:
    """A view that reads the database and keeps its thread's connection wrapper to look at."""
    Player.objects.count()
    _wrappers.append(connections["default"])
    return HttpResponse("read")


urlpatterns = [path("slow/", slow), path("reads/", reads)]


async def _get(app, url: str) -> tuple[int, bytes]:
    """One GET through the ASGI application, as Daphne would make it."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    requested = False
    never = asyncio.get_running_loop().create_future()  # the client stays until answered

    async def receive():
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return await never

    status, body = 0, b""

    async def send(message):
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body += message.get("body", b"")

    await app(scope, receive, send)
    return status, body


async def _burst(app, n: int) -> int:
    """`n` requests to the slow view at once: the most that were at work together."""
    _at_work.update(now=0, most=0)
    answers = await asyncio.gather(*(_get(app, "/slow/") for _ in range(n)))
    assert answers == [(200, b"done")] * n
    return _at_work["most"]


@override_settings(ROOT_URLCONF=__name__)
async def test_a_burst_of_requests_is_worked_on_a_few_at_a_time():
    assert await _burst(SlottedASGIHandler(slots=2), 6) == 2
    assert await _burst(SlottedASGIHandler(slots=1), 3) == 1
    # Django's handler alone takes the whole burst at once: a thread and a connection each.
    assert await _burst(ASGIHandler(), 6) > 2


@override_settings(ROOT_URLCONF=__name__)
async def test_each_request_closes_its_database_connection_when_done():
    _wrappers.clear()
    app = SlottedASGIHandler(slots=4)
    assert await asyncio.gather(*(_get(app, "/reads/") for _ in range(3))) == [(200, b"read")] * 3
    assert len(_wrappers) == 3 and len({id(w) for w in _wrappers}) == 3  # a thread each
    assert all(w.connection is None for w in _wrappers)

    # Django's handler leaves it open (the thread is not used again: nothing ever reuses it).
    _wrappers.clear()
    assert await _get(ASGIHandler(), "/reads/") == (200, b"read")
    (left,) = _wrappers
    assert left.connection is not None
    await sync_to_async(_close_from_elsewhere, thread_sensitive=False)(left)


def _close_from_elsewhere(wrapper) -> None:
    wrapper.inc_thread_sharing()  # (not from its own thread, which is gone)
    wrapper.close()


async def test_the_server_uses_the_slotted_handler_with_the_setting():
    from django.conf import settings

    from game.asgi import django_asgi_app

    assert isinstance(django_asgi_app, SlottedASGIHandler)
    assert django_asgi_app.slots == settings.VENTURE_HTTP_CONCURRENCY == 16
