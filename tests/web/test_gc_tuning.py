"""game/gc_tuning.py: a server process freezes what it imported and sets the thresholds from
VENTURE_GC_THRESHOLDS."""

from __future__ import annotations

import gc

from game import gc_tuning


def test_tune_sets_the_configured_thresholds_and_freezes(settings):
    before = gc.get_threshold()
    settings.VENTURE_GC_THRESHOLDS = (12345, 7, 8)
    try:
        gc_tuning.tune()
        assert gc.get_threshold() == (12345, 7, 8)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_no_thresholds_keep_pythons(settings):
    before = gc.get_threshold()
    settings.VENTURE_GC_THRESHOLDS = ()
    try:
        gc_tuning.tune()
        assert gc.get_threshold() == before
    finally:
        gc.unfreeze()
