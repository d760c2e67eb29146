"""A real Daphne process that dies and comes back, and a player who leaves, in Chromium.

The server here is a subprocess of its own (bench/_servers.py) on a SQLite file, so it can be
killed with SIGKILL and started again on the same port, as a crashed machine would be. Short
absence settings come from its environment.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest
from playwright.sync_api import expect

from bench import _servers

from .conftest import ARTIFACTS, WINDOW, launched_chromium, photographed_pages
from .helpers import open_scenario_game

pytestmark = [pytest.mark.e2e]

RECONNECT = 20_000  # ms: the page retries with a capped backoff (static/js/venture.js)


@pytest.fixture(scope="module")
def server_env(tmp_path_factory) -> dict[str, str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('reliability') / 'venture.sqlite3'}"
    env = _servers.server_env(
        url,
        # Static files straight from the app folders (no collectstatic on a fresh clone).
        DJANGO_DEBUG="true",
        VENTURE_ABSENCE_GRACE_SECONDS="1",
        VENTURE_ABANDON_SECONDS="4",
    )
    _servers.manage(env, "migrate", "--noinput")
    return env


@pytest.fixture
def server(server_env, request) -> Iterator[_servers.Daphne]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = ARTIFACTS / f"{request.node.name}-daphne.log"
    log.unlink(missing_ok=True)
    proc = _servers.Daphne(server_env, log).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def chromium():
    with launched_chromium() as browser:
        yield browser


@pytest.fixture
def pages(chromium, request) -> Iterator:
    """pages(name): a page of another person's browser."""
    with photographed_pages(request, chromium, 8000) as open_page:
        yield partial(open_page, viewport=WINDOW)


def guest(page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#id_display_name", name)
    page.click("text=Play as guest")
    expect(page.locator(".site-header nav")).to_contain_text(name)


def start(pages, base: str, position: str = "varis_fork.yaml"):
    alice, bob = pages("alice"), pages("bob")
    guest(alice, base, "alice")
    guest(bob, base, "bob")
    open_scenario_game(alice, bob, position)
    for page in (alice, bob):
        expect(page.locator("#topbar .seat-presence.online")).to_have_count(2)
    return alice, bob


def test_a_killed_server_comes_back_and_both_pages_reconnect_to_the_same_prompt(server, pages):
    alice, bob = start(pages, server.base)
    alice.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(alice.locator("#dungeon-choice .map-button")).to_have_count(3)
    expect(bob.locator("#prompt .waiting-text")).to_have_text("alice is choosing a dungeon…")
    version = alice.locator("#topbar").get_attribute("data-version")
    assert bob.locator("#topbar").get_attribute("data-version") == version
    log_before = alice.locator("#log li").all_inner_texts()
    for page in (alice, bob):
        page.evaluate("window.notReloaded = true")

    server.kill()  # SIGKILL in the middle of alice's decision: nothing closes politely
    for page in (alice, bob):
        expect(page.locator("#connection")).to_be_visible()
    server.start()  # the same port, the same database, an empty engine cache

    for page in (alice, bob):
        expect(page.locator("#connection")).to_be_hidden(timeout=RECONNECT)
        expect(page.locator("#topbar")).to_have_attribute("data-version", version)
        assert page.evaluate("window.notReloaded") is True  # reconnected, not reloaded
    expect(alice.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "choose_dungeon")
    expect(alice.locator("#dungeon-choice .map-button")).to_have_count(3)
    expect(bob.locator("#prompt .waiting-text")).to_have_text("alice is choosing a dungeon…")
    assert alice.locator("#log li").all_inner_texts() == log_before
    # The reconnected pages are live: alice's choice reaches bob.
    alice.click("#dungeon-choice .dungeon-map[data-dungeon='Lost Mine of Phandelver']")
    expect(bob.locator("#maps .map-slot[data-player=alice] .room.current")).to_have_attribute(
        "data-room", "Cave Entrance"
    )
    assert "Traceback" not in server.log_text()


def test_a_player_who_leaves_gives_the_other_a_countdown_then_the_win(server, pages):
    alice, bob = start(pages, server.base)
    bob.context.close()  # bob closes his browser
    countdown = alice.locator("#prompt .absence .countdown")
    expect(countdown).to_be_visible()
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first)  # it ticks
    expect(alice.locator("#prompt .absence")).to_contain_text("bob is disconnected")
    alice.click("#claim-win", timeout=10_000)
    expect(alice.locator("#over.shown .over-headline")).to_have_text("alice wins")
    expect(alice.locator("#over .over-reason")).to_have_text(
        "bob left the game; alice claimed the win"
    )
