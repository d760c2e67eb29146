"""An accessibility audit with axe-core (axe-playwright-python) on the pages a player uses: the
lobby, the new-game page, a game in progress on a desktop and on a phone (blocks being made on
the cards and the mulligan too), and a profile. No
violation of serious or critical impact is allowed; the others are printed for the record."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.web.helpers import make_player

from .helpers import a_game_at_the_mulligan, game_at, off_the_loop, waiting_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}


def audit(page) -> list[str]:
    """The serious and critical violations on `page`, one line per offending element."""
    results = Axe().run(page)
    found = []
    for v in results.response["violations"]:
        lines = [f"{v['id']} ({v['impact']}): {v['help']}"]
        lines += [f"    {n['target']}: {n.get('failureSummary', '')[:200]}" for n in v["nodes"][:8]]
        print("\n".join(lines))
        if v["impact"] in BLOCKING:
            found += lines
    return found


def test_the_lobby_new_game_waiting_and_profile_pages_pass_the_audit(open_as):
    alice = make_player("alice")
    waiting = waiting_game(alice)
    for path, player in (
        ("/", None),
        ("/", alice),
        ("/games/new/", alice),
        (waiting.get_absolute_url(), alice),  # waiting for an opponent, the invite link
        (alice.get_absolute_url(), alice),  # the profile
    ):
        page = open_as(player, path)
        page.wait_for_selector("h1")
        assert audit(page) == [], path


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_game_in_progress_passes_the_audit(open_as, phone):
    alice, bob, game = game_at("busy_table.yaml")
    for player in (alice, bob):  # the one deciding, and the one waiting
        page = open_as(player, game.get_absolute_url(), phone=phone)
        page.wait_for_selector("#prompt .prompt")
        assert audit(page) == [], player.display_name


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_blocks_on_the_cards_and_the_mulligan_pass_the_audit(open_as, phone):
    """The decisions made on the cards and on the whole hand: a blocker picked (its Block
    button pressed, its buttons per attacker shown), and the hand of the mulligan in rows."""
    alice, bob, game = game_at("identical_blockers.yaml")
    attacker = open_as(alice, game.get_absolute_url())
    page = open_as(bob, game.get_absolute_url(), phone=phone)
    expect(attacker.locator("#prompt .prompt.mine")).to_have_attribute(
        "data-kind", "declare_attackers"
    )
    attacker.locator("#attack-all").click()
    attacker.locator("#confirm").click()
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "declare_blockers")
    page.locator("#me .perm-actions .block-with").first.click()
    expect(page.locator("#me .perm.block-source")).to_have_count(1)
    assert audit(page) == [], "blocks"
    player, game = off_the_loop(a_game_at_the_mulligan)
    page = open_as(player, game.get_absolute_url(), phone=phone)
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "mulligan")
    assert audit(page) == [], "mulligan"
