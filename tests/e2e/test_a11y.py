"""An accessibility audit with axe-core (axe-playwright-python) on the pages a player uses: the
lobby, the new-game page, a game in progress on a desktop and on a phone, and a profile. No
violation of serious or critical impact is allowed; the others are printed for the record."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from axe_playwright_python.sync_playwright import Axe

from game import services
from game.decks import GREEN_WHITE_VARIS
from tests.e2e.test_layout import DESKTOP, PHONE, session_cookie
from tests.web.helpers import make_player, start_position

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


@pytest.fixture
def visit(browser, live_server_url):
    contexts = []

    def open_page(path: str, player=None, *, phone: bool = False):
        options = {"viewport": PHONE if phone else DESKTOP}
        if phone:
            options.update(is_mobile=True, has_touch=True)
        context = browser.new_context(**options)
        contexts.append(context)
        if player is not None:
            context.add_cookies([session_cookie(live_server_url, player)])
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(live_server_url + path)
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_the_lobby_new_game_waiting_and_profile_pages_pass_the_audit(visit):
    alice = make_player("alice")
    with ThreadPoolExecutor(1) as pool:  # a service broadcasts: not beside Playwright's loop
        waiting = pool.submit(
            services.create_game, alice, deck_name="Varis", deck=list(GREEN_WHITE_VARIS)
        ).result()
    for path, player in (
        ("/", None),
        ("/", alice),
        ("/games/new/", alice),
        (waiting.get_absolute_url(), alice),  # waiting for an opponent, the invite link
        (alice.get_absolute_url(), alice),  # the profile
    ):
        page = visit(path, player)
        page.wait_for_selector("h1")
        assert audit(page) == [], path


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_game_in_progress_passes_the_audit(visit, phone):
    alice, bob = make_player("alice"), make_player("bob")
    with ThreadPoolExecutor(1) as pool:  # a service broadcasts: not beside Playwright's loop
        game = pool.submit(start_position, alice, bob, "busy_table.yaml").result()
    for player in (alice, bob):  # the one deciding, and the one waiting
        page = visit(game.get_absolute_url(), player, phone=phone)
        page.wait_for_selector("#prompt .prompt")
        assert audit(page) == [], player.display_name
