"""A new decision's buttons ignore clicks and keys for their first moment (venture.js,
ARRIVAL_GUARD_MS), in Debian's Chromium: a click meant for "To combat" that lands on the
Confirm the server put in its place does not declare "no attackers"; once the moment has
passed, the same buttons and keys answer as always, and the same decision redrawn is not
held up again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import past_arrival, table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Set before alice's pass: when the declare-attackers prompt arrives, in the same task as its
# arrival (after venture.js's own handlers, registered before this one), the page clicks its
# Confirm and presses Space, as a late click or a second press meant for "To combat" would, and
# notes what the buttons looked like then.
CLICK_ON_ARRIVAL = """() => {
  document.addEventListener("htmx:wsAfterMessage", function () {
    const prompt = document.querySelector("#prompt .prompt.mine");
    if (window.arrival || !prompt || prompt.dataset.kind !== "declare_attackers") return;
    const confirm = document.getElementById("confirm");
    window.arrival = {
      arriving: prompt.classList.contains("arriving"),
      ariaDisabled: confirm.getAttribute("aria-disabled"),
      opacity: getComputedStyle(confirm).opacity,
    };
    confirm.click();
    prompt.dispatchEvent(new KeyboardEvent("keydown", { key: " ", bubbles: true }));
  });
}"""


def test_a_click_on_a_prompt_just_arrived_is_dropped_and_one_after_the_moment_answers(
    new_page, live_server_url
):
    alice, bob = table(new_page, live_server_url, "five_attackers.yaml")
    prompt = alice.locator("#prompt .prompt.mine")
    expect(alice.locator("#pass")).to_contain_text("To combat")
    alice.evaluate(CLICK_ON_ARRIVAL)
    alice.locator("#pass").click()
    expect(prompt).to_have_attribute("data-kind", "declare_attackers")
    arrival = alice.evaluate("() => window.arrival")
    # Shown held: the prompt marked, its Confirm aria-disabled and dimmed.
    assert arrival["arriving"] is True, arrival
    assert arrival["ariaDisabled"] == "true", arrival
    assert float(arrival["opacity"]) < 1, arrival
    # The moment passes: the buttons are live again, and the click and the key made during it
    # sent nothing (no attackers declared: the decision is still there, at the same version).
    version = alice.locator("#topbar").get_attribute("data-version")
    expect(prompt).not_to_have_class(re.compile(r"\barriving\b"))
    expect(alice.locator("#confirm")).not_to_have_attribute("aria-disabled", "true")
    expect(alice.locator("#prompt button[data-arriving]")).to_have_count(0)
    alice.wait_for_timeout(300)  # time for an answer the dropped click would have brought
    expect(prompt).to_have_attribute("data-kind", "declare_attackers")
    expect(alice.locator("#topbar")).to_have_attribute("data-version", version)
    expect(alice.locator("#log")).not_to_contain_text("no attackers")
    # The same decision redrawn (its version unchanged) is not held again.
    held = alice.evaluate(
        """() => { document.dispatchEvent(new CustomEvent("htmx:wsAfterMessage"));
                   return document.getElementById("confirm").hasAttribute("aria-disabled"); }"""
    )
    assert held is False
    # Now the clicks answer: attack with all, Confirm; fifteen damage end the game.
    alice.locator("#attack-all").click()
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(5)
    alice.locator("#confirm").click()
    for page in (alice, bob):
        expect(page.locator("#over.shown .over-headline")).to_have_text("alice wins")


def test_space_after_the_moment_passes_as_always(new_page, live_server_url):
    alice, _ = table(new_page, live_server_url, "five_attackers_20.yaml")
    prompt = alice.locator("#prompt .prompt.mine")
    expect(prompt).to_be_focused()
    alice.keyboard.press("Space")  # to combat
    expect(prompt).to_have_attribute("data-kind", "declare_attackers")
    expect(prompt).to_be_focused()
    past_arrival(alice)
    alice.keyboard.press("a")
    alice.keyboard.press("Space")
    expect(alice.locator("#topbar .turn-step")).to_have_text("Main 2")
    expect(alice.locator("#log")).not_to_contain_text("no attackers")
