"""Scenario uploads on the New game form: a hostile file is a clear message on the page (never a
500, never a game), an oversized one is refused by its size, and any HTTP body over the limit is
refused by game/bodylimit.py before Django reads it. Limits: docs/scenarios.md, "Limits"."""

from __future__ import annotations

import asyncio
import html
from typing import Any

import pytest
from django.core.files.uploadedfile import InMemoryUploadedFile, SimpleUploadedFile
from hypothesis import HealthCheck, given, settings

from game import services
from game.bodylimit import MAX_BODY_BYTES, BodyLimit
from game.models import Game
from game.scenario import loader
from tests.scenarios.test_hostile_files import HOSTILE_FILES, alias_bomb, fill
from tests.sizes import examples

from .helpers import position_text

pytestmark = pytest.mark.django_db


def upload(client: Any, text: str | bytes, name: str = "hostile.yaml") -> tuple[int, str]:
    data = text.encode() if isinstance(text, str) else text
    response = client.post("/games/new/", {"scenario": SimpleUploadedFile(name, data)})
    return response.status_code, html.unescape(response.content.decode())


@pytest.fixture
def logged_in(client, alice):
    client.force_login(alice.user)
    return client


def named(length: int) -> str:
    return f"name: {'n' * length}\nsetup:\n  alice:\n    hand: [Forest]\n"


HOSTILE = {
    "alias bomb": (alias_bomb(), "hostile.yaml:7: the file is too big"),
    "recursive alias": ("name: r\nnotes: &a [x, *a]\n", "hostile.yaml:2: the alias *a is inside"),
    "deep nesting": (
        "name: d\nnotes: " + "[" * 10_000 + "]" * 10_000 + "\n",
        "hostile.yaml:2: this is nested deeper than 40 levels",
    ),
    "a list as a card name": (
        "name: h\nsetup:\n  alice:\n    hand: [[a]]\n",
        "hostile.yaml:4: unknown card name ['a']",
    ),
    "a card that is a list": (
        "name: h\nsetup:\n  alice:\n    battlefield: [{card: [x]}]\n",
        "hostile.yaml:4: unknown card name ['x']",
    ),
    "a token that is a mapping": (
        "name: h\nsetup:\n  alice:\n    battlefield: [{token: {}}]\n",
        "hostile.yaml:4: unknown token {}",
    ),
    "a 5,000-digit number": (
        "name: i\nsetup:\n  alice:\n    life: " + "9" * 5000 + "\n",
        "hostile.yaml:4: a number of 5,000 digits",
    ),
    "a 201-character name": (
        named(201),
        "hostile.yaml:1: the name has 201 characters; at most 200",
    ),
    "10,000 permanents": (
        # Aliases to one card name keep the file under the upload's size limit.
        "name: n\nsetup:\n  alice:\n    battlefield: [&f Forest" + ", *f" * 9_999 + "]\n",
        "hostile.yaml:4: setup.alice.battlefield has 10,000 permanents; at most 100",
    ),
    "a date that is not one": ("name: x\nseed: 2024-13-45\n", "hostile.yaml:2: '2024-13-45'"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_file_is_a_message_on_the_page_and_no_game(logged_in, case):
    text, message = HOSTILE[case]
    assert len(text.encode()) <= loader.MAX_FILE_BYTES
    status, page = upload(logged_in, text)
    assert status == 200
    assert message in page
    assert not Game.objects.exists()


def test_a_name_of_200_characters_is_stored_whole(logged_in):
    status, _ = upload(logged_in, named(200))
    assert status == 302
    assert len(Game.objects.get().scenario_name) == 200


def test_an_oversized_upload_is_refused_by_its_size_unread(logged_in, monkeypatch):
    reads: list[int] = []

    def counted(self: Any, *args: Any) -> bytes:
        if type(self) is InMemoryUploadedFile:  # the server's side; SimpleUploadedFile is ours
            reads.append(1)
        return self.file.read(*args)

    monkeypatch.setattr(InMemoryUploadedFile, "read", counted, raising=False)
    padding = "# " + "x" * 200 + "\n"
    text = position_text("varis_fork.yaml")
    text += padding * ((loader.MAX_FILE_BYTES - len(text)) // len(padding) + 1)
    assert len(text) > loader.MAX_FILE_BYTES
    status, page = upload(logged_in, text)
    assert status == 200
    assert (
        f"A scenario file may be at most 64 KiB (65,536 bytes); this one is {len(text):,}" in page
    )
    assert not Game.objects.exists()
    assert reads == []  # refused by its size, unread


def test_a_file_just_within_the_size_limit_starts_a_game(logged_in):
    text = position_text("varis_fork.yaml")
    text += "#" * (loader.MAX_FILE_BYTES - len(text.encode()) - 1) + "\n"
    assert len(text.encode()) == loader.MAX_FILE_BYTES
    status, _ = upload(logged_in, text)
    assert status == 302
    assert Game.objects.get().is_scenario


def test_a_form_body_over_the_limit_is_refused_without_the_middleware(client):
    # DATA_UPLOAD_MAX_MEMORY_SIZE is the same limit, for a server that runs the app without
    # game/bodylimit.py (the test client does not go through ASGI).
    from django.conf import settings as django_settings

    assert django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE == MAX_BODY_BYTES
    response = client.post("/accounts/guest/", {"display_name": "x" * (MAX_BODY_BYTES + 1)})
    assert response.status_code == 400


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(values=HOSTILE_FILES)
def test_check_scenario_refuses_hostile_files_with_a_reason(values):
    # Past the loader, the position is built by the engine: anything it refuses must still be an
    # ActionRefused with a message, never another exception.
    try:
        services.check_scenario(fill(values), "fuzz.yaml")
    except services.ActionRefused as e:
        assert e.message.startswith("fuzz.yaml")


# the ASGI body limit -----------------------------------------------------------------------------
class Inner:
    """An ASGI app that records whether it was called and reads the whole body, like Django."""

    def __init__(self) -> None:
        self.called = False
        self.body = b""
        self.disconnected = False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                return
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


class Client:
    """Body chunks to hand out, counting how many bytes the app under test took."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)
        self.taken = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        if not self.chunks:
            await asyncio.sleep(3600)  # a client that keeps the connection open
        chunk = self.chunks.pop(0)
        self.taken += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": bool(self.chunks)}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def text(self) -> str:
        return b"".join(m.get("body", b"") for m in self.sent[1:]).decode()


def scope(length: int | None) -> dict:
    headers = [(b"host", b"testserver"), (b"content-type", b"multipart/form-data")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {"type": "http", "method": "POST", "path": "/games/new/", "headers": headers}


async def run(app: BodyLimit, length: int | None, chunks: list[bytes]) -> Client:
    client = Client(chunks)
    await asyncio.wait_for(app(scope(length), client.receive, client.send), timeout=5)
    return client


LIMIT_TEXT = f"the limit is 256 KiB ({MAX_BODY_BYTES:,} bytes)"
CHUNK = b"x" * 16_384


@pytest.mark.asyncio
async def test_a_body_announced_over_the_limit_is_refused_unread():
    inner = Inner()
    client = await run(BodyLimit(inner), 50 * 1024 * 1024, [CHUNK] * 4)
    assert client.status == 413 and LIMIT_TEXT in client.text
    assert not inner.called and client.taken == 0


@pytest.mark.asyncio
async def test_a_chunked_body_is_cut_off_at_the_limit():
    inner = Inner()
    client = await run(BodyLimit(inner), None, [CHUNK] * 3000)  # 49 MB, never announced
    assert client.status == 413 and LIMIT_TEXT in client.text
    assert not inner.called
    assert MAX_BODY_BYTES < client.taken <= MAX_BODY_BYTES + len(CHUNK)


@pytest.mark.asyncio
async def test_a_body_longer_than_announced_is_cut_off_at_the_limit():
    inner = Inner()
    client = await run(BodyLimit(inner), 100, [CHUNK] * 3000)
    assert client.status == 413 and LIMIT_TEXT in client.text
    assert inner.disconnected  # Django is told the client left and answers nothing
    assert client.taken <= MAX_BODY_BYTES + len(CHUNK)


@pytest.mark.asyncio
@pytest.mark.parametrize("announced", [True, False])
async def test_a_body_within_the_limit_reaches_the_app_whole(announced):
    chunks = [CHUNK] * (MAX_BODY_BYTES // len(CHUNK))
    body = b"".join(chunks)
    assert len(body) == MAX_BODY_BYTES
    inner = Inner()
    client = await run(BodyLimit(inner), len(body) if announced else None, chunks)
    assert client.status == 200 and inner.body == body


@pytest.mark.asyncio
async def test_websockets_pass_through():
    seen: list[str] = []

    async def inner(scope: dict, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    await BodyLimit(inner)({"type": "websocket", "headers": []}, None, None)
    assert seen == ["websocket"]


@pytest.mark.asyncio
async def test_the_served_application_refuses_an_oversized_body():
    from game.asgi import application

    client = Client([CHUNK])
    await asyncio.wait_for(
        application(scope(MAX_BODY_BYTES + 1), client.receive, client.send), timeout=5
    )
    assert client.status == 413 and LIMIT_TEXT in client.text and client.taken == 0
