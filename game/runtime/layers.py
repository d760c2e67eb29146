"""The embedded channel layer: Channels' in-memory layer, with its housekeeping made cheap.

`channels.layers.InMemoryChannelLayer` walks every channel and every group member to drop
expired messages and memberships on *every* `receive` and `group_send`: with a hundred sockets
that walk was 5 % of the embedded server's CPU (docs/performance.md, change 16). Expiry is
measured in a minute (messages) and a day (memberships), so walking once a second changes
nothing anyone can see: an expired message goes at most a second later than it would have.
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
