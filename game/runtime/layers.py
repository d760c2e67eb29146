"""The embedded channel layer: Channels' in-memory layer, its housekeeping made cheap.

Guarantees. The same layer as `channels.layers.InMemoryChannelLayer`, except that its walk over
every channel and group member for expired messages and memberships (which Channels makes on
every `receive` and `group_send`) is made at most once every CLEAN_EVERY_SECONDS. Expiry is
measured in a minute (messages) and a day (memberships): an expired message goes at most a
second later than it would have. Used only without REDIS_URL (one process).

Private API it relies on (tests/web/test_runtime_private_apis.py checks it):
`InMemoryChannelLayer._clean_expired()`, overridden, and called by its `receive` and
`group_send`.

Re-measure: `bench/latency.py --games 50` against the same code with
CHANNEL_LAYERS' BACKEND set to `channels.layers.InMemoryChannelLayer` in game/settings.py.
docs/performance.md has the figures.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer


class EmbeddedChannelLayer(InMemoryChannelLayer):
    CLEAN_EVERY_SECONDS = 1.0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned_at = 0.0

    def _clean_expired(self) -> None:
        at = time.monotonic()
        if at - self._cleaned_at < self.CLEAN_EVERY_SECONDS:
            return
        self._cleaned_at = at
        super()._clean_expired()
