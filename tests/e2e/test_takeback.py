"""Takebacks as two players make them, in Debian's Chromium at 1280x800 and 390x844: alice plays
a land and takes it back, bob accepts with the keyboard (the request takes the prompt's place
and the focus); alice declares an attack and asks to take it back, bob declines. Screenshots
of both pages go to test-artifacts/screenshots/; the pages with a request pass the axe-core
audit (tests/e2e/test_a11y.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import DESKTOP, PHONE, SCREENSHOTS, table
from .test_a11y import audit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "takeback_table.yaml"


def prompt(page):
    return page.locator("#prompt .prompt.mine")


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_land_played_is_taken_back_when_the_opponent_accepts(new_page, live_server_url, viewport):
    alice, bob = table(new_page, live_server_url, TABLE, viewport)
    size = "desktop" if viewport == DESKTOP else "phone"
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    # Nothing of hers to take back yet: the button is there, inert, and says why.
    expect(alice.locator("#takeback")).to_have_attribute("aria-disabled", "true")
    expect(alice.locator("#takeback-about")).to_have_text(
        "There is no answer of yours to take back yet."
    )
    alice.locator("#prompt button[data-option='play Forest']").click()
    expect(alice.locator("#me .perm[data-name='Forest']")).to_have_count(1)
    expect(alice.locator("#hand")).not_to_contain_text("Forest")
    expect(alice.locator("#takeback-about")).to_have_text("alice plays Forest · 3 left")
    shoot(alice, f"takeback-button-{size}.png")

    alice.locator("#takeback").click()
    expect(prompt(alice)).to_have_attribute("data-kind", "takeback_asked")
    expect(prompt(alice)).to_contain_text("You asked bob to take back an answer")
    expect(alice.locator("#withdraw-takeback")).to_be_visible()
    # Bob is asked: the request takes the prompt's place and the keyboard's focus.
    expect(prompt(bob)).to_have_attribute("data-kind", "takeback")
    expect(prompt(bob)).to_contain_text("alice asks to take back an answer")
    expect(prompt(bob)).to_contain_text("alice plays Forest")
    expect(prompt(bob)).to_be_focused()
    shoot(alice, f"takeback-asked-{size}.png")
    shoot(bob, f"takeback-request-{size}.png")
    assert audit(alice) == [] and audit(bob) == []  # axe-core: nothing serious or critical

    bob.keyboard.press("Tab")
    expect(bob.locator("#accept-takeback")).to_be_focused()
    bob.keyboard.press("Enter")
    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text(
            "alice asked to take back an answer (alice plays Forest); bob accepted"
        )
    expect(alice.locator("#hand")).to_contain_text("Forest")
    expect(alice.locator("#me .perm[data-name='Forest']")).to_have_count(0)
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    expect(alice.locator("#prompt button[data-option='play Forest']")).to_be_visible()
    expect(prompt(bob)).to_have_count(0)
    shoot(alice, f"takeback-accepted-{size}.png")


def test_an_attack_asked_back_and_declined_stands(new_page, live_server_url):
    alice, bob = table(new_page, live_server_url, TABLE)
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    alice.locator("#prompt #pass").click()
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    alice.locator("#prompt label.check", has_text="Grizzled Outrider").click()
    alice.locator("#confirm").click()
    # Bob holds an instant: the attack stops him. Alice asks to take it back.
    expect(prompt(bob)).to_have_attribute("data-kind", "priority")
    expect(alice.locator("#takeback-about")).to_contain_text(
        "alice attacks bob with Grizzled Outrider"
    )
    alice.locator("#takeback").click()
    expect(prompt(bob)).to_have_attribute("data-kind", "takeback")
    bob.locator("#decline-takeback").click()
    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text(
            "alice asked to take back an answer (alice attacks bob with Grizzled Outrider"
        )
        expect(page.locator("#log")).to_contain_text("; bob declined")
    # The attack stands; bob's decision is his again, alice has two asks left.
    expect(prompt(bob)).to_have_attribute("data-kind", "priority")
    expect(prompt(alice)).to_have_count(0)
    expect(alice.locator("#takeback-about")).to_contain_text("2 left")
    shoot(bob, "takeback-declined-desktop.png")
