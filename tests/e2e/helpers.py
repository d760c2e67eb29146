"""What the browser tests share: the viewports, a browser signed in as a player, games made on
the server's side for the browsers to open (one at its mulligan) or started by two browsers
from a scenario file, where an element is on the screen, the steps of filling in the dungeon
editor, and the README's pictures."""

from __future__ import annotations

import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import expect

from game import services
from game.decks import GREEN_WHITE_VARIS
from game.models import Game, Player
from tests.web.helpers import (
    POSITIONS,
    answer,
    make_player,
    pending,
    seat_name,
    start_game,
    start_position,
)

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
README_IMAGES = ROOT / "static" / "img"

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def sign_in_as(page, base: str, player: Player) -> None:
    """Give the page's browser context a logged-in session for `player` (no login form: the
    session is written where Django looks for it)."""
    session = SessionStore()
    session[SESSION_KEY] = str(player.user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = player.user.get_session_auth_hash()
    session.create()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": base}]
    )


def sign_in(page, base: str, name: str) -> Player:
    """Give the page's browser context a logged-in session for a new player `name`."""
    player = make_player(name)
    sign_in_as(page, base, player)
    return player


def off_the_loop(fn, *args, **kwargs):
    """Call a service from another thread: Playwright runs an event loop in this one, and a
    service that broadcasts (async_to_sync) refuses to run beside it."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


def game_at(position: str) -> tuple[Player, Player, Game]:
    """Alice and Bob, and their game started at `position` (a file of tests/web/positions/)."""
    alice, bob = make_player("alice"), make_player("bob")
    return alice, bob, off_the_loop(start_position, alice, bob, position)


def waiting_game(host: Player) -> Game:
    """A game `host` made with Varis's deck, waiting for an opponent."""
    return off_the_loop(services.create_game, host, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))


def open_scenario_game(alice, bob, position: str) -> None:
    """Alice, on a page with the new-game form, uploads the scenario `position` (a file of
    tests/web/positions/) and creates the game; Bob opens her invite link and joins."""
    alice.set_input_files("#id_scenario", str(POSITIONS / position))
    alice.click("#create-game button[type=submit]")
    expect(alice.locator("h1")).to_have_text("Waiting for an opponent")
    bob.goto(alice.input_value("#invite-link"))
    bob.click("#join-game button[type=submit]")
    expect(bob.locator("#topbar")).to_be_visible()
    expect(alice.locator("#topbar")).to_be_visible()  # her page started by itself


def alice_and_bob(new_page, base: str):
    """Alice's page and Bob's, each in a browser signed in as that new player."""
    alice, bob = new_page("alice"), new_page("bob")
    sign_in(alice, base, "alice")
    sign_in(bob, base, "bob")
    return alice, bob


def start_from_position(new_page, base: str, position: str):
    """Alice uploads a scenario file in the lobby; Bob opens her invite link and joins."""
    alice, bob = alice_and_bob(new_page, base)
    alice.goto(base + "/")
    open_scenario_game(alice, bob, position)
    return alice, bob


def open_dungeon_editor(page, base: str, username: str, password: str) -> None:
    """Log in to the admin as `username`, straight into a new dungeon card."""
    page.goto(base + "/admin/login/?next=/admin/dungeons/dungeoncard/add/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    expect(page.locator("#id_name")).to_be_visible()


def add_room(page, i: int, name: str, text: str) -> None:
    """Add the dungeon's room number `i` (from 0) in the editor."""
    page.click(".djn-add-item a.djn-add-handler.djn-model-dungeons-room")
    page.fill(f"#id_rooms-{i}-name", name)
    page.fill(f"#id_rooms-{i}-text", text)


def add_effect_step(page, room: int, step: int, op: str, params: dict[str, str]) -> None:
    """Add effect step number `step` to room number `room`: the operation `op`, then its
    parameters, typed or picked."""
    page.locator(
        f"#rooms-{room} .djn-add-item a.djn-add-handler.djn-model-dungeons-effectstep"
    ).click()
    prefix = f"#id_rooms-{room}-steps-{step}-"
    page.select_option(prefix + "op", op)
    for key, value in params.items():
        field = page.locator(prefix + key)
        expect(field).to_be_visible()  # swapped in for this operation
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def pick_exits(page, i: int, exits: list[str]) -> None:
    """Tick room number `i`'s exits, picked from the other rooms by name."""
    for target in exits:
        box = page.locator(f"#exits-rooms-{i} input[value='{target}']")
        expect(box).to_be_visible()
        box.check()


def save_readme_picture(page, name: str, *, full_page: bool = False) -> None:
    """Save one of the README's pictures as test-artifacts/screenshots/`name`; with
    VENTURE_UPDATE_SCREENSHOT=1 also as static/img/`name`, the file the README shows."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)
    if os.environ.get("VENTURE_UPDATE_SCREENSHOT"):
        README_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SCREENSHOTS / name, README_IMAGES / name)


def table(new_page, live_server_url, position: str, viewport: dict[str, int] = DESKTOP):
    """Alice's and Bob's pages of a game started from `position`, both at `viewport`."""
    alice, bob = start_from_position(new_page, live_server_url, position)
    for page in (alice, bob):
        page.set_viewport_size(viewport)
        # The game's first state may come over the socket just after the page loaded, as a new
        # decision: its first moment would drop a test's first key (past_arrival).
        past_arrival(page)
    return alice, bob


class Inputs:
    """Every click or key press a player makes goes through here, so the test counts them."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def click(self, selector: str) -> None:
        self.count += 1
        self.page.locator(selector).first.click()

    __call__ = click

    def tap(self, selector: str) -> None:
        """A finger's tap (a page opened with touch)."""
        self.count += 1
        self.page.locator(selector).first.tap()

    def press(self, key: str) -> None:
        self.count += 1
        self.page.keyboard.press(key)


def box(page, selector: str) -> dict:
    """Where the first element matching `selector` is in the viewport now (read in one go: a
    fragment swapped in meanwhile cannot leave a detached element's empty box)."""
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
                  return {x: r.x, y: r.y, width: r.width, height: r.height}; }""",
        selector,
    )


def in_the_viewport(rect: dict, viewport: dict) -> bool:
    """Whether the box `rect` lies whole within the screen `viewport`."""
    return (
        rect["y"] >= 0
        and rect["y"] + rect["height"] <= viewport["height"] + 0.5
        and rect["x"] >= 0
        and rect["x"] + rect["width"] <= viewport["width"] + 0.5
    )


def a_game_at_the_mulligan():
    """A new game past the play-or-draw choice: the player asked "Keep this hand of 7?", and
    the game."""
    ann, ben = make_player("ann"), make_player("ben")
    game = start_game(ann, ben, seed=3)
    first = ann if seat_name(game, ann) == pending(game).player else ben
    answer(game, first, "play")
    return first, game


def past_arrival(page) -> None:
    """Wait out a new decision's first moment, while its buttons ignore clicks and keys
    (venture.js, ARRIVAL_GUARD_MS): a key pressed, or a click on something other than the button
    itself (a dungeon's map), would be dropped then. Call it once the new prompt is there."""
    expect(page.locator("#prompt .prompt.mine.arriving")).to_have_count(0)
    expect(page.locator("[data-arriving]")).to_have_count(0)
