"""Two people, two browsers: from the lobby to the game-over screen, in Debian's Chromium."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from game.models import Game

from .helpers import past_arrival, save_readme_picture, start_from_position

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def marker_room(page):
    return page.locator("#maps .map-slot[data-player=alice] .room.current")


def test_create_and_join_a_game_by_link(new_page, live_server_url):
    base = live_server_url
    host = new_page("host")
    host.goto(base + "/")
    host.fill("#id_display_name", "Alice")
    host.click("text=Play as guest")
    host.check("input[value='Varis (green-white)']")
    host.click("#create-game button[type=submit]")
    expect(host.locator("h1")).to_have_text("Waiting for an opponent")
    link = host.input_value("#invite-link")
    assert link.startswith(base + "/g/")

    guest = new_page("guest")
    guest.goto(link)
    expect(guest.locator("h1")).to_contain_text("Alice invites you")
    guest.fill("#id_display_name", "Bob")
    guest.click("text=Play as guest")
    guest.check("input[value='Crawlers (black-red)']")
    guest.click("#join-game button[type=submit]")

    for page in (host, guest):
        expect(page.locator("#topbar")).to_be_visible()
        expect(page.locator("#topbar .seat-presence.online")).to_have_count(2)
        # The game opens with the coin flip's winner choosing to play or draw (CR 103.1): one
        # player decides, the other is told who.
        expect(page.locator("#prompt .prompt")).to_be_visible()
    kinds = {page.locator("#prompt .prompt").get_attribute("data-kind") for page in (host, guest)}
    assert kinds == {"play_or_draw"}
    winner = host if host.locator("#prompt .prompt.mine").count() else guest
    winner.click("#prompt button[data-option='play']")
    # Then the mulligans, the winner (playing first) deciding first.
    for page in (host, guest):
        expect(page.locator("#prompt .prompt")).to_have_attribute("data-kind", "mulligan")
    deciding = host if host.locator("#prompt .prompt.mine").count() else guest
    assert deciding is winner
    expect(deciding.locator("#hand .card")).to_have_count(7)
    assert Game.objects.get().status == Game.ACTIVE


def test_varis_ventures_and_the_marker_appears_on_the_other_page_within_a_second(
    new_page, live_server_url
):
    alice, bob = start_from_position(new_page, live_server_url, "varis_fork.yaml")
    # Varis is on the battlefield; casting a creature triggers the venture.
    alice.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(alice.locator("#dungeon-choice .dungeon-map")).to_have_count(3)
    expect(bob.locator("#prompt .waiting-text")).to_have_text("alice is choosing a dungeon…")

    past_arrival(alice)
    alice.click("#dungeon-choice .dungeon-map[data-dungeon='Lost Mine of Phandelver']")
    clicked = time.monotonic()
    expect(marker_room(bob)).to_have_attribute("data-room", "Cave Entrance", timeout=1000)
    assert time.monotonic() - clicked < 1.0
    expect(bob.locator("#maps .map-slot[data-player=alice] .venture-marker")).to_have_count(1)
    expect(marker_room(alice)).to_have_attribute("data-room", "Cave Entrance")


def test_a_fork_is_chosen_by_clicking_a_room_on_the_map(new_page, live_server_url):
    alice, bob = start_from_position(new_page, live_server_url, "varis_fork.yaml")
    alice.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(alice.locator("#dungeon-choice .dungeon-map")).to_have_count(3)
    past_arrival(alice)
    alice.click("#dungeon-choice .dungeon-map[data-dungeon='Lost Mine of Phandelver']")
    # Cave Entrance's ability resolves (read on the stack as "Room (Dungeon) — text"): scry 1,
    # keep the card on top.
    expect(alice.locator("#prompt .prompt")).to_have_attribute("data-kind", "scry")
    expect(bob.locator("#stack .stack-item.room-ability .stack-label")).to_have_text(
        "Cave Entrance (Lost Mine of Phandelver) — Scry 1."
    )
    alice.click("#confirm")
    # The Dungeon Map ventures again: Cave Entrance forks.
    alice.click("#prompt button[data-option='activate Dungeon Map: {3}, {T}']")
    fork = alice.locator("#prompt .room.choice")
    expect(fork).to_have_count(2)
    expect(bob.locator("#prompt .waiting-text")).to_have_text("alice is choosing a room…")
    expect(bob.locator("#maps .map-slot[data-player=alice] .room.reachable")).to_have_count(2)
    expect(bob.locator(".room.choice")).to_have_count(0)

    past_arrival(alice)  # the rooms as they stay, not dimmed for the decision's first moment
    alice.evaluate("window.scrollTo(0, 0)")
    save_readme_picture(alice, "game-in-progress.png", full_page=True)
    alice.click("#prompt .room.choice[data-room='Mine Tunnels']")
    expect(marker_room(bob)).to_have_attribute("data-room", "Mine Tunnels", timeout=1000)
    expect(marker_room(alice)).to_have_attribute("data-room", "Mine Tunnels")
    # Both passed (nothing else to do): the room's Treasure is on alice's battlefield.
    expect(bob.locator("#opponent .perm[data-name='Treasure']")).to_have_count(1)


def test_a_reload_mid_decision_shows_the_same_state_and_prompt(new_page, live_server_url):
    alice, bob = start_from_position(new_page, live_server_url, "varis_fork.yaml")
    alice.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(alice.locator("#dungeon-choice .dungeon-map")).to_have_count(3)
    version = alice.locator("#topbar").get_attribute("data-version")
    log_before = alice.locator("#log li").all_inner_texts()

    alice.reload()
    expect(alice.locator("#prompt .prompt")).to_have_attribute("data-kind", "choose_dungeon")
    expect(alice.locator("#dungeon-choice .map-button")).to_have_count(3)
    expect(alice.locator("#topbar")).to_have_attribute("data-version", version)
    assert alice.locator("#log li").all_inner_texts() == log_before
    expect(alice.locator("#stack .stack-item")).to_have_count(2)
    # The reloaded page is live: its choice reaches the other page.
    alice.click("#dungeon-choice .dungeon-map[data-dungeon='Tomb of Annihilation']")
    expect(marker_room(bob)).to_have_attribute("data-room", "Trapped Entry")


def test_finishing_a_game_shows_the_game_over_screen_on_both_pages(new_page, live_server_url):
    alice, bob = start_from_position(new_page, live_server_url, "lethal_attack.yaml")
    expect(alice.locator("#prompt .prompt")).to_have_attribute("data-kind", "declare_attackers")
    alice.click("#me .perm[data-name='Varis, Silverymoon Ranger'] label.pick")
    alice.click("#confirm")
    for page, you in ((alice, "You won."), (bob, "You lost.")):
        expect(page.locator("#over.shown .over-headline")).to_have_text("alice wins")
        expect(page.locator("#over .over-reason")).to_have_text("life total 0 or less")
        expect(page.locator("#over .over-you")).to_have_text(you)
    # A rematch is an offer: bob offers, alice sees it and accepts, both end up in the new game.
    bob.click("#rematch")
    expect(bob.locator("#rematch-offer")).to_have_text("You offered a rematch: waiting for alice.")
    expect(alice.locator("#rematch-offer")).to_have_text("bob offers a rematch.")
    alice.click("#rematch")
    expect(alice.locator("#topbar")).to_be_visible()
    # Bob, who offered, is taken to the new game as it starts.
    expect(bob).to_have_url(alice.url)
    expect(bob.locator("#topbar")).to_be_visible()
    # Opened again later, the finished game stays put and links to its rematch.
    bob.go_back()
    expect(bob.locator("#rematch-link")).to_be_visible()
    bob.wait_for_timeout(1500)  # the socket's first frames have come: still here
    assert bob.url != alice.url


def test_the_concede_confirmation_stays_open_while_the_other_player_moves(
    new_page, live_server_url
):
    """Each move redraws the table's controls; the confirmation a player opened stays open
    rather than closing between their two clicks."""
    alice, bob = start_from_position(new_page, live_server_url, "varis_fork.yaml")
    bob.locator("details.concede summary").click()
    expect(bob.locator("details.concede button")).to_be_visible()
    bob.locator("details.concede").evaluate("d => { d.dataset.before = 'yes'; }")
    alice.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(bob.locator("#prompt .waiting-text")).to_have_text("alice is choosing a dungeon…")
    # A new element (the move redrew it), open as the one it replaced.
    expect(bob.locator("details.concede[data-before]")).to_have_count(0)
    expect(bob.locator("details.concede button")).to_be_visible()
    assert bob.locator("details.concede").evaluate("d => d.open")
