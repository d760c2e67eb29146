"""A correspondence game in Chromium, as two people with accounts play it over days: a seek of
3 days per move that waits while its player goes elsewhere, the game it finds, the turn mail,
the lobby's "Your turn" list, the browser's notification while a page of the site is open, a
move, and the claim once the other player's days are out."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from game.models import Game, Player
from tests.web.helpers import make_player

from .helpers import save_readme_picture
from .test_pairing import play_now

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

# The browser's Notification, recorded: what the page would show the player (headless Chromium
# shows none), with the permission already given.
NOTIFICATIONS = """
window.__told = [];
window.Notification = class {
  constructor(title, options) { window.__told.push({title: title, body: options && options.body}); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


def _wants_mail(player: Player) -> None:
    player.turn_mail = True
    player.save(update_fields=["turn_mail"])
    player.user.email = f"{player.user.username}@example.com"
    player.user.save(update_fields=["email"])


def _answer_until_it_is_theirs(page, game: Game, name: str) -> None:
    """The player on `page` answers the game's opening decisions (play first, keep) until the
    other player must decide."""
    for _ in range(6):
        game.refresh_from_db()
        if game.deciding != name:
            return
        version = game.version
        prompt = page.locator("#prompt .prompt")
        kind = prompt.get_attribute("data-kind")
        page.locator(
            f"#prompt button[data-option='{'play' if kind == 'play_or_draw' else 'keep'}']"
        ).click()
        expect(page.locator("#prompt")).not_to_have_attribute("data-version", str(version))
    raise AssertionError("the decision never passed to the other player")


def test_a_correspondence_game_a_move_your_turn_a_mail_and_a_claim(
    open_as, live_server_url, server_outbox
):
    alice, bob = make_player("alice"), make_player("bob")
    for p in (alice, bob):
        _wants_mail(p)
    ann = open_as(alice, "/")
    play_now(ann, deck="Varis (green-white)", time_control="3 days per move")
    expect(ann.locator("#seek-status .seek-settings")).to_contain_text("3 days per move")
    expect(ann.locator(".seek-stays")).to_contain_text("you may leave this page")
    ann.goto(live_server_url + "/learn/")  # she goes elsewhere: the seek waits

    ben = open_as(bob, "/")
    expect(ben.locator("#seeks .seek .seek-tc")).to_have_text("3 days per move")
    play_now(ben, deck="Crawlers (black-red)", time_control="3 days per move")
    expect(ben).to_have_url(re.compile(r"/g/[^/]+/$"))
    game = Game.objects.get()
    assert game.days_per_move == 3 and game.status == Game.ACTIVE
    seats = {s.player_id: s for s in game.seats.all()}
    first = alice if game.deciding == seats[alice.pk].engine_name else bob
    second = bob if first == alice else alice
    ben.goto(live_server_url + "/learn/")  # both away from the table now

    # The first decision was handed out as the game began: its player is mailed.
    mails = _wait_for_mails(server_outbox, 1)
    assert mails[0]["To"] == first.user.email
    assert mails[0]["Subject"] == f"Venture: your turn against {second.display_name}"
    body = mails[0].get_content()
    assert game.get_absolute_url() in body and "/mail/off/" in body

    # The second player keeps a lobby open with notifications on.
    theirs = open_as(second, "/")
    theirs.add_init_script(NOTIFICATIONS)
    # Alice's first lobby after her seek found its game sends her to that game, once.
    theirs.goto(live_server_url + "/")
    expect(theirs.locator("#no-turns")).to_be_visible()
    theirs.locator("#your-turn-panel [data-notify-toggle]").click()
    expect(theirs.locator("#your-turn-panel [data-notify-toggle]")).to_have_text(
        "Notifications on: turn off"
    )

    # The first player finds the game under "Your turn" and moves.
    mine = open_as(first, "/")
    mine.goto(live_server_url + "/")
    row = mine.locator("#your-turn-list .your-turn")
    expect(row).to_contain_text(f"vs {second.display_name}")
    expect(row).to_contain_text("left")
    with mine.expect_response(lambda r: "/turns.json" in r.url):
        row.get_by_role("link", name="Play").click()
    expect(mine.locator("#answer-time")).to_contain_text("Your turn: you have")
    # The header's "Your turn" counts games waiting elsewhere: not the one at this table.
    mine.wait_for_timeout(300)
    expect(mine.locator("#turns-badge")).to_be_hidden()
    expect(mine.locator("#answer-time")).to_contain_text("(3 days per move)")
    save_readme_picture(mine, "correspondence-your-turn.png")
    _answer_until_it_is_theirs(mine, game, seats[first.pk].engine_name)
    expect(mine.locator("#answer-time")).to_contain_text(
        f"{second.display_name} has 3 days to answer"
    )

    # The second player is told three ways: the mail, the lobby's list, the notification.
    mails = _wait_for_mails(server_outbox, 2)
    assert mails[1]["To"] == second.user.email
    expect(theirs.locator("#your-turn-list .your-turn")).to_contain_text(
        f"vs {first.display_name}", timeout=10000
    )
    expect(theirs.locator("#turns-badge")).to_be_visible()
    save_readme_picture(theirs, "correspondence-lobby.png", full_page=True)
    theirs.wait_for_function("() => window.__told.length > 0", timeout=10000)
    told = theirs.evaluate("() => window.__told")
    assert told == [
        {"title": f"Your turn against {first.display_name}", "body": told[0]["body"]}
    ] and told[0]["body"].endswith("3 days left")

    # Three days and a minute later the second player has not answered: the first claims.
    Game.objects.filter(pk=game.pk).update(
        clock_since=timezone.now() - timedelta(days=3, minutes=1)
    )
    mine.reload()
    expect(mine.locator("#answer-time")).to_contain_text(
        f"{second.display_name} did not answer within 3 days."
    )
    mine.locator("#claim-win").click()
    expect(mine.locator("#over .over-headline")).to_have_text(
        f"{seats[first.pk].engine_name} wins", timeout=10000
    )
    expect(mine.locator("#over .over-reason")).to_contain_text("did not answer within 3 days")
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == seats[first.pk].engine_name
    assert game.end_reason == (
        f"{seats[second.pk].engine_name} did not answer within 3 days; "
        f"{seats[first.pk].engine_name} claimed the win"
    )


def _wait_for_mails(outbox, count: int, timeout: float = 10.0) -> list:
    """The server's mails once there are `count` (it sends them from a thread of its own)."""
    deadline = time.monotonic() + timeout
    while True:
        mails = outbox()
        if len(mails) >= count or time.monotonic() > deadline:
            assert len(mails) == count, [m["To"] for m in mails]
            return mails
        time.sleep(0.1)
