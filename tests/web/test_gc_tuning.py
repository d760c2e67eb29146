"""game/runtime/gc_tuning.py: a server process freezes what it imported and sets the thresholds from
VENTURE_GC_THRESHOLDS."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from game.runtime import gc_tuning


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


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", "()"), ("5000,10,10", "(5000, 10, 10)"), ("abc", "give three whole numbers"),
     ("1,2", "give three whole numbers"), ("-1,10,10", "give three whole numbers")],
)  # fmt: skip
def test_the_setting_is_read_or_refused_with_a_reason(value, expected):
    code = "import django; django.setup(); from django.conf import settings; "
    code += "print(settings.VENTURE_GC_THRESHOLDS)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "game.settings", "VENTURE_GC_THRESHOLDS": value}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert expected in done.stdout + done.stderr
