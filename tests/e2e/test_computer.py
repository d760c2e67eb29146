"""Playing the computer in Debian's Chromium: from the lobby's "Play the computer" to the
game-over screen, a whole game. The person plays a land when they can and otherwise passes
until their next turn (the pace feature), blocks nothing and discards what they must: a patient
opponent, so the computer (Easy) has to win the game by playing it; then the rematch seats the
computer again."""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from game.models import Game

from .helpers import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The live server is forked from this process when the first e2e test asks for it, after every
# test module was imported: the computer answers 50 ms after its decision comes up, not at a
# person's pace (VENTURE_COMPUTER_DELAY_SECONDS), so a whole game fits in the test's time.
settings.VENTURE_COMPUTER_DELAY_SECONDS = 0.05

GAME_SECONDS = 240  # about a minute on a quiet machine; the bound is for a loaded one
CLICK_MS = 2000
LAND = re.compile(r"^play (Plains|Island|Swamp|Mountain|Forest)\b")
CHOOSE = re.compile(r"Choose (\d+)")


def answer_one(page) -> bool:
    """Answer the decision on the page if it is the person's; False when there is none (or it
    went away under the click: the computer's answers redraw the page while it plays)."""
    mine = page.locator("#prompt .prompt.mine")
    if not mine.count():
        return False
    try:
        _answer(page, mine)
    except PlaywrightError:
        return False
    return True


def _answer(page, mine) -> None:
    kind = mine.get_attribute("data-kind", timeout=CLICK_MS)
    if kind == "priority":
        labels = mine.locator("button[data-option]").evaluate_all(
            "els => els.map(e => e.dataset.option)"
        )
        land = next((label for label in labels if LAND.match(label)), None)
        if land is not None:
            mine.locator(f"button[data-option='{land}']").click(timeout=CLICK_MS)
        elif page.locator("#pass-turn").count():  # the pace feature, as a person in a hurry
            page.locator("#pass-turn").click(timeout=CLICK_MS)
        else:
            mine.locator("button.pass").click(timeout=CLICK_MS)
    elif mine.locator("#confirm").count():  # blockers, a discard...: the fewest allowed
        hint = mine.locator(".hint").first.inner_text() if mine.locator(".hint").count() else ""
        need = CHOOSE.match(hint)
        for i in range(int(need.group(1)) if need else 0):
            mine.locator("input[type=checkbox]").nth(i).check(timeout=CLICK_MS)
        mine.locator("#confirm").click(timeout=CLICK_MS)
    else:  # keep the hand, the first of a plain choice
        mine.locator("button").first.click(timeout=CLICK_MS)


def test_a_whole_game_against_the_computer_from_the_lobby_to_the_game_over_screen(
    new_page, live_server_url
):
    page = new_page("mira")
    mira = sign_in(page, live_server_url, "Mira")
    page.goto(live_server_url + "/")
    page.select_option("#id_computer-deck", "Varis (green-white)")
    page.select_option("#id_computer-computer_deck", "Crawlers (black-red)")
    page.check("#play-computer input[value=easy]")
    page.click("#play-computer button[type=submit]")
    expect(page.locator("#topbar")).to_be_visible()
    opponent = page.locator("#opponent")
    expect(opponent.locator(".player-name")).to_have_text("Computer (Easy)")
    expect(opponent.locator(".computer-badge")).to_have_text("computer · Easy")

    deadline = time.monotonic() + GAME_SECONDS
    answered = 0
    while not page.locator("#over.shown").count():
        assert time.monotonic() < deadline, f"no winner after {answered} answers"
        version = page.locator("#topbar").get_attribute("data-version")
        if not answer_one(page):
            page.wait_for_timeout(100)  # the computer's turn to decide
            continue
        answered += 1
        page.wait_for_function(
            "v => document.querySelector('#over.shown') || "
            "document.querySelector('#topbar').dataset.version !== v",
            arg=version,
            timeout=15000,
        )
    game = Game.objects.get(seats__player=mira)
    assert game.status == Game.FINISHED and game.winner
    assert answered > 5 and game.turn > 2  # a game was played, not a concession
    assert game.actions.filter(answer="!concede").count() == 0
    headline = "Mira wins" if game.winner == "Mira" else "Computer (Easy) wins"
    expect(page.locator("#over .over-headline")).to_have_text(headline)
    expect(page.locator("#over .over-you")).to_have_text(
        "You won." if game.winner == "Mira" else "You lost."
    )

    page.click("#rematch")  # the computer is seated again, at the same level
    expect(page.locator("#topbar")).to_be_visible()
    expect(page.locator("#opponent .computer-badge")).to_have_text("computer · Easy")
    assert Game.objects.get(rematch_of=game).seats.filter(player__computer_level="easy").exists()
