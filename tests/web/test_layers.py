"""The embedded channel layer (game/runtime/layers.py): Channels' in-memory layer whose housekeeping
(dropping expired messages) runs at most once a second instead of on every call."""

from __future__ import annotations

import asyncio
import time

from game.runtime.layers import EmbeddedChannelLayer


def _send_expired(layer: EmbeddedChannelLayer) -> None:
    asyncio.run(layer.send("old.channel", {"type": "x"}))
    time.sleep(0.01)  # expiry=0: the message is already expired


def test_expired_messages_are_still_dropped():
    layer = EmbeddedChannelLayer(expiry=0)
    _send_expired(layer)
    layer._cleaned_at = 0.0  # a second has passed since the last walk
    layer._clean_expired()
    assert "old.channel" not in layer.channels


def test_the_walk_runs_at_most_once_a_second():
    layer = EmbeddedChannelLayer(expiry=0)
    layer._clean_expired()  # walks now (nothing to drop)
    _send_expired(layer)
    layer._clean_expired()  # within the second: skipped, the expired message is still there
    assert "old.channel" in layer.channels
    layer._cleaned_at -= EmbeddedChannelLayer.CLEAN_EVERY_SECONDS
    layer._clean_expired()
    assert "old.channel" not in layer.channels
