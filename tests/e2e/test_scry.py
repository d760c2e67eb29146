"""A scry in one prompt, in Debian's Chromium: each looked-at card placed on top at a position
or on the bottom, then Confirm, with the mouse (1280x800), a finger (390x844 with touch), the
keyboard (Space confirms wherever the focus is in the prompt) and without JavaScript (the plain
form). Inputs are counted; the library is read back from the server; the prompt passes axe-core
on both viewports and is photographed (test-artifacts/screenshots/scry-*.png)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game import services
from tests.web.helpers import answer

from .helpers import SCREENSHOTS, Inputs, game_at, off_the_loop
from .test_a11y import audit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ACTIVATE = "activate Dungeon Map: {3}, {T}"
SCRY_LINE = "alice scries 2: {top} on top, {bottom} on the bottom"


def library(game) -> list[str]:
    def read():
        game.refresh_from_db()
        with services.reading(game) as engine:
            return [o.name for o in engine.state.player("alice").library]

    return off_the_loop(read)


def row(card: str) -> str:
    return f"#prompt fieldset.place:has(legend:text-is('{card}'))"


def place(page, card: str, text: str) -> str:
    """The selector of `card`'s place `text` (1st, 2nd, Bottom, Top) in the prompt."""
    return f"{row(card)} label.place-choice:has-text('{text}')"


def checked(page, card: str):
    return page.locator(f"{row(card)} input:checked")


def photograph(page, name: str) -> None:
    """The prompt as a player sees it, for a person to look at (nothing reads it back)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


def scrying_pages(open_as, *, phone: bool = False, js: bool = True):
    """Alice's page at the scry 2 of tests/web/positions/scry_two.yaml (Island, then Forest,
    looked at) and Bob's, both opened mid-scry."""
    alice, bob, game = game_at("scry_two.yaml")
    game = off_the_loop(answer, game, alice, ACTIVATE)
    mine = open_as(alice, game.get_absolute_url(), phone=phone, js=js)
    theirs = open_as(bob, game.get_absolute_url(), phone=phone)
    expect(mine.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "scry")
    return mine, theirs, game


def test_with_the_mouse_two_cards_reordered_in_one_prompt_take_two_clicks(open_as):
    alice, bob, game = game_at("scry_two.yaml")
    page = open_as(alice, game.get_absolute_url())
    other = open_as(bob, game.get_absolute_url())
    page.locator(f"#prompt button[data-option='{ACTIVATE}']").click()
    prompt = page.locator("#prompt .prompt.mine")
    expect(prompt).to_have_attribute("data-kind", "scry")
    expect(prompt).to_be_focused()
    expect(other.locator("#prompt")).to_contain_text("alice is scrying")
    # One prompt: both cards, each with its places, all in view beside the table.
    expect(page.locator("#prompt fieldset.place")).to_have_count(2)
    expect(page.locator("#prompt input[type=radio]")).to_have_count(6)
    expect(page.locator("#prompt .place-result")).to_have_text(
        "On top: Island, then Forest. On the bottom: none."
    )
    for box in (prompt.bounding_box(), page.locator("#confirm").bounding_box()):
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    photograph(page, "scry-desktop.png")
    assert audit(page) == []  # axe-core: nothing serious or critical
    clicks = Inputs(page)
    clicks(place(page, "Forest", "1st"))
    # Island makes room: it is 2nd now.
    expect(checked(page, "Island")).to_have_value("2")
    expect(page.locator("#prompt .place-result")).to_have_text(
        "On top: Forest, then Island. On the bottom: none."
    )
    clicks("#confirm")
    for p in (page, other):
        expect(p.locator("#log")).to_contain_text(SCRY_LINE.format(top=2, bottom=0))
    expect(prompt).to_have_attribute("data-kind", "priority")
    assert clicks.count == 2, clicks.count
    assert library(game) == ["Forest", "Island", "Swamp", "Plains"]
    # The other seat never learns the cards nor their order.
    assert "Forest" not in other.content()


def test_on_a_phone_one_tap_puts_a_card_on_the_bottom_and_one_confirms(open_as):
    page, bob, game = scrying_pages(open_as, phone=True)
    prompt = page.locator("#prompt .prompt.mine")
    # The prompt docked at the bottom of the screen holds the whole scry: every place and
    # Confirm in view, each at least 44 px tall for a finger.
    expect(page.locator("#prompt input[type=radio]")).to_have_count(6)
    for label in page.locator("#prompt label.place-choice").all() + [page.locator("#confirm")]:
        box = label.bounding_box()
        assert box["height"] >= 44, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    photograph(page, "scry-phone.png")
    assert audit(page) == []
    taps = Inputs(page)
    taps.tap(place(page, "Island", "Bottom"))
    expect(checked(page, "Forest")).to_have_value("1")
    expect(checked(page, "Island")).to_have_value("b")
    expect(page.locator("#prompt .place-result")).to_have_text(
        "On top: Forest. On the bottom: Island."
    )
    taps.tap("#confirm")
    expect(page.locator("#log")).to_contain_text(SCRY_LINE.format(top=1, bottom=1))
    expect(prompt).to_have_attribute("data-kind", "priority")
    assert taps.count == 2, taps.count
    assert library(game) == ["Forest", "Swamp", "Plains", "Island"]
    expect(bob.locator("#log")).to_contain_text(SCRY_LINE.format(top=1, bottom=1))


def test_by_keyboard_tab_to_a_card_an_arrow_to_its_place_and_space(open_as):
    page, _, game = scrying_pages(open_as)
    expect(page.locator("#prompt .prompt.mine")).to_be_focused()
    keys = Inputs(page)
    keys.press("Tab")  # Island's places (the one checked takes the focus)
    expect(page.locator("#prompt input[name^='pos:']:focus")).to_have_value("1")
    # Each place is labelled in full for a screen reader.
    focused = page.locator("#prompt input:focus")
    assert focused.evaluate("e => e.labels[0].innerText.replace(/\\s+/g, ' ')").endswith(
        "Island 1st from the top"
    )
    keys.press("ArrowRight")  # Island 2nd: Forest moves up
    expect(checked(page, "Forest")).to_have_value("1")
    keys.press("Tab")  # Forest's places
    keys.press("ArrowRight")  # Forest 2nd: Island back to 1st
    expect(checked(page, "Island")).to_have_value("1")
    keys.press("ArrowRight")  # Forest to the bottom
    expect(checked(page, "Forest")).to_have_value("b")
    keys.press("Shift+Tab")
    keys.press("ArrowRight")  # Island 2nd, alone on top: it stays the top card
    expect(checked(page, "Island")).to_have_value("1")
    keys.press("ArrowRight")  # Island to the bottom too
    expect(page.locator("#prompt .place-result")).to_have_text(
        "On top: none. On the bottom: Island, then Forest."
    )
    keys.press("Space")  # confirms, with the focus on a radio button
    expect(page.locator("#log")).to_contain_text(SCRY_LINE.format(top=0, bottom=2))
    assert keys.count == 9, keys.count
    assert library(game) == ["Swamp", "Plains", "Island", "Forest"]


def test_without_javascript_the_plain_form_places_the_cards(open_as):
    page, _, game = scrying_pages(open_as, js=False)
    expect(page.locator("#prompt input[type=radio]")).to_have_count(6)
    # Nothing renumbers the cards without JavaScript: a gap is refused, said, and nothing moves.
    page.locator(place(page, "Island", "Bottom")).click()
    page.locator("#confirm").click()
    expect(page.locator(".messages, #flash").first).to_contain_text(
        re.compile("Number the cards kept on top from 1")
    )
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "scry")
    assert library(game) == ["Island", "Forest", "Swamp", "Plains"]
    page.locator(place(page, "Island", "Bottom")).click()
    page.locator(place(page, "Forest", "1st")).click()
    page.locator("#confirm").click()
    expect(page.locator("#log")).to_contain_text(SCRY_LINE.format(top=1, bottom=1))
    assert library(game) == ["Forest", "Swamp", "Plains", "Island"]
