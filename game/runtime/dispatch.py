"""A Channels consumer's messages handed to their handlers without Channels' connection tidying
(`DirectDispatch`, a mixin for consumers that use the database only through `dbpool.in_pool`).

Guarantees. A message reaches the handler Channels would pick (its type with "." read as "_";
a type without a handler, or a malformed one, raises ValueError as Channels does), and nothing
else happens on the way: Channels' own `dispatch` first runs `close_old_connections` on its
single database thread (`database_sync_to_async`) for every message, a hop through that thread
and back. A consumer whose handlers reach the database only through the pool needs none of it:
the pool's threads tidy their own connections around every call (dbpool.py), and Channels'
thread holds no connection of theirs.

Private APIs it relies on (tests/web/test_runtime_private_apis.py checks each one):
`channels.consumer.get_handler_name(message)` (the type to handler-name rule, undocumented), and
that `AsyncConsumer.__call__` sends every message through `self.dispatch`, whose own body is
that rule plus `aclose_old_connections()` (overridden here).

Re-measure: `bench/latency.py --games 50 --duration 60` (`server_cpu_ms_per_action`; at scale
`--scale --games 200`) against a copy without the mixin (the consumer's bases without
`DirectDispatch`), alternating; docs/performance.md has the figures.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatch:
    """Put first among a consumer's bases: its `dispatch` replaces Channels' own."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
