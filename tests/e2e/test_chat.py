"""The chat at the table in Debian's Chromium, on a desktop (1280x800) and a phone (390x844):
two players exchange a quick message and a free-text message live, one mutes the other (kept
across a reload), the other reports a message (it reaches the moderators' queue), all by mouse
and keyboard; the table keeps its layout and axe finds nothing serious in the chat."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from game.models import ChatReport

from .helpers import DESKTOP, PHONE, SCREENSHOTS, table
from .test_a11y import audit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def lines(page, author: str):
    return page.locator("#chat-lines-players .chat-line").filter(
        has=page.locator(".chat-author", has_text=author)
    )


def open_chat(page) -> None:
    """Unfold the chat with the keyboard if it is folded (a phone's default)."""
    if not page.locator("#chat-fold").evaluate("d => d.open"):
        page.locator("#chat-fold > summary").focus()
        page.keyboard.press("Enter")
    expect(page.locator("#chat-quick")).to_be_visible()


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_two_players_chat_live_one_mutes_the_other_and_one_reports(
    new_page, live_server_url, viewport
):
    alice, bob = table(new_page, live_server_url, "varis_fork.yaml", viewport)
    for page in (alice, bob):
        page.reload()  # opened at this size, as on a phone (the fold's default depends on it)
        expect(page.locator("#chat-fold")).to_be_visible()
        # Open beside the table on a desktop, folded on a phone.
        assert page.locator("#chat-fold").evaluate("d => d.open") == (viewport is DESKTOP)
        open_chat(page)

    # A quick message, clicked, arrives live on the other page.
    alice.locator("#chat-quick [data-quick=hello]").click()
    expect(lines(bob, "alice")).to_have_count(1)
    expect(lines(bob, "alice").locator(".chat-text")).to_have_text("Hello")
    expect(lines(alice, "alice")).to_have_count(1)

    # Free text, typed and sent with Enter; what looks like HTML stays text.
    bob.locator("#chat-text").focus()
    typed = 'gl hf <b onclick="x()">alice</b>'
    bob.keyboard.type(typed)
    bob.keyboard.press("Enter")
    expect(lines(alice, "bob").locator(".chat-text")).to_have_text(typed)
    assert alice.locator("#chat b").count() == 0
    # The field is emptied and keeps the focus for the next message.
    expect(bob.locator("#chat-text")).to_have_value("")
    expect(bob.locator("#chat-text")).to_be_focused()

    # Bob reports alice's message: it says so, and it is in the moderators' queue.
    lines(bob, "alice").locator(".chat-flag").click()
    expect(bob.locator("#flash")).to_contain_text("Reported")
    expect(lines(bob, "alice").locator(".chat-reported")).to_have_text("reported")
    report = ChatReport.objects.get()
    assert (report.reporter.display_name, report.message.author.display_name) == ("bob", "alice")

    # Alice mutes bob: his lines leave her page, his next one never arrives, and a reload
    # keeps it so. Bob is not told.
    alice.locator("#chat-mute").click()
    expect(alice.locator("#chat-mute")).to_have_text("Muted: bob")
    expect(lines(alice, "bob")).to_have_count(0)
    bob.locator("#chat-quick [data-quick=thinking]").click()
    expect(lines(bob, "bob")).to_have_count(2)
    alice.locator("#chat-quick [data-quick=nice]").click()  # after bob's, on both pages
    expect(lines(bob, "alice")).to_have_count(2)
    expect(lines(alice, "alice")).to_have_count(2)
    expect(lines(alice, "bob")).to_have_count(0)
    expect(bob.locator("#chat-mute")).to_have_text("Mute alice")
    alice.reload()
    open_chat(alice)
    expect(alice.locator("#chat-mute")).to_have_text("Muted: bob")
    expect(lines(alice, "alice")).to_have_count(2)
    expect(lines(alice, "bob")).to_have_count(0)

    # The table is whole around it: nothing scrolls sideways, the prompt is where it was; and
    # axe finds nothing serious with the chat open and full (a report, a mute, a reported line).
    for page in (alice, bob):
        no_sideways_scroll(page)
        expect(page.locator("#prompt")).to_be_visible()
        assert audit(page) == []
    name = "desktop" if viewport is DESKTOP else "phone"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    bob.locator("#chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(SCREENSHOTS / f"chat-{name}.png"))
