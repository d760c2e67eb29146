"""The New game form's chess clock in Chromium, desktop and phone: each number field is as large
as a text field (a finger-sized target, text that a phone does not zoom into) and sits under its
own label, and the page still passes the accessibility audit."""

from __future__ import annotations

import pytest

from tests.web.helpers import make_player

from .test_a11y import audit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_chess_clock_inputs_are_readable(open_as, phone):
    page = open_as(make_player("alice"), "/games/new/", phone=phone)
    clock = page.locator("#clock")
    clock.scroll_into_view_if_needed()
    for label, field in (
        ("Minutes each", "#id_clock_minutes"),
        ("Seconds added per answer", "#id_clock_increment"),
    ):
        box = page.locator(field).bounding_box()
        assert box["height"] >= 40 and box["width"] >= 80, (field, box)
        assert page.locator(field).evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 16
        text = clock.get_by_text(label, exact=True)
        assert text.is_visible()
        assert text.bounding_box()["y"] + 10 <= box["y"]  # the label (holding it) starts above
    assert clock.get_by_text("Chess clock").count() == 1
    assert audit(page) == []
