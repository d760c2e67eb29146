"""The garbage collector of a server process (docs/performance.md, change 19).

A server holds many long-lived objects (Django and everything imported, the live games'
engines, the memos of rendered pieces) and allocates many short-lived ones per render. With
Python's default thresholds (700, 10, 10) a full collection ran every few seconds per process
and walked the whole heap: 100-220 ms each, during which no socket of the process is served,
and the main source of the slowest actions at 200 games (p99 330 ms; 100 ms after this).

- `gc.freeze()` once everything is imported: those objects live as long as the process, so no
  collection needs to walk them again (a full collection: 165 -> 100 ms).
- Larger thresholds (VENTURE_GC_THRESHOLDS, default 10000,20,50): young collections less often,
  and full collections about a hundred times rarer. Cyclic garbage waits longer before it is
  freed, which the soak's memory check (bench/soak.py) measures.
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune() -> None:
    gc.freeze()
    if settings.VENTURE_GC_THRESHOLDS:
        gc.set_threshold(*settings.VENTURE_GC_THRESHOLDS)
