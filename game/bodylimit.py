"""An ASGI middleware that refuses an HTTP request body over a limit before Django reads it.

Django's ASGIHandler reads the whole body (into memory, then a temporary file) before any view
runs, so a form's own size check (the scenario upload's) comes after the cost. This refuses by
the Content-Length header before reading anything, and counts a body sent without one (chunked)
while it arrives: past the limit the client gets a 413 saying the limit and Django never sees the
request. The largest legitimate body is a scenario upload (`game.scenario.loader.MAX_FILE_BYTES`,
64 KiB) with its form around it; the admin's forms and a 20,000-character deck list are smaller.

Daphne (Twisted) itself takes in a whole body before it calls the application (a temporary file
past 100 kB): a reverse proxy's own limit (nginx `client_max_body_size`) is the first line; this
one keeps the application's memory and time bounded whatever server runs it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 256 * 1024


class BodyLimit:
    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)  # nothing read
            return
        if declared is None:
            # No length announced: take the body in up to the limit before Django is called, so
            # an endless chunked body costs at most `limit` bytes and never reaches a view.
            chunks: list[bytes] = []
            size = 0
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.limit:
                    await self._refuse(send)
                    return
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
            await self.app(scope, _replay(b"".join(chunks), receive), send)
            return
        # A length within the limit: pass the body through, counting, in case the client sends
        # more than it announced. Past the limit Django is told the client left (it then answers
        # nothing) and the client gets the 413.
        guard = _Counted(receive, self.limit)
        started = False

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, guard, tracked_send)
        if guard.exceeded and not started:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = (
            f"Request body too large: the limit is {self.limit // 1024} KiB "
            f"({self.limit:,} bytes).\n"
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    """The announced length; None when there is none or it can't be read (then it is counted)."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return None
            return length if length >= 0 else None
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body read ahead as one message, then the client's own messages (its disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class _Counted:
    def __init__(self, receive: Receive, limit: int) -> None:
        self.receive = receive
        self.limit = limit
        self.size = 0
        self.exceeded = False

    async def __call__(self) -> Message:
        if self.exceeded:
            return {"type": "http.disconnect"}
        message = await self.receive()
        if message["type"] == "http.request":
            self.size += len(message.get("body", b""))
            if self.size > self.limit:
                self.exceeded = True
                return {"type": "http.disconnect"}
        return message
