"""A player over a real websocket, as the browser is: it receives the fragments the server
renders for its seat, reads the options it is offered from them, and answers with the same
fields an htmx form sends (game/forms/actions.py, `parse_action`): action, version, action_id,
option (or multi / pos:<id>). Used by the bench scripts and by tests/scale/ and
tests/reliability/.

`Seat` keeps the latest copy of every fragment by its DOM id (what htmx's out-of-band swaps
leave on the page), so a test can compare what two players see.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

# The live partials of templates/game/game.html, their root tags, plus the page's own parts.
FRAGMENT_TAGS = {
    "board": "div",
    "topbar": "header",
    "opponent": "section",
    "me": "section",
    "hand": "section",
    "stack": "section",
    "maps": "section",
    "prompt": "section",
    "pace": "section",
    "log": "section",
    "over": "div",
    "flash": "div",
}
_VERSION = re.compile(r'id="(?:topbar|board)"[^>]*?\sdata-version="(\d+)"')
_OPEN = re.compile(r'<(header|section|div)\b[^>]*?\sid="([a-z]+)"')
_FIELD = re.compile(r'name="(version|action_id)" value="([^"]*)"')
_OPTION = re.compile(r'<input type="hidden" name="option" value="([^"]*)"')
_CHECKBOX = re.compile(r'<input type="checkbox" name="option" value="([^"]*)"')
_POSITION = re.compile(r'<select name="(pos:[^"]*)"')
# A scry's one prompt: a radio group per card, `pos:<id>` = 1..N or b (the bottom).
_PLACE = re.compile(r'<input type="radio" name="pos:([^"]*)" value="1"')
_HINT = re.compile(
    r'<p class="hint">Choose (?:(\d+)\.|up to (\d+) \(or none\)\.|(\d+) to (\d+)\.)</p>'
)
_FLASH = re.compile(r'<div id="flash"[^>]*>(.*?)</div>', re.S)
_THEIRS = re.compile(r'class="prompt theirs" data-kind="[^"]*" data-player="([^"]*)"')
_VOLATILE = re.compile(
    r'name="(?:action_id|csrfmiddlewaretoken)" value="[^"]*"|data-title="[^"]*"'
    # The presence dot and note of each seat change with connections, not with the game.
    r'|class="(?:seat-presence |presence )?(?:online|offline)"|>(?:online|offline)<'
    r'|title="[^"]*(?:is )?(?:not )?connected"'
    # Links are absolute: each process serves them with its own host and port.
    r"|https?://[\w.-]+:\d+"
)


def _close(html: str, tag: str, start: int) -> int:
    """The end of the element whose start tag begins at `start` (same-tag nesting counted)."""
    opener = re.compile(rf"<{tag}\b|</{tag}>")
    depth = 0
    for m in opener.finditer(html, start):
        depth += 1 if m.group(0) != f"</{tag}>" else -1
        if depth == 0:
            return m.end()
    return len(html)


def fragments(html: str, only: frozenset[str] | None = None) -> dict[str, str]:
    """Every known fragment in a frame (or those named in `only`), by id (the innermost copy
    wins for a whole board)."""
    out: dict[str, str] = {}
    if only is not None:  # a few fragments: look for each, not at every tag of the frame
        for name in only:
            tag = FRAGMENT_TAGS[name]
            start = html.find(f'<{tag} id="{name}"')
            if start >= 0:
                out[name] = html[start : _close(html, tag, start)]
        return out
    for m in _OPEN.finditer(html):
        tag, name = m.group(1), m.group(2)
        if FRAGMENT_TAGS.get(name) == tag:
            out[name] = html[m.start() : _close(html, tag, m.start())]
    return out


def normalised(html: str) -> str:
    """A fragment without what differs between two renders of the same state: the random ids
    of the forms, CSRF tokens, the presence marks and the serving process's address."""
    return _VOLATILE.sub("", html)


@dataclass
class Choice:
    """The viewer's pending decision as the page offers it."""

    version: int
    action_id: str
    options: list[str]
    kind: str  # "single", "multi", "ordered", "placement"
    min_count: int = 1
    max_count: int = 1

    def answer(self, rng: random.Random, *, smallest: bool = False) -> dict[str, Any]:
        """Fields for one uniformly random legal-looking answer (the rules may still refuse a
        multi-select; `smallest` then asks for the fewest options)."""
        fields: dict[str, Any] = {
            "action": "answer",
            "version": str(self.version),
            "action_id": self.action_id,
        }
        if self.kind == "ordered":
            order = list(self.options)
            rng.shuffle(order)
            fields.update({f"pos:{o}": str(i) for i, o in enumerate(order, 1)})
        elif self.kind == "placement":
            # Each card on top or at the bottom at random; those on top numbered 1.. in a
            # random order (services.submit_scry).
            cards = list(self.options)
            rng.shuffle(cards)
            bottom = set(rng.sample(cards, rng.randint(0, len(cards))))
            top = [c for c in cards if c not in bottom]
            fields["placement"] = "1"
            fields.update({f"pos:{c}": "b" for c in bottom})
            fields.update({f"pos:{c}": str(i) for i, c in enumerate(top, 1)})
        elif self.kind == "multi":
            k = self.min_count if smallest else rng.randint(self.min_count, self.max_count)
            fields["multi"] = "1"
            fields["option"] = rng.sample(self.options, k)
        else:
            fields["option"] = rng.choice(self.options)
        return fields


def read_choice(prompt: str) -> Choice | None:
    """The decision in a `#prompt` fragment when it is the viewer's own, else None."""
    if 'class="prompt mine' not in prompt:
        return None
    found = dict(_FIELD.findall(prompt))
    if "version" not in found:
        return None
    version, action_id = int(found["version"]), found.get("action_id", "")

    def plain(values: list[str]) -> list[str]:
        # Attribute values are escaped ("Muiral&#x27;s Graveyard"); a browser sends them plain.
        return [html.unescape(v) for v in values]

    if 'class="order-form"' in prompt:
        ids = plain([name[4:] for name in _POSITION.findall(prompt)])
        return Choice(version, action_id, ids, "ordered", len(ids), len(ids))
    if 'class="placement-form"' in prompt:
        ids = plain(list(dict.fromkeys(_PLACE.findall(prompt))))
        return Choice(version, action_id, ids, "placement", len(ids), len(ids))
    if 'class="multi-form"' in prompt:
        ids = plain(_CHECKBOX.findall(prompt))
        m = _HINT.search(prompt)
        lo, hi = 0, len(ids)
        if m and m.group(1):
            lo = hi = int(m.group(1))
        elif m and m.group(2):
            lo, hi = 0, int(m.group(2))
        elif m and m.group(3):
            lo, hi = int(m.group(3)), int(m.group(4))
        return Choice(version, action_id, ids, "multi", lo, min(hi, len(ids)))
    ids = list(dict.fromkeys(plain(_OPTION.findall(prompt))))
    if not ids:
        return None
    return Choice(version, action_id, ids, "single")


@dataclass
class Seat:
    """One player's websocket and what it has been shown."""

    url: str
    origin: str
    cookie: str = ""
    name: str = ""
    ws: ClientConnection | None = None
    view: dict[str, str] = field(default_factory=dict)
    version: int = -1
    frames: int = 0
    flashes: list[str] = field(default_factory=list)
    closed: bool = False
    close_code: int | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    # Set on every frame too: a Table waits on both of its seats at once.
    also_notify: asyncio.Event | None = None
    # Keep only these fragments (a bot needs its prompt and the game-over box): less work for
    # the client, which shares the machine with the servers it measures.
    only: frozenset[str] | None = None
    _reader: asyncio.Task | None = None
    # Monotonic time at which each version was first seen on this socket.
    seen_at: dict[int, float] = field(default_factory=dict)

    async def connect(self, timeout: float = 10) -> Seat:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.ws = await asyncio.wait_for(
            connect(
                self.url,
                origin=self.origin,
                additional_headers=headers,
                max_size=None,
                compression=None,
                open_timeout=timeout,
                ping_interval=None,
            ),
            timeout,
        )
        self.closed = False
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda: self.version >= 0 or "board" in self.view, timeout)
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for frame in self.ws:
                now = time.monotonic()
                text = frame if isinstance(frame, str) else frame.decode()
                self.frames += 1
                for m in _VERSION.finditer(text):
                    v = int(m.group(1))
                    self.seen_at.setdefault(v, now)
                    self.version = max(self.version, v)
                parts = fragments(text, self.only)
                if "board" in parts or 'id="board"' in text:  # a whole board replaces all
                    self.view = {k: v for k, v in self.view.items() if k == "flash"}
                self.view.update(parts)
                flash = _FLASH.search(text)
                if flash and flash.group(1).strip():
                    self.flashes.append(flash.group(1).strip())
                self._notify()
        except Exception:
            pass
        finally:
            self.closed = True
            if self.ws is not None:
                self.close_code = self.ws.close_code
            self._notify()

    @classmethod
    def player(cls, server: Any, code: str, cookie: str, name: str) -> Seat:
        """A player's socket on `server` at game `code`, keeping the fragments a bot reads."""
        url = f"{server.ws_base}/ws/game/{code}/"
        return cls(url, server.base, cookie, name=name, only=frozenset({"prompt", "over"}))

    def _notify(self) -> None:
        self._changed.set()
        if self.also_notify is not None:
            self.also_notify.set()

    async def wait_for(self, check, timeout: float) -> bool:
        """Wait until `check()` holds (re-checked on every frame); False on timeout or close."""
        deadline = time.monotonic() + timeout
        while not check():
            if self.closed:
                return bool(check())
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                return bool(check())
        return True

    def choice(self) -> Choice | None:
        """The viewer's own pending decision, if the page shows one for the current version."""
        prompt = self.view.get("prompt")
        if prompt is None:
            return None
        c = read_choice(prompt)
        if c is None or c.version != self.version:
            return None
        return c

    @property
    def over(self) -> bool:
        return 'class="over shown"' in self.view.get("over", "")

    @property
    def waiting_on(self) -> str:
        """The player this seat's page shows deciding when it is not this seat; "" if none."""
        found = _THEIRS.search(self.view.get("prompt", ""))
        return found.group(1) if found else ""

    async def send(self, fields: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({**fields, "HEADERS": {"HX-Request": "true"}}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


async def connect_all(seats: list[Seat], timeout: float = 60) -> str:
    """Connect every seat of a table: "", or why one could not (the caller reports it)."""
    try:
        for s in seats:
            await s.connect(timeout=timeout)
    except Exception as e:
        return repr(e)
    return ""


def first_seen_after(seat: Seat, version: int) -> float | None:
    """When `seat` first showed a version newer than `version`."""
    times = [t for v, t in seat.seen_at.items() if v > version]
    return min(times) if times else None


@dataclass
class Outcome:
    """What happened to one answer: its latency (send until both seats show the new version)
    or why there is none."""

    version: int
    latency: float | None = None
    refused: str = ""
    error: str = ""


SLOW_DOWN = "Too many messages: slow down."  # game/consumers.py's rate-limit notice
THROTTLE_PAUSE = 1.0  # seconds: the limit refills at VENTURE_WS_RATE (default 20/s)
THROTTLE_RETRIES = 5


class Table:
    """The two seats of one game and a bot answering for whichever seat must decide, choosing
    uniformly among the options its page offers."""

    def __init__(self, seats: list[Seat], rng: random.Random, timeout: float = 10) -> None:
        self.seats = seats
        self.rng = rng
        self.timeout = timeout
        self.changed = asyncio.Event()
        self._refusals: dict[tuple[int, str], int] = {}  # refused answers per (version, seat)
        self.throttled = 0  # answers the server's rate limit turned away (and were resent)
        for seat in seats:
            seat.also_notify = self.changed

    def replace(self, old: Seat, new: Seat) -> None:
        """A seat reconnected (to another process, say)."""
        self.seats[self.seats.index(old)] = new
        new.also_notify = self.changed

    async def wait(self, check, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not check():
            left = deadline - time.monotonic()
            if left <= 0 or any(s.closed for s in self.seats):
                return bool(check())
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return bool(check())
        return True

    @property
    def over(self) -> bool:
        return all(s.over for s in self.seats)

    def pending(self) -> tuple[Seat, Choice] | None:
        newest = max(s.version for s in self.seats)
        for seat in self.seats:
            choice = seat.choice()
            if choice is not None and choice.version == newest:
                return seat, choice
        return None

    async def next_choice(self, timeout: float | None = None) -> tuple[Seat, Choice] | None:
        """The seat that must decide now and its choice; None once the game is over (or when
        nothing is offered in time, or a seat's connection closed)."""
        found: list[tuple[Seat, Choice]] = []

        def ready() -> bool:
            if self.over:
                return True
            p = self.pending()
            if p is not None:
                found.append(p)
                return True
            return False

        await self.wait(ready, self.timeout if timeout is None else timeout)
        return found[-1] if found else None

    async def answer(self, seat: Seat, choice: Choice) -> Outcome:
        """Send one random answer; wait until both seats show a newer version (or a refusal).

        A bot answers far faster than a person, so the server's per-connection rate limit
        (VENTURE_WS_RATE) may turn an answer away unapplied; it is then sent again after a
        pause, as a person told to slow down would, and counted in `throttled`."""
        v = choice.version
        # The rules refused a random multi-pick: the fewest options next, then random picks
        # again (the fewest can be illegal too: a creature that must attack if able).
        refusals = self._refusals.get((v, seat.name), 0)
        message = choice.answer(self.rng, smallest=refusals == 1)
        for attempt in range(THROTTLE_RETRIES + 1):
            flashes = len(seat.flashes)
            sent = time.monotonic()
            await seat.send(message)
            updated = await self.wait(
                lambda n=flashes: all(s.version > v for s in self.seats) or len(seat.flashes) > n,
                self.timeout,
            )
            throttled = len(seat.flashes) > flashes and seat.flashes[-1].startswith(SLOW_DOWN)
            if not throttled or attempt == THROTTLE_RETRIES:
                break
            self.throttled += 1
            await asyncio.sleep(THROTTLE_PAUSE)
        if all(s.version > v for s in self.seats):
            self._refusals.clear()
            done = max(first_seen_after(s, v) or sent for s in self.seats)
            return Outcome(v, latency=done - sent)
        if len(seat.flashes) > flashes:
            self._refusals[(v, seat.name)] = refusals + 1
            return Outcome(v, refused=seat.flashes[-1])
        closed = [s.name for s in self.seats if s.closed]
        if closed:
            return Outcome(v, error=f"connection closed: {', '.join(closed)}")
        assert not updated
        return Outcome(v, error=f"no update within {self.timeout:.0f} s")


class Browser:
    """Plain HTTP as a browser does it: a cookie jar (cookies are per host, not per port, so one
    login works on every process of 127.0.0.1) and Django's CSRF token on every form post."""

    def __init__(self, base: str) -> None:
        import http.cookiejar
        import urllib.request

        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.geturl(), r.read().decode()

    def post(self, path: str, fields: dict[str, str]) -> tuple[str, str]:
        import urllib.parse
        import urllib.request

        if not self.cookie("csrftoken"):
            self.get("/")
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        request = urllib.request.Request(
            self.base + path, data=data.encode(), headers={"Referer": self.base + path}
        )
        with self.opener.open(request, timeout=30) as r:
            return r.geturl(), r.read().decode()

    def play_as_guest(self, name: str) -> None:
        self.get("/")
        self.post("/accounts/guest/", {"display_name": name, "next": "/"})
        assert self.cookie("sessionid"), f"{name} is not logged in"

    def create_game(self, deck: str) -> str:
        """A new game with a preset deck; returns its invite code."""
        url, _ = self.post("/games/new/", {"deck": deck})
        m = re.search(r"/g/([^/]+)/$", url)
        assert m, f"creating a game led to {url}"
        return m.group(1)

    def play_computer(self, deck: str, computer_deck: str, level: str) -> str:
        """A new game against the computer at `level`; returns its code."""
        url, _ = self.post(
            "/games/computer/",
            {
                "computer-deck": deck,
                "computer-computer_deck": computer_deck,
                "computer-level": level,
            },
        )
        m = re.search(r"/g/([^/]+)/$", url)
        assert m, f"starting a game against the computer led to {url}"
        return m.group(1)

    def join_game(self, code: str, deck: str) -> None:
        url, _ = self.post(f"/g/{code}/join/", {"deck": deck})
        assert url.endswith(f"/g/{code}/"), f"joining led to {url}"
