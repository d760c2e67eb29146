"""How big the property tests are: one setting, VENTURE_TEST_SIZE, "small" (the default, what
`make test` runs) or "full" (what `make test-all` runs).

A property test plays whole games, scans every frame or point of them, or generates examples;
its strength grows with how many it tries and so does its time. The small size still runs each
property end to end (at least one whole game, every check) so that `make test` exercises it;
the full size is the number that was chosen for the property's confidence. A test reads its
numbers from `sized(small, full)` (or `examples(full)` for hypothesis), never from the
environment itself.
"""

from __future__ import annotations

import os

SIZES = ("small", "full")
SIZE = os.environ.get("VENTURE_TEST_SIZE", "small")
if SIZE not in SIZES:
    raise RuntimeError(f"VENTURE_TEST_SIZE must be one of {SIZES}, not {SIZE!r}")
FULL = SIZE == "full"

# Hypothesis examples at the small size: a quarter of the full number, and never fewer than this.
MIN_EXAMPLES = 10


def sized[T](small: T, full: T) -> T:
    """`full` under VENTURE_TEST_SIZE=full, else `small`."""
    return full if FULL else small


def examples(full: int) -> int:
    """A hypothesis test's max_examples: `full` at the full size, a quarter of it otherwise."""
    return full if FULL else max(MIN_EXAMPLES, full // 4)
