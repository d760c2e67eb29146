"""Quick pairing and ratings in Chromium: two people press Play now with the same choices and
land in the same game; a cancelled seek, or one whose page was left, leaves another lobby's
list; two accounts play a rated game to its end and each profile shows the ratings Glicko-2
gives."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game.models import Game, Player, Seek
from game.services import ratings
from tests.web.helpers import make_player

from .helpers import DESKTOP, PHONE, SCREENSHOTS
from .test_a11y import audit

# Two browsers, a dozen page loads and polls, and axe audits: 20-35 s a test on a quiet 2-core
# machine, several times that on a loaded one.
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]


def sit_down_as_guest(page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#id_display_name", name)
    page.click("text=Play as guest")
    expect(page.locator("#play-now")).to_be_visible()


def play_now(page, *, deck: str, time_control: str, rated: bool = False) -> None:
    form = page.locator("#play-now")
    form.locator("select[name='seek-deck']").select_option(deck)
    form.get_by_label(time_control, exact=True).check()
    form.get_by_label("Rated" if rated else "Casual", exact=True).check()
    # Pairing starts the game in this request: on a loaded machine that can take seconds.
    form.locator("button[type=submit]").click(timeout=15000)


def test_two_guests_with_the_same_choices_land_in_the_same_game(new_page, live_server_url):
    base = live_server_url
    ann, ben = new_page("ann"), new_page("ben")
    sit_down_as_guest(ann, base, "Ann")
    sit_down_as_guest(ben, base, "Ben")
    # Guests are told that rated games need a password.
    expect(ann.locator(".rated-needs-account")).to_be_visible()

    play_now(ann, deck="Varis (green-white)", time_control="20 min + 10 s")
    expect(ann.locator("#seek-status .seek-waiting")).to_contain_text("Looking for an opponent")
    expect(ann.locator("#seek-status .seek-settings")).to_have_text(
        "20 min + 10 s · casual · Varis (green-white)"
    )
    # Ben's lobby lists Ann's seek by itself (its list refreshes every few seconds).
    expect(ben.locator("#seeks .seek")).to_have_count(1, timeout=8000)
    expect(ben.locator("#seeks .seek .seek-player")).to_have_text("Ann")
    expect(ben.locator("#seeks .seek .seek-tc")).to_have_text("20 min + 10 s")

    play_now(ben, deck="Crawlers (black-red)", time_control="20 min + 10 s")
    # Ben goes to the game at once; Ann's waiting page follows by itself.
    expect(ben).to_have_url(re.compile(r"/g/[^/]+/$"))
    expect(ann).to_have_url(ben.url, timeout=8000)
    for page in (ann, ben):
        expect(page.locator("#topbar")).to_be_visible()
        expect(page.locator("#prompt .prompt")).to_have_attribute("data-kind", "play_or_draw")
    game = Game.objects.get()
    assert game.status == Game.ACTIVE and not game.rated
    assert (game.clock_seconds, game.clock_increment) == (1200, 10)
    assert sorted(game.seats.values_list("player__display_name", flat=True)) == ["Ann", "Ben"]
    # Both clocks are shown running from 20 minutes.
    expect(ann.locator("#topbar")).to_contain_text("20:00")


def test_a_cancelled_seek_disappears_from_another_lobby(open_as, live_server_url):
    alice, bob = make_player("alice"), make_player("bob")
    watcher = open_as(bob, "/")
    seeker = open_as(alice, "/")
    play_now(seeker, deck="Varis (green-white)", time_control="Untimed", rated=True)
    expect(seeker.locator("#seek-status .seek-settings")).to_contain_text("Untimed · rated")
    expect(watcher.locator("#seeks .seek")).to_have_count(1, timeout=8000)
    expect(watcher.locator("#seeks .seek .seek-mode")).to_have_text("rated")
    expect(watcher.locator("#seeks .seek .muted").first).to_have_text("1500?")  # provisional
    seeker.click("#cancel-seek")
    expect(seeker.locator("#play-now")).to_be_visible()
    expect(watcher.locator("#seeks .seek")).to_have_count(0, timeout=8000)
    expect(watcher.locator("#no-seeks")).to_be_visible()
    # Leaving the page takes the seek back too (static/js/seek.js), long before it would lapse.
    play_now(seeker, deck="Varis (green-white)", time_control="Untimed")
    expect(watcher.locator("#seeks .seek")).to_have_count(1, timeout=8000)
    seeker.goto(live_server_url + "/leaderboard/")
    expect(watcher.locator("#seeks .seek")).to_have_count(0, timeout=8000)
    assert not Seek.objects.exists()


def test_a_rated_game_to_its_end_moves_both_ratings_as_glicko_2_says(open_as, live_server_url):
    alice, bob = make_player("alice"), make_player("bob")
    # Alice comes with a history: 1620 ± 90; Bob is new (1500 ± 350).
    Player.objects.filter(pk=alice.pk).update(
        rating=1620.0, rating_deviation=90.0, rating_volatility=0.059
    )
    alice.refresh_from_db()
    want_alice = ratings.updated(ratings.of(alice), ratings.of(bob), 1.0)
    want_bob = ratings.updated(ratings.of(bob), ratings.of(alice), 0.0)

    a = open_as(alice, "/")
    b = open_as(bob, "/")
    play_now(a, deck="Varis (green-white)", time_control="Untimed", rated=True)
    expect(a.locator("#seek-status")).to_be_visible()
    play_now(b, deck="Crawlers (black-red)", time_control="Untimed", rated=True)
    expect(a).to_have_url(re.compile(r"/g/[^/]+/$"), timeout=8000)
    expect(b).to_have_url(a.url)
    assert Game.objects.get().rated

    # Bob concedes; both pages say who won.
    expect(b.locator("#topbar")).to_be_visible()
    b.locator("details.concede summary").click()
    b.locator("details.concede button").click()
    for page in (a, b):
        expect(page.locator("body")).to_contain_text("alice wins", timeout=8000)

    for page, player, want in ((a, alice, want_alice), (b, bob, want_bob)):
        page.goto(live_server_url + f"/players/{player.pk}/")
        shown = ratings.shown(want.rating, want.deviation)
        expect(page.locator("#rating .rating-value")).to_have_text(shown)
        expect(page.locator("#rating .rating-deviation")).to_have_text(f"{want.deviation:.0f}")
        expect(page.locator("#rating .rating-volatility")).to_have_text(f"{want.volatility:.5f}")
        expect(page.locator("#rating-chart .rating-dot")).to_have_count(2)
        expect(page.locator("tr.rating-change .rating-after")).to_have_text(f"{want.rating:.0f}")
    # The numbers themselves: alice beat a new player, bob lost to an established one.
    assert want_alice.rating > 1620 and want_bob.rating < 1500
    assert b.locator("#rating .rating-value").inner_text() == f"{round(want_bob.rating)}?"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    a.screenshot(path=str(SCREENSHOTS / "profile-rating.png"), full_page=True)
    assert audit(a) == []  # the profile with its chart
    a.goto(live_server_url + "/leaderboard/")
    expect(a.locator("#leaderboard tbody tr")).to_have_count(2)
    expect(a.locator("#leaderboard .rating")).to_have_text(
        [ratings.shown(want_alice.rating, want_alice.deviation), f"{round(want_bob.rating)}?"]
    )
    assert audit(a) == []


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_lobby_with_play_now_at_both_sizes(open_as, live_server_url, phone):
    """The Play now panel, the waiting panel and the list, at 1280×800 and 390×844: pictures
    under test-artifacts/screenshots/ for a person to look at, nothing wider than the screen,
    and the audit passes."""
    alice, bob = make_player("alice"), make_player("bob")
    page = open_as(alice, "/", phone=phone)
    expect(page.locator("#play-now")).to_be_visible()
    width = (PHONE if phone else DESKTOP)["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    play_now(page, deck="Varis (green-white)", time_control="10 min + 5 s")
    expect(page.locator("#seek-status")).to_be_visible()
    other = open_as(bob, "/", phone=phone)
    expect(other.locator("#seeks .seek")).to_have_count(1, timeout=8000)
    assert other.evaluate("document.documentElement.scrollWidth") <= width
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = "phone" if phone else "desktop"
    page.screenshot(path=str(SCREENSHOTS / f"lobby-waiting-{size}.png"), full_page=True)
    other.screenshot(path=str(SCREENSHOTS / f"lobby-seeks-{size}.png"), full_page=True)
    assert audit(page) == [] and audit(other) == []
