"""An accessibility audit with axe-core (axe-playwright-python) on the pages a player uses: the
lobby, the new-game page, a game in progress on a desktop and on a phone, and a profile. No
violation of serious or critical impact is allowed; the others are printed for the record."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web.helpers import make_player

from .helpers import game_at, waiting_game

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
