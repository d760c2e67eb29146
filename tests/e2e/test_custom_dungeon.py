"""An admin invents a dungeon in the browser; two players start a game that allows it, one
ventures into it and chooses at its fork on the map (issue "Dungeon cards are data")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from dungeons.models import DungeonCard

from .helpers import (
    add_effect_step,
    add_room,
    alice_and_bob,
    open_dungeon_editor,
    open_scenario_game,
    past_arrival,
    pick_exits,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOMS = [
    (
        "Stairs",
        "You gain 2 life.",
        ["Left", "Right"],
        [("gain_life", {"who": "you", "amount": "2"})],
    ),
    ("Left", "Scry 1.", [], [("scry", {"amount": "1"})]),
    ("Right", "Draw a card.", [], [("draw", {"amount": "1"})]),
]


def _admin_creates_the_dungeon(page, base: str) -> None:
    User.objects.create_superuser("keeper", "keeper@example.com", "pw")
    open_dungeon_editor(page, base, "keeper", "pw")
    page.fill("#id_name", "Goblin Cellar")
    for i, (name, text, _, steps) in enumerate(ROOMS):
        add_room(page, i, name, text)
        for j, (op, params) in enumerate(steps):
            add_effect_step(page, i, j, op, params)
    for i, (_, _, leads_to, _) in enumerate(ROOMS):  # exits: picked from the other rooms
        pick_exits(page, i, leads_to)
    page.click("input[name=_save]")
    expect(page.locator(".messagelist .success")).to_be_visible()
    card = DungeonCard.objects.get(name="Goblin Cellar")
    assert card.to_spec().rooms["Stairs"].leads_to == ("Left", "Right")


def test_an_admin_made_dungeon_is_played_and_its_fork_clicked(new_page, live_server_url):
    base = live_server_url
    _admin_creates_the_dungeon(new_page("admin"), base)

    alice, bob = alice_and_bob(new_page, base)
    alice.goto(base + "/games/new/")
    alice.check("#custom-dungeons input[value='Goblin Cellar']")
    open_scenario_game(alice, bob, "two_dungeon_maps.yaml")

    alice.click("#prompt button[data-option='activate Dungeon Map: {3}, {T} #1']")
    expect(alice.locator("#dungeon-choice .dungeon-map")).to_have_count(4)
    past_arrival(alice)
    alice.click("#dungeon-choice .dungeon-map[data-dungeon='Goblin Cellar']")
    room = "#maps .map-slot[data-player=alice] .room.current"
    expect(bob.locator(room)).to_have_attribute("data-room", "Stairs")
    expect(alice.locator(".plate[data-player=alice] .life-value")).to_have_text("22")

    alice.click("#prompt button[data-option='activate Dungeon Map: {3}, {T}']")
    fork = alice.locator("#prompt .room.choice")
    expect(fork).to_have_count(2)
    expect(bob.locator(".room.choice")).to_have_count(0)
    alice.click("#prompt .room.choice[data-room='Right']")
    # Right is a bottommost room: its ability draws a card, then the dungeon is completed.
    done = "#maps .map-slot[data-player=alice] .completed li"
    for page in (alice, bob):
        expect(page.locator(done)).to_have_text("Goblin Cellar on turn 3")
    expect(bob.locator(".plate[data-player=alice] .hand-count")).to_have_text("1")
