"""How often a player or an address may do something: one function, `allow`, over the `limits`
library, the limits themselves in `settings.VENTURE_RATE_LIMITS` by action.

The counts live in this process (the library's memory storage): with N server processes a client
may do N times as much, as with the websockets' own buckets (docs/security.md, section 8).
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

_storage = MemoryStorage()
_limiter = MovingWindowRateLimiter(_storage)


@cache
def _items(spec: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(spec))


def allow(action: str, *keys: str) -> bool:
    """Whether `action` may happen once more for every one of `keys` (a player, an address…),
    each counted on its own under every limit of `VENTURE_RATE_LIMITS[action]`; if so, it is
    counted for each of them. A refusal counts for none."""
    items = _items(settings.VENTURE_RATE_LIMITS[action])
    if not all(_limiter.test(item, action, key) for item in items for key in keys):
        return False
    for item in items:
        for key in keys:
            _limiter.hit(item, action, key)
    return True


def reset() -> None:
    """Forget every count (tests: a key such as a player's id comes back in the next test)."""
    _storage.reset()
