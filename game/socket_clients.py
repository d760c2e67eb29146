"""Who is at the other end of a websocket: their share of this process (sockets and message
rates per session and per address, docs/security.md "Per client") and the page's host and scheme
as the browser sees them (the handshake's Host checked like an HTTP request's)."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from game.services import rate_limits


class RateLimit:
    """A token bucket: `burst` messages at once, refilled at `per_second`."""

    def __init__(self, per_second: float, burst: float) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()
        self.warned_at = -1e9

    def allow(self) -> bool:
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.at) * self.per_second)
        self.at = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def should_warn(self) -> bool:
        """Say "slow down" at most once a second, so a flood is not answered by a flood."""
        t = time.monotonic()
        if t - self.warned_at >= 1.0:
            self.warned_at = t
            return True
        return False


class Client:
    """One session's or one address's share of this process: its open sockets and the bucket
    all their messages draw from."""

    def __init__(self, key: tuple[str, str], per_second: float, burst: float) -> None:
        self.key = key
        self.sockets = 0
        self.rate = RateLimit(per_second, burst)


# ("session", key) or ("address", ip) -> its share. An entry lives while it has a socket open.
# (The event loop alone touches it: no lock.)
_CLIENTS: dict[tuple[str, str], Client] = {}


def _client_limits(scope: dict[str, Any]) -> list[tuple[tuple[str, str], int, tuple[float, float]]]:
    """The shares a handshake counts against: its session's (when the browser has one) and its
    address's. The address is the scope's "client" (behind a proxy Daphne sets it from
    X-Forwarded-For only with --proxy-headers, otherwise every socket is the proxy's), or the
    client a proxy of VENTURE_TRUSTED_PROXIES names: the HTTP rate limits' own rule."""
    out = []
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    if key:
        out.append(
            (
                ("session", key),
                settings.VENTURE_WS_SOCKETS_PER_SESSION,
                settings.VENTURE_WS_SESSION_RATE,
            )
        )
    if scope.get("client"):
        out.append(
            (
                ("address", rate_limits.scope_address(scope)),
                settings.VENTURE_WS_SOCKETS_PER_ADDRESS,
                settings.VENTURE_WS_ADDRESS_RATE,
            )
        )
    return out


def join_clients(scope: dict[str, Any]) -> tuple[list[Client], str]:
    """Count a new socket against its session and address: their shares, and "" or why the
    socket is one too many (then nothing was counted)."""
    limits = _client_limits(scope)
    for key, most, _rate in limits:
        held = _CLIENTS.get(key)
        if held is not None and held.sockets >= most:
            who = "this browser" if key[0] == "session" else "your network address"
            return [], (
                f"Too many open game pages from {who} (at most {most} at once): close some "
                "tabs of this site, then reload this page."
            )
    shares = []
    for key, _most, rate in limits:
        share = _CLIENTS.get(key)
        if share is None:
            share = _CLIENTS[key] = Client(key, *rate)
        share.sockets += 1
        shares.append(share)
    return shares, ""


def leave_clients(shares: list[Client]) -> None:
    for share in shares:
        share.sockets -= 1
        if share.sockets <= 0 and _CLIENTS.get(share.key) is share:
            del _CLIENTS[share.key]


# Host and scheme ---------------------------------------------------------------------------------
def _header(scope: dict[str, Any], name: str) -> str | None:
    """A request header as Django's META reads it (names compared with "-" and "_" alike; the
    first of repeated headers)."""
    wanted = name.upper().replace("-", "_")
    for key, value in scope.get("headers") or ():
        if key.decode("latin-1").upper().replace("-", "_") == wanted:
            return value.decode("latin-1")
    return None


def request_host(scope: dict[str, Any]) -> str | None:
    """The host the browser asked for, read as HttpRequest._get_raw_host reads it (the proxy's
    X-Forwarded-Host only with USE_X_FORWARDED_HOST). None without a Host header: no browser
    sends that and Daphne refuses it at the handshake; only an in-process test scope lacks it,
    and its links are then relative."""
    if settings.USE_X_FORWARDED_HOST:
        forwarded = _header(scope, "x-forwarded-host")
        if forwarded:
            return forwarded
    return _header(scope, "host")


def host_allowed(host: str) -> bool:
    """Django's HttpRequest.get_host check: the domain in ALLOWED_HOSTS (with DEBUG and no
    ALLOWED_HOSTS, the variants of localhost)."""
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _port = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


def page_scheme(scope: dict[str, Any]) -> str:
    """The page's scheme, by HttpRequest.is_secure's rule (the proxy's header,
    when SECURE_PROXY_SSL_HEADER names one and it is present, else the connection's scheme)."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, secure_value = proxy
        value = _header(scope, meta_name.removeprefix("HTTP_"))
        if value is not None:
            return "https" if value.split(",", 1)[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def page_origin(scope: dict[str, Any]) -> str:
    """The page's origin as the browser sees it, for absolute links ("" without a Host: the
    links are then relative). The Host was checked at the handshake (game/routing.py)."""
    host = request_host(scope)
    return f"{page_scheme(scope)}://{host}" if host else ""
