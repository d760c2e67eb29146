"""A finished game's replay in Debian's Chromium: stepping with the buttons and the keyboard,
jumping to a turn, scrubbing, playing (the address follows every point shown), following a
shared link to the same point and starting a new game from a point; on a desktop window and on
a phone-sized touch screen. The desktop run also takes the README's picture of a replay with
its life chart."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game import services
from game.models import Game
from tests.web.helpers import make_player
from tests.web.replay_helpers import played_game

from . import helpers
from .conftest import photographed_pages
from .helpers import off_the_loop, save_readme_picture, sign_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": helpers.DESKTOP}
PHONE = {"viewport": helpers.PHONE, "has_touch": True, "is_mobile": True}


@pytest.fixture
def open_page(request, browser):
    """open_page(name, **context options): a page of another person's browser; every page
    opened is photographed if the test fails."""
    with photographed_pages(request, browser, 8000) as open_page:
        yield open_page


def at(page) -> int:
    return int(page.locator("#replay-point").get_attribute("data-at"))


def expect_at(page, n: int) -> None:
    expect(page.locator("#replay-point")).to_have_attribute("data-at", str(n))
    assert page.url.endswith(f"?at={n}")


def finished_game():
    """Made in a thread of its own: starting a game tells its channel group (async_to_sync),
    which cannot run in this thread, where Playwright's event loop runs."""

    def make():
        alice, bob = make_player("alice"), make_player("bob")
        game, engine = played_game(alice, bob, seed=41, answers=600)
        return game, engine, alice

    game, engine, alice = off_the_loop(make)
    assert game.status == Game.FINISHED
    return game, engine, alice


def press_or_tap(page, selector: str, touch: bool) -> None:
    if touch:
        page.locator(selector).tap()
    else:
        page.locator(selector).click()


def walk_through(open_page, base: str, shape: dict, touch: bool):
    game, engine, alice = finished_game()
    last = len(engine.answers)
    tl = services.timeline(game, None)
    page = open_page("replay", **shape)
    page.goto(f"{base}/g/{game.code}/replay/")
    expect(page.locator("#replay-point")).to_have_attribute("data-at", str(last))
    expect(page.locator("#replay-play")).to_be_visible()  # the script is running
    assert page.url.endswith(f"?at={last}")  # the address names the point shown, the last
    expect(page.locator("#life-chart")).to_be_visible()
    assert page.locator(".replay-hand").count() == 2  # the game is over: both hands

    # The buttons: to the start, then forward two answers (no page load: the URL follows).
    press_or_tap(page, "#replay-first", touch)
    expect_at(page, 0)
    press_or_tap(page, "#replay-next", touch)
    expect_at(page, 1)
    press_or_tap(page, "#replay-next", touch)
    expect_at(page, 2)
    press_or_tap(page, "#replay-prev", touch)
    expect_at(page, 1)
    press_or_tap(page, "#replay-next-event", touch)
    event = tl.next_event(1)
    expect_at(page, event)
    expect(page.locator(".replay-log li.now").first).to_be_visible()

    # Jump to the start of turn 6 from the list of turns: in view on a desktop (one click),
    # folded under "Turns" on a phone.
    if touch:
        press_or_tap(page, ".replay-turns summary", touch)
    else:
        expect(page.locator(".replay-turns a").first).to_be_visible()
    turn6 = next(k for t, k, _ in tl.turn_starts() if t == 6)
    press_or_tap(page, '.replay-turns a[data-turn="6"]', touch)
    expect_at(page, turn6)
    expect(page.locator(".replay-where .turn-number")).to_have_text("Turn 6")
    # …and to a step of that turn.
    step = next(k for t, s, k in tl.step_starts() if t == 6 and s == "precombat_main")
    press_or_tap(page, ".replay-steps a:text-is('Main 1')", touch)
    expect_at(page, step)

    # The scrub bar.
    page.locator("#replay-scrub").fill("300")
    expect_at(page, 300)

    # Play, then pause: it moves on by itself.
    press_or_tap(page, "#replay-play", touch)
    expect(page.locator("#replay-play")).to_have_text("Pause")
    page.wait_for_function("() => Number(document.getElementById('replay-point').dataset.at) > 300")
    press_or_tap(page, "#replay-play", touch)
    expect(page.locator("#replay-play")).to_have_text("Play")
    page.wait_for_timeout(300)  # a step under way when paused lands
    assert page.url.endswith(f"?at={at(page)}")  # playing moved the address along

    # Back in the browser's history goes to the point before.
    stopped = at(page)
    press_or_tap(page, "#replay-next", touch)
    expect_at(page, stopped + 1)
    page.go_back()
    expect(page.locator("#replay-point")).to_have_attribute("data-at", str(stopped))

    # A shared link opens the same point for someone else.
    shared = page.locator("#replay-share").get_attribute("href")
    event_text = page.locator("#replay-event").inner_text()
    other = open_page("shared-link", **shape)
    other.goto(base + shared)
    expect_at(other, stopped)
    expect(other.locator("#replay-event")).to_have_text(event_text)
    expect(other.locator(".replay-where .turn-number")).to_have_text(
        page.locator(".replay-where .turn-number").inner_text()
    )
    return game, engine, alice, tl, page


def play_on_from_a_point(open_page, base: str, shape: dict, game, alice, tl, touch, against: str):
    """Alice opens a point where the game waits for a decision and starts a new game from it:
    against a friend on her own side (the page waits for them), or against the computer on the
    other side (the game starts at once)."""
    page = open_page(f"play-on-{against}", **shape)
    sign_in_as(page, base, alice)
    point = tl.nearest_writable(400)
    page.goto(f"{base}/g/{game.code}/replay/?at={point}")
    expect(page.locator("#play-on-file")).to_have_attribute("href", re.compile(rf"at={point}$"))
    names = services.engine_setup(game).players
    mine = names.index(game.seats.get(player=alice).engine_name)
    # Her own side is offered first.
    expect(page.locator(f"input[name=side][value='{mine}']")).to_be_checked()
    side = mine if against == "friend" else 1 - mine
    press_or_tap(page, f"input[name=side][value='{side}']", touch)
    page.locator("#play-on-opponent").select_option(against)
    press_or_tap(page, "#play-on-new", touch)
    page.wait_for_url(lambda url: "/replay/" not in url)
    new = Game.objects.exclude(pk=game.pk).order_by("-created").first()
    assert new is not None and new.is_scenario
    assert page.url.endswith(new.get_absolute_url())
    f = tl.frames[point]
    assert f"turn {f.turn}" in new.scenario_name
    if against == "friend":
        expect(page.locator("h1")).to_have_text("Waiting for an opponent")
        expect(page.locator(".invite")).to_contain_text(f"you play {names[side]}’s side")
    else:
        expect(page.locator("#board")).to_have_attribute("data-version", re.compile(r"\d"))
        expect(page.locator("h1", has_text="Waiting for an opponent")).to_have_count(0)
        seats = {s.position: s.player for s in new.seats.select_related("player")}
        assert seats[side] == alice and seats[1 - side].computer_level == against


def test_a_finished_games_replay_on_a_desktop(open_page, live_server_url):
    game, engine, alice, tl, page = walk_through(open_page, live_server_url, DESKTOP, False)
    # The bar of controls stays at the top as the table scrolls under it: it hides what passes
    # beneath (an opaque background).
    bar = page.locator(".replay-bar")
    assert bar.evaluate("e => getComputedStyle(e).position") == "sticky"
    background = bar.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background.startswith("rgb("), background  # not rgba(…): see-through
    # The keyboard: ← → one answer, Home and End.
    page.locator("body").click(position={"x": 5, "y": 5})
    here = at(page)
    page.keyboard.press("ArrowRight")
    expect_at(page, here + 1)
    page.keyboard.press("ArrowLeft")
    expect_at(page, here)
    page.keyboard.press("Shift+ArrowRight")
    expect_at(page, tl.next_event(here))
    page.keyboard.press("Home")
    expect_at(page, 0)
    page.keyboard.press("End")
    expect_at(page, len(engine.answers))
    # The README's picture: a replay in the middle of the game, the life chart below.
    middle = next(k for k, f in enumerate(tl.frames) if f.turn >= 20 and any(f.dungeons))
    page.goto(f"{live_server_url}/g/{game.code}/replay/?at={middle + 3}")
    expect(page.locator("#life-chart")).to_be_visible()
    save_readme_picture(page, "replay.png", full_page=True)
    # A graveyard opened to be read stays open while the replay steps on.
    pile = page.locator("details.pile").first
    key = pile.get_attribute("data-keep-open")
    pile.locator("summary").click()
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    expect_at(page, middle + 4)
    expect(page.locator(f"details.pile[data-keep-open='{key}']")).to_have_js_property("open", True)
    play_on_from_a_point(open_page, live_server_url, DESKTOP, game, alice, tl, False, "friend")


def test_a_finished_games_replay_on_a_phone_with_touch(open_page, live_server_url):
    game, _, alice, tl, page = walk_through(open_page, live_server_url, PHONE, True)
    # Nothing is wider than the screen but the table's own scrolling parts.
    width = page.evaluate("document.querySelector('.replay-bar').scrollWidth")
    assert width <= 390
    # The controls leave most of the first screen to the game: under a third of its height.
    assert page.locator(".replay-bar").bounding_box()["height"] <= helpers.PHONE["height"] / 3
    play_on_from_a_point(open_page, live_server_url, PHONE, game, alice, tl, True, "easy")
