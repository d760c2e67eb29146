"""What every test shares: a fast password hasher, the size of the property tests, and no rate
limit counts carried from one test to the next.

Django's default hasher (PBKDF2, over a million iterations) takes most of a second per password
on this machine, and most tests make players with passwords: the hasher's cost is the point of
it in production and no part of what the tests check, so they hash with MD5 (Django's advice
for test runs). Nothing outside the tests is changed: the servers the reliability and scale
tests start run with the real settings.

Hypothesis runs under a profile named for the size of the property tests (tests/sizes.py): a
test without a max_examples of its own tries as many examples as `sizes.examples` gives for
hypothesis' own default. The profile is loaded here, before any test module makes its settings.

Every request of the web tests comes from 127.0.0.1: the rate limits' counts (kept in the test
process's memory, game/services/rate_limits.py) are forgotten before each test, so that each
meets the deployed limits as one person would, whatever ran before it. The clock those counts
read starts each test just past a day's edge, and so past a minute's and an hour's: `limits`'
sliding window counter lets the last window's count fade once a new window begins (two hits at
the end of one minute allow a third a moment into the next), so a test that counts up to a
limit and expects the next to be refused must not straddle an edge. Real time runs on from
there, so waits and expiries still pass as they do.
"""

from __future__ import annotations

import sys
import time
from types import ModuleType

import limits.storage.memory
import pytest
from hypothesis import settings as hypothesis_settings

from tests import sizes

HYPOTHESIS_DEFAULT_EXAMPLES = 100
hypothesis_settings.register_profile(
    sizes.SIZE, max_examples=sizes.examples(HYPOTHESIS_DEFAULT_EXAMPLES)
)
hypothesis_settings.load_profile(sizes.SIZE)


def pytest_configure(config) -> None:
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class _ClockPastAnEdge:
    """The `time` module as `limits`' memory storage sees it: real time shifted so that the test
    begins one second after a whole day since the epoch (the windows are aligned to it)."""

    DAY = 86_400

    def __init__(self, real: ModuleType) -> None:
        self._real = real
        now = real.time()
        self._offset = (now // self.DAY + 1) * self.DAY + 1 - now

    def time(self) -> float:
        return self._real.time() + self._offset

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)


@pytest.fixture(autouse=True)
def no_rate_limit_counts_carried_over(monkeypatch) -> None:
    monkeypatch.setattr(limits.storage.memory, "time", _ClockPastAnEdge(time))
    # Only once something used the limits (an engine test never imports Django's side).
    rate_limits = sys.modules.get("game.services.rate_limits")
    if rate_limits is not None:
        rate_limits.reset()
