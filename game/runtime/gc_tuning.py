"""The garbage collector of a server process (`tune()`, called by game/asgi.py once everything is
imported).

Guarantees. `gc.freeze()`: the objects alive at start-up (Django and everything imported) are
never walked again by a collection. The young generation is collected every
VENTURE_GC_THRESHOLDS[0] allocations (default 3000,10,10; an empty value keeps Python's
700,10,10): more of a render's garbage is freed by reference counting before a collection would
examine it, so fewer objects reach the old generation, which fills, and is walked, less often.
Larger thresholds kept more garbage for longer (the soak's memory grew 16-18 % in five minutes
with 10000,20,10; 2 % with 3000,10,10).

Private APIs: none (the standard library's `gc`).

Re-measure: `bench/latency.py --scale --games 200` with VENTURE_GC_THRESHOLDS= (Python's
thresholds) in the environment, and against a copy without `gc.freeze()`; memory with
`bench/soak.py`. docs/performance.md has the figures.
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune() -> None:
    gc.freeze()
    if settings.VENTURE_GC_THRESHOLDS:
        gc.set_threshold(*settings.VENTURE_GC_THRESHOLDS)
