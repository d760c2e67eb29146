"""The New game form's chess clock: one legend, and each number under its own short label
(tests/e2e/test_create_form.py measures them in Chromium)."""

from __future__ import annotations

import re

import pytest

from .helpers import make_player

pytestmark = pytest.mark.django_db


def test_the_clock_says_chess_clock_once_and_labels_each_number(client):
    client.force_login(make_player("Alice").user)
    html = client.get("/games/new/").content.decode()
    clock = html[html.index('id="clock"') : html.index("</fieldset>", html.index('id="clock"'))]
    assert clock.count("Chess clock") == 1  # the legend
    labels = re.findall(r"<label>([^<]+)<input", clock)
    assert [label.strip() for label in labels] == ["Minutes each", "Seconds added per answer"]
    assert 'class="clock-fields"' in clock
