"""A bounded memo: at most `size` entries, the least recently used dropped first (`LRU`); and
one whose entries hold only while what they were made from is unchanged, and until a deadline
(`StateMemo`: the spectators' shared render, game/board/batching.py).

Guarantees: every method is atomic under the memo's own lock, so pool threads and the event
loop may share one; `get_or_make` runs `make()` outside the lock (two threads that miss the same
key at once may both make it; the later one's value is kept), so a slow render never blocks
another thread's hit. A hit (`get`, `get_or_make`) and a `put` make the entry the most recently
used; `peek` does not. A `StateMemo` gives a value back only for the state it was made from
(compared with `==`) and before its deadline (on the caller's clock). Relies on no private API
(an `OrderedDict`'s `move_to_end` and `popitem(last=False)`). Costs a lock and a dict operation
per call: re-measure with `bench/hotpath.py` (its renders go through the board's memos).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

_MISSING = object()


class LRU[K: Hashable, V]:
    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an LRU keeps at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value for `key` (now the most recently used), or `default`."""
        with self._lock:
            value = self._entries.get(key, _MISSING)
            if value is _MISSING:
                return default
            self._entries.move_to_end(key)
            return value  # type: ignore[return-value]

    def peek(self, key: K, default: V | None = None) -> V | None:
        """The value for `key` without making it more recently used, or `default`."""
        with self._lock:
            return self._entries.get(key, default)

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key` as the most recently used; drop the least recently used
        entries beyond `size`."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, or `make()`'s, kept from now on."""
        with self._lock:
            value = self._entries.get(key, _MISSING)
            if value is not _MISSING:
                self._entries.move_to_end(key)
                return value  # type: ignore[return-value]
        made = make()
        self.put(key, made)
        return made

    def pop(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            return self._entries.pop(key, default)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def keys(self) -> list[K]:
        """The keys, least recently used first (a copy)."""
        with self._lock:
            return list(self._entries)


class StateMemo[K: Hashable, V]:
    """An `LRU` of values, each kept with the state it was made from and a deadline."""

    def __init__(self, size: int) -> None:
        self._entries: LRU[K, tuple[object, V, float]] = LRU(size)

    def get(self, key: K, state: object, now: float) -> V | None:
        """The value kept for `key` if it was made from `state` and `now` is before its
        deadline, else None."""
        kept = self._entries.get(key)
        if kept is None or kept[0] != state or not now < kept[2]:
            return None
        return kept[1]

    def put(self, key: K, state: object, value: V, until: float) -> None:
        """Keep `value`, made from `state`, until `until` (inf: for as long as `state` holds)."""
        self._entries.put(key, (state, value, until))
