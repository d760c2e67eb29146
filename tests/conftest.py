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
meets the deployed limits as one person would, whatever ran before it.
"""

from __future__ import annotations

import sys

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


@pytest.fixture(autouse=True)
def no_rate_limit_counts_carried_over() -> None:
    # Only once something used the limits (an engine test never imports Django's side).
    rate_limits = sys.modules.get("game.services.rate_limits")
    if rate_limits is not None:
        rate_limits.reset()
