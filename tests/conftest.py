"""What every test shares: a fast password hasher.

Django's default hasher (PBKDF2, over a million iterations) takes most of a second per password
on this machine, and most tests make players with passwords: the hasher's cost is the point of
it in production and no part of what the tests check, so they hash with MD5 (Django's advice
for test runs). Nothing outside the tests is changed: the servers the reliability and scale
tests start run with the real settings.
"""

from __future__ import annotations


def pytest_configure(config) -> None:
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
