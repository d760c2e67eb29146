"""The Content-Security-Policy in Debian's Chromium (docs/security.md, "Content-Security-Policy"):
a whole short game from a position file, from the lobby's upload to the rematch, with the invite
link, the websocket, the game-over screen and the replay, and the dungeon editor with its live
preview, all without a single violation of the policy; the header is on every page; and the
watch for violations does see one when a page breaks the policy."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.web.helpers import designers_group

from .helpers import DESKTOP, PHONE, add_effect_step, add_room, open_dungeon_editor, sign_in
from .helpers import open_scenario_game as open_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Run in every page before its own scripts: each violation is handed to the test.
REPORTER = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.reportCspViolation(
    [e.violatedDirective, e.blockedURI, e.sourceFile + ":" + e.lineNumber, e.sample].join(" | ")
  );
});
"""


def watched(page) -> list[str]:
    """The policy's violations on `page` from now on: the page's own event, and what Chromium
    says on the console ("Refused to … because it violates the following Content Security
    Policy directive …")."""
    seen: list[str] = []

    def report(violation: str) -> None:
        seen.append(violation)

    def console(message) -> None:
        if "Content Security Policy" in message.text:
            seen.append(message.text)

    page.expose_function("reportCspViolation", report)
    page.add_init_script(REPORTER)
    page.on("console", console)
    return seen


def assert_policy_header(response) -> None:
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self' 'nonce-" in policy, policy
    assert "connect-src 'self'" in policy and "unsafe-inline" not in policy.split("; ")[1]


def test_a_whole_game_from_a_position_runs_without_a_policy_violation(new_page, live_server_url):
    base = live_server_url
    alice, bob = new_page("alice"), new_page("bob")
    seen = {"alice": watched(alice), "bob": watched(bob)}
    sign_in(alice, base, "alice")
    sign_in(bob, base, "bob")
    alice.set_viewport_size(DESKTOP)
    bob.set_viewport_size(PHONE)  # the phone's layout code too (static/js/layout.js)

    assert_policy_header(alice.goto(base + "/"))
    # The lobby's upload, the invite link (selected by a click: venture.js, not an onclick),
    # bob's join: both tables start over the websocket (connect-src 'self' allows ws:).
    open_game(alice, bob, "lethal_attack.yaml")
    assert_policy_header(bob.reload())
    expect(bob.locator("#topbar")).to_be_visible()
    # htmx under the policy: its indicator <style> is turned off, nothing else inserts one.
    assert alice.evaluate("document.querySelectorAll('style').length") == 0
    assert alice.evaluate("htmx.config.includeIndicatorStyles") is False

    # The zoom panel (zoom.js fetches cards.json: connect-src) on bob's phone.
    bob.locator("#opponent .perm[data-name='Varis, Silverymoon Ranger']").first.click()
    zoom = bob.locator("dialog.zoom[open]")
    expect(zoom.locator(".zoom-name")).to_have_text("Varis, Silverymoon Ranger")
    bob.keyboard.press("Escape")
    expect(zoom).to_have_count(0)

    # The whole game: alice attacks with Varis, bob at 2 life has no blocker.
    expect(alice.locator("#prompt .prompt")).to_have_attribute("data-kind", "declare_attackers")
    alice.click("#me .perm[data-name='Varis, Silverymoon Ranger'] label.pick")
    alice.click("#confirm")
    for page, you in ((alice, "You won."), (bob, "You lost.")):
        expect(page.locator("#over.shown .over-headline")).to_have_text("alice wins")
        expect(page.locator("#over .over-you")).to_have_text(you)

    # The replay (replay.js steps without reloading) and the rematch (both pages move on).
    game_url = alice.url
    assert_policy_header(alice.goto(game_url + "replay/"))
    expect(alice.locator("#replay-play")).to_be_visible()  # its script runs
    alice.click("#replay-first")
    expect(alice.locator("#replay-point")).to_have_attribute("data-at", "0")
    alice.goto(game_url)
    bob.click("#rematch")
    expect(alice.locator("#rematch-offer")).to_have_text("bob offers a rematch.")
    alice.click("#rematch")
    expect(alice.locator("#topbar")).to_be_visible()
    expect(bob.locator("#topbar")).to_be_visible()
    expect(bob).to_have_url(alice.url)

    for page in (alice, bob):
        page.wait_for_timeout(300)  # reports still on their way
    assert seen == {"alice": [], "bob": []}


def test_the_dungeon_editor_and_its_live_preview_run_without_a_policy_violation(
    new_page, live_server_url
):
    page = new_page("designer")
    seen = watched(page)
    page.set_viewport_size(DESKTOP)
    user = User.objects.create_user("dana", password="pw", is_staff=True)
    user.groups.add(designers_group())
    open_dungeon_editor(page, live_server_url, "dana", "pw")
    page.fill("#id_name", "Goblin Warren")
    # nested_admin's "Add another" links are javascript:// ones its script handles itself.
    add_room(page, 0, "Gate", "You gain 1 life.")
    add_effect_step(page, 0, 0, "gain_life", {"amount": "1"})
    expect(page.locator("#dungeon-preview-body .room[data-room='Gate']")).to_be_visible()
    page.wait_for_timeout(300)
    assert seen == []


def test_the_watch_sees_a_violation(new_page, live_server_url):
    """The two tests above can fail: an inline script and a <style> element put in a page are
    refused and reported."""
    page = new_page("mallory")
    seen = watched(page)
    assert_policy_header(page.goto(live_server_url + "/"))
    page.evaluate(
        """() => {
          const s = document.createElement("script");
          s.textContent = "window.injected = true";
          document.body.append(s);
          const style = document.createElement("style");
          style.textContent = "body { background: red }";
          document.head.append(style);
        }"""
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.injected === undefined")
    assert any("script-src" in v for v in seen), seen
    assert any("style-src" in v for v in seen), seen
