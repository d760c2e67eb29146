"""Takebacks as two players make them, in Debian's Chromium at 1280x800 and 390x844: alice plays
a land and takes it back, bob accepts with the keyboard (the request takes the prompt's place
and the focus); alice declares an attack and asks to take it back, bob declines. Screenshots
of both pages go to test-artifacts/screenshots/; the pages with a request pass the axe-core
audit (tests/e2e/test_a11y.py). Once bob has drawn at the start of his turn, alice's last answer
can't be taken back: the button is inert with the reason beside it, and a request sent anyway
(over a socket, or as a form post) is refused with the same sentence and changes nothing."""

from __future__ import annotations

import html

import pytest
from playwright.sync_api import expect

from game.models import Game, Takeback

from .helpers import DESKTOP, PHONE, SCREENSHOTS, past_arrival, table
from .test_a11y import audit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "takeback_table.yaml"


def prompt(page):
    return page.locator("#prompt .prompt.mine")


def shoot(page, name: str) -> None:
    past_arrival(page)  # the buttons as they stay, not dimmed for a new decision's first moment
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
    past_arrival(bob)  # Enter on its button would be dropped before
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


# A socket of the player's own (the page's cookies), sending one message as htmx would and
# answering with the #flash the server replies with.
FORGE_OVER_SOCKET = """([url, fields]) => new Promise((done, fail) => {
  const ws = new WebSocket(url);
  const late = setTimeout(() => { ws.close(); fail(new Error("no reply")); }, 10000);
  ws.onopen = () => ws.send(JSON.stringify({...fields, HEADERS: {"HX-Request": "true"}}));
  ws.onmessage = (e) => {
    if (String(e.data).startsWith('<div id="flash"')) {
      clearTimeout(late);
      ws.close();
      done(String(e.data));
    }
  };
})"""


def _kept(game: Game) -> tuple:
    """What an ask would change: the log, the requests, the asks counted, the takeback lines."""
    game.refresh_from_db()
    return (
        game.version,
        game.log_epoch,
        list(game.seats.order_by("position").values_list("takeback_to", "takebacks_asked")),
        Takeback.objects.filter(game=game).count(),
    )


def test_no_takeback_once_a_card_was_drawn_and_a_forged_ask_is_refused(new_page, live_server_url):
    alice, bob = table(new_page, live_server_url, TABLE)
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    alice.locator("#prompt button[data-option='play Forest']").click()
    expect(alice.locator("#takeback-about")).to_have_text("alice plays Forest · 3 left")
    alice.locator("#prompt #pass").click()
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    code = alice.url.rstrip("/").rsplit("/", 1)[1]
    game = Game.objects.get(code=code)

    def answered(click: str) -> None:
        """Alice clicks, and her page shows the game moved on."""
        shown = alice.locator("#topbar").get_attribute("data-version")
        alice.locator(click).click()
        expect(alice.locator("#topbar")).not_to_have_attribute("data-version", shown)
        game.refresh_from_db()

    answered("#confirm")  # no attackers
    # Alice passes through the rest of her turn; bob's begins with his draw.
    for _ in range(8):
        if game.turn == 6:
            break
        answered("#prompt #pass")
    expect(prompt(bob)).to_be_visible()
    assert game.turn == 6 and game.deciding == "bob"

    # Her last answer is still hers (bob has answered nothing), but a card left bob's library
    # since: the button is inert and says so.
    reason = "Your last answer can't be taken back: since then a card left bob's library."
    expect(alice.locator("#takeback")).to_have_attribute("aria-disabled", "true")
    expect(alice.locator("#takeback-about")).to_have_text(reason)
    expect(alice.locator("form.takeback")).to_have_count(0)  # nothing to send
    alice.locator("#takeback").scroll_into_view_if_needed()
    shoot(alice, "takeback-sealed-desktop.png")
    before = _kept(game)
    expect(alice.locator("#takeback")).to_be_disabled()  # as assistive technology is told
    alice.locator("#takeback").click(force=True)  # clicked all the same: no request leaves

    # Sent anyway over a socket of her own: refused with the reason, to her alone.
    fields = {"action": "takeback", "version": str(game.version), "action_id": "forged-ws-1"}
    reply = alice.evaluate(
        FORGE_OVER_SOCKET, [f"ws://{alice.url.split('/')[2]}/ws/game/{code}/", fields]
    )
    assert html.unescape(reply).count(reason) == 1, reply
    # And as a plain form post, with her session and CSRF token.
    token = alice.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    response = alice.request.post(
        f"{live_server_url}/g/{code}/act/",
        form={**fields, "action_id": "forged-post-1", "csrfmiddlewaretoken": token},
        headers={"Referer": alice.url},
    )
    assert response.ok and reason in html.unescape(response.text())
    assert _kept(game) == before
    # Bob is never asked: his decision is still his.
    expect(prompt(bob)).to_have_attribute("data-kind", "priority")
    expect(bob.locator("#accept-takeback")).to_have_count(0)
    expect(bob.locator("#log")).not_to_contain_text("asked to take back")
    expect(alice.locator("#takeback-about")).to_have_text(reason)
