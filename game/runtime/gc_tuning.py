"""The garbage collector of a server process (docs/performance.md, change 19).

A server holds many long-lived objects (Django and everything imported, the live games'
engines, the memos of rendered pieces) and allocates many short-lived ones per render. With
Python's default thresholds (700, 10, 10) each process ran a full collection every few seconds,
walking the whole heap for 100-220 ms during which none of its sockets is served: the slowest
actions at 200 games came from there (p99 330 ms; 60-100 ms after this).

- `gc.freeze()` once everything is imported: those objects live as long as the process, so no
  collection needs to walk them again (a full collection: 165 -> 100 ms).
- A young collection every 3 000 allocations instead of 700 (VENTURE_GC_THRESHOLDS, default
  3000,10,10): more of a render's garbage is gone by refcount before it would be examined, so
  fewer objects are promoted, and the old generation fills, and is walked, less often. Larger
  thresholds did as well for latency but kept more garbage for longer: with 10000,20,10 and
  10000,20,50 the soak's memory grew 16-18 % in five minutes, with 3000,10,10 2 % (Python's
  own: 0.2 %; docs/performance.md).
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune() -> None:
    gc.freeze()
    if settings.VENTURE_GC_THRESHOLDS:
        gc.set_threshold(*settings.VENTURE_GC_THRESHOLDS)
