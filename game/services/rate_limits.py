"""HTTP rate limits: how often one browser session, and one client address, may make accounts,
games, "Play now" requests, chat messages, log-in attempts and form POSTs
(docs/security.md, "Rate limits").

Each action named in `settings.VENTURE_RATE_LIMITS` has a limit per session and one per address,
in the `limits` library's notation ("5/minute;20/hour": every part applies). A request is
counted against a key per scope, `"session:<session key>"` (when the browser has a session) and
`"address:<client address>"`; it is refused when any of them is over, and then nothing is
counted. The counts live where `settings.VENTURE_RATE_LIMIT_STORAGE` says: this process's memory,
or the deployment's Redis (REDIS_URL), so that N servers share one count per key. The window is
`limits`' sliding window counter: no burst of twice the limit across a window's edge.

The interface:
- `allow(action, *keys)`: count one more for each key; False (nothing counted) if any is over;
  `check` says which key and for how long; `retry_after` the seconds until one more is allowed;
- `request_keys(request)`, `scope_keys(scope)`: the keys of a request or a websocket's scope;
  `client_address`: who the client is behind a trusted proxy;
- `limited(action)`: a view decorator counting its POSTs; `PostRateLimitMiddleware`: every POST
  against "post"; `too_many`: the 429 page both answer with.

Async code (a consumer) calls `acheck`: with Redis a check is a network round trip.
"""

from __future__ import annotations

import functools
import importlib
import ipaddress
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter

SESSION = "session"
ADDRESS = "address"

# What a 429 page says was limited.
WHAT = {
    "guest": "new accounts",
    "game": "new games",
    "seek": "“Play now” requests",
    "chat": "chat messages",
    "login": "log-in attempts",
    "post": "forms sent",
}
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
WHO = {SESSION: "this browser", "player": "you", ADDRESS: "your network address"}


@dataclass(frozen=True)
class Refusal:
    """An action over its limit: for which key (`session:…` or `address:…`), and how many
    seconds until one more is allowed."""

    action: str
    key: str
    retry_after: int

    @property
    def scope(self) -> str:
        return self.key.partition(":")[0]

    @property
    def message(self) -> str:
        what = WHAT.get(self.action, self.action)
        return (
            f"Too many {what} from {WHO.get(self.scope, self.scope)}: "
            f"try again in {wait_text(self.retry_after)}."
        )


def wait_text(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 90:
        return f"{minutes} minutes"
    return f"{math.ceil(minutes / 60)} hours"


# The limiter ------------------------------------------------------------------------------------
_limiter: SlidingWindowCounterRateLimiter | None = None
_making = threading.Lock()


def _the_limiter() -> SlidingWindowCounterRateLimiter:
    """Made on first use, in the process that uses it (a forked server makes its own), by one
    thread: the first requests of a new process come at once, each in a thread of its own."""
    global _limiter
    limiter = _limiter
    if limiter is not None:
        return limiter
    with _making:
        if _limiter is None:
            uri = settings.VENTURE_RATE_LIMIT_STORAGE
            options = {}
            if not uri.startswith("memory"):
                options["key_prefix"] = settings.VENTURE_RATE_LIMIT_PREFIX
                # `limits` imports its client library only if it is not in sys.modules yet and
                # then reads its __version__: a module another thread is still importing has
                # none yet, and the storage refuses it ("Found version: 0.0.0"). An import
                # statement waits for that import to finish.
                importlib.import_module("redis")
            _limiter = SlidingWindowCounterRateLimiter(storage_from_string(uri, **options))
        return _limiter


@receiver(setting_changed)
def _storage_changed(*, setting: str, **kwargs: Any) -> None:
    global _limiter
    if setting in {"VENTURE_RATE_LIMIT_STORAGE", "VENTURE_RATE_LIMIT_PREFIX"}:
        _limiter = None


def reset() -> None:
    """Forget every count (tests: each starts with none)."""
    if _limiter is not None:
        _limiter.storage.reset()


@functools.lru_cache(maxsize=64)
def _parse(text: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(text))


def _items(action: str, key: str) -> tuple[RateLimitItem, ...]:
    scopes = settings.VENTURE_RATE_LIMITS.get(action)
    if scopes is None:
        raise ValueError(
            f"No rate limit is named {action!r}: settings.VENTURE_RATE_LIMITS has "
            f"{', '.join(sorted(settings.VENTURE_RATE_LIMITS))}"
        )
    scope = key.partition(":")[0]
    if scope not in scopes:
        raise ValueError(f"No {scope!r} limit for {action!r} (a key such as {key!r})")
    return _parse(scopes[scope])


def check(action: str, *keys: str) -> Refusal | None:
    """Count one `action` against each key, unless one of them is over its limit: then nothing
    is counted and the refusal says which (the one that frees last)."""
    limiter = _the_limiter()
    checks = [(item, key) for key in keys for item in _items(action, key)]
    over = [(item, key) for item, key in checks if not limiter.test(item, action, key)]
    if not over:
        # Two servers may both test under the limit at the same instant: each hit counts, and a
        # hit over the limit (it is not counted) refuses this one too.
        hits = [limiter.hit(item, action, key) for item, key in checks]
        if all(hits):
            return None
        over = [pair for pair, hit in zip(checks, hits, strict=True) if not hit]
    waits = [(_seconds_until_free(limiter, item, action, key), key) for item, key in over]
    seconds, key = max(waits)
    return Refusal(action, key, seconds)


def allow(action: str, *keys: str) -> bool:
    """Count one `action` against each of `keys`: False, and nothing counted, if any is over."""
    return check(action, *keys) is None


def retry_after(action: str, *keys: str) -> int:
    """Seconds until one more `action` is allowed for all of `keys` (0: it is now)."""
    limiter = _the_limiter()
    return max(
        (
            _seconds_until_free(limiter, item, action, key)
            for key in keys
            for item in _items(action, key)
            if not limiter.test(item, action, key)
        ),
        default=0,
    )


async def acheck(action: str, *keys: str) -> Refusal | None:
    """`check` from async code (a consumer): a Redis round trip blocks, so it runs in a thread."""
    return await sync_to_async(check, thread_sensitive=False)(action, *keys)


def _seconds_until_free(
    limiter: SlidingWindowCounterRateLimiter, item: RateLimitItem, action: str, key: str
) -> int:
    reset_at = limiter.get_window_stats(item, action, key).reset_time
    return max(1, math.ceil(reset_at - time.time()))


# Who is asking ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _is_trusted(address: str) -> bool:
    networks = _networks(tuple(settings.VENTURE_TRUSTED_PROXIES))
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: str | None) -> str:
    """The client's address: the connection's own (`peer`, REMOTE_ADDR), unless it is a proxy of
    settings.VENTURE_TRUSTED_PROXIES; then the last address of X-Forwarded-For that is not one
    (each proxy appends the address it was reached from: the entries left of the last trusted
    proxy's are the client's to write, and can not be believed)."""
    if not forwarded_for or not settings.VENTURE_TRUSTED_PROXIES or not _is_trusted(peer):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop):
            return hop
    return hops[0] if hops else peer


def request_keys(request: HttpRequest) -> tuple[str, ...]:
    """A request's keys: its session's (when the browser sent one) and its address's."""
    address = client_address(
        request.META.get("REMOTE_ADDR") or "", request.META.get("HTTP_X_FORWARDED_FOR")
    )
    session = getattr(request, "session", None)
    session_key = session.session_key if session is not None else None
    keys = (f"{SESSION}:{session_key}",) if session_key else ()
    return (*keys, f"{ADDRESS}:{address}")


def scope_address(scope: dict[str, Any]) -> str:
    """A websocket's client address, as `client_address` says for an HTTP request."""
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    forwarded = None
    for name, value in scope.get("headers") or ():
        if name.lower() == b"x-forwarded-for":
            forwarded = value.decode("latin-1")
            break
    return client_address(peer, forwarded)


def scope_keys(scope: dict[str, Any]) -> tuple[str, ...]:
    """A websocket's keys (its session's, when it has one, and its address's)."""
    session = scope.get("session")
    session_key = getattr(session, "session_key", None) if session is not None else None
    keys = (f"{SESSION}:{session_key}",) if session_key else ()
    return (*keys, f"{ADDRESS}:{scope_address(scope)}")


# The web's answer -------------------------------------------------------------------------------
def too_many(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """The 429 page: what was limited, for whom, and when to try again (also Retry-After)."""
    response = render(
        request,
        "429.html",
        {
            "what": WHAT.get(refusal.action, refusal.action),
            "who": WHO.get(refusal.scope, refusal.scope),
            "wait": wait_text(refusal.retry_after),
            "message": refusal.message,
        },
        status=429,
    )
    response["Retry-After"] = str(refusal.retry_after)
    return response


def limited(action: str) -> Callable:
    """A view decorator: its POSTs count against `action`; one over is answered with the 429
    page before the view runs (a GET, which only shows the form, is not counted)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                refusal = check(action, *request_keys(request))
                if refusal is not None:
                    return too_many(request, refusal)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


class PostRateLimitMiddleware:
    """Every POST counts against "post", before any view works on it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST":
            refusal = check("post", *request_keys(request))
            if refusal is not None:
                return too_many(request, refusal)
        return self.get_response(request)
