"""The initiative in two browsers: Alice takes it, Bob steals it in combat; both pages show the
badge move and Undercity's map (issue "The initiative, Undercity, and the full card pool")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import start_from_position

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def badge(page, player: str):
    return page.locator(f".plate[data-player={player}] .badge.initiative")


def expect_the_initiative_taken(pages, holder: str, other: str) -> None:
    """Every page shows `holder` with the initiative badge (and `other` without it), in
    Undercity's first room."""
    for page in pages:
        expect(badge(page, holder)).to_have_count(1)
        expect(badge(page, other)).to_have_count(0)
        slot = page.locator(f"#maps .map-slot[data-player={holder}]")
        expect(slot.locator(".dungeon-map")).to_have_attribute("data-dungeon", "Undercity")
        expect(slot.locator(".room.current")).to_have_attribute("data-room", "Secret Entrance")


def test_the_initiative_moves_in_combat_and_both_pages_show_it(new_page, live_server_url):
    alice, bob = start_from_position(new_page, live_server_url, "initiative_steal.yaml")
    alice.click("#hand .card[data-name='Aarakocra Sneak'] button")
    # The Sneak resolves, Alice takes the initiative and ventures into Undercity: Secret
    # Entrance asks her to search her library.
    expect(alice.locator("#prompt .prompt")).to_have_attribute("data-kind", "search")
    expect_the_initiative_taken((alice, bob), "alice", "bob")
    alice.click("#prompt button[data-option='find nothing']")

    # Bob's turn: he holds the Purple Worm he drew and has a land still to play, so he is asked
    # in his main phase (whatever his hand holds: the stop shows alice nothing); he passes and
    # attacks with the Outrider; Alice doesn't block.
    expect(bob.locator("#prompt .prompt")).to_have_attribute("data-kind", "priority", timeout=10000)
    expect(bob.locator("#prompt")).to_contain_text("precombat main, turn 4")
    bob.click("#prompt button[data-option='pass']")
    expect(bob.locator("#prompt .prompt")).to_have_attribute(
        "data-kind", "declare_attackers", timeout=10000
    )
    bob.click("#me .perm[data-name='Grizzled Outrider'] label.pick")
    bob.click("#confirm")
    expect(alice.locator("#prompt .prompt")).to_have_attribute("data-kind", "declare_blockers")
    alice.click("#confirm")

    # Combat damage to the holder: Bob takes the initiative and ventures into Undercity.
    expect(bob.locator("#prompt .prompt")).to_have_attribute("data-kind", "search")
    expect_the_initiative_taken((alice, bob), "bob", "alice")
    for page in (alice, bob):
        expect(page.locator(".plate[data-player=alice] .life-value")).to_have_text("15")
