"""What every test shares: a fast password hasher, and the size of the property tests.

Django's default hasher (PBKDF2, over a million iterations) takes most of a second per password
on this machine, and most tests make players with passwords: the hasher's cost is the point of
it in production and no part of what the tests check, so they hash with MD5 (Django's advice
for test runs). Nothing outside the tests is changed: the servers the reliability and scale
tests start run with the real settings.

Hypothesis runs under a profile named for the size of the property tests (tests/sizes.py): a
test without a max_examples of its own tries as many examples as `sizes.examples` gives for
hypothesis' own default. The profile is loaded here, before any test module makes its settings.
"""

from __future__ import annotations

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
