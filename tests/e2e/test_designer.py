"""A dungeon designer (staff in the "Dungeon designers" group, not a superuser) builds a
five-room dungeon with a fork in the editor at 1280x800, watches the map preview follow the
unsaved form, sees every problem of an invalid version at once, saves, presses "Try it",
ventures into the dungeon and takes the fork on the map (issue "A dungeon designer a game
designer can use"), then goes back to the editor by the site's header, where an official map three
rooms wide fits the preview."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from dungeons.models import DungeonCard
from tests.web.helpers import designers_group

from .helpers import DESKTOP, add_effect_step, add_room, open_dungeon_editor, pick_exits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# name, text, exits, (operation, {parameter: value}) -- three different operations and more
ROOMS = [
    ("Gate", "You gain 1 life.", ["Left Tunnel", "Right Tunnel"], ("gain_life", {"amount": "1"})),
    (
        "Left Tunnel",
        "Each opponent loses 2 life.",
        ["Hall"],
        ("lose_life", {"amount": "2", "who": "each_opponent"}),
    ),
    ("Right Tunnel", "Create a Treasure token.", ["Hall"], ("create_token", {"token": "Treasure"})),
    ("Hall", "Draw a card.", ["Vault"], ("draw", {"amount": "1"})),
    ("Vault", "Scry 2.", [], ("scry", {"amount": "2"})),
]
PREVIEW = "#dungeon-preview-body"


def no_sideways_scroll(page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width[0]} px in {width[1]} px"


def log_in_as_designer(page, base: str) -> None:
    user = User.objects.create_user("dana", password="pw", is_staff=True)
    user.groups.add(designers_group())
    open_dungeon_editor(page, base, "dana", "pw")


def test_a_designer_builds_a_dungeon_tries_it_and_takes_the_fork(new_page, live_server_url):
    base = live_server_url
    page = new_page("designer")
    page.set_viewport_size(DESKTOP)
    log_in_as_designer(page, base)
    page.fill("#id_name", "Goblin Warren")

    for i, (name, text, _, (op, params)) in enumerate(ROOMS):
        add_room(page, i, name, text)
        add_effect_step(page, i, 0, op, params)
        # the preview draws the unsaved rooms as they are added
        drawn = f"{PREVIEW} :is(.room, .unconnected-room)[data-room='{name}']"
        expect(page.locator(drawn)).to_be_visible()
        no_sideways_scroll(page)
    # a step's fields are its operation's only (required first), and it reads in words
    expect(page.locator("#rooms-0-steps-0 [data-param]")).to_have_count(2)
    expect(page.locator("#rooms-0-steps-0 [data-param]").first).to_have_attribute(
        "data-param", "amount"
    )
    expect(page.locator("#rooms-4-steps-0 [data-param]")).to_have_count(1)
    expect(page.locator("#rooms-1-steps-0 .step-words")).to_have_text("Each opponent loses 2 life.")
    # exits are picked from the other rooms; the map's arrows follow before anything is saved
    expect(page.locator(f"{PREVIEW} svg .arrow")).to_have_count(0)
    for i, (_, _, exits, _) in enumerate(ROOMS):
        pick_exits(page, i, exits)
    expect(page.locator(f"{PREVIEW} svg .arrow")).to_have_count(5)
    for name, *_ in ROOMS:
        expect(page.locator(f"{PREVIEW} .room[data-room='{name}']")).to_be_visible()
    expect(page.locator(f"{PREVIEW} #dungeon-ok")).to_be_visible()
    assert not DungeonCard.objects.filter(name="Goblin Warren").exists()

    # an invalid version: every problem at once, each attached to its room and field
    pick_exits(page, 4, ["Gate"])  # Vault leads back to the top: a cycle, no bottommost room
    page.fill("#id_rooms-0-steps-0-amount", "")  # gain life needs an amount
    problems = page.locator(f"{PREVIEW} .dungeon-problems li.problem")
    expect(problems.filter(has_text="Rooms form a cycle")).to_have_count(1)
    expect(problems.filter(has_text="must have no arrow into it")).to_have_count(1)
    expect(problems.filter(has_text="no bottommost room")).to_have_count(1)
    expect(
        page.locator(f"{PREVIEW} li.problem[data-room='Gate'][data-field='amount']")
    ).to_have_count(1)
    texts = problems.all_inner_texts()
    assert len(texts) == len(set(texts)) >= 4, texts
    no_sideways_scroll(page)
    page.locator("#exits-rooms-4 input[value='Gate']").uncheck()
    page.fill("#id_rooms-0-steps-0-amount", "1")
    expect(page.locator(f"{PREVIEW} #dungeon-ok")).to_be_visible()

    page.click("input[name=_continue]")
    expect(page.locator(".messagelist .success")).to_be_visible()
    card = DungeonCard.objects.get(name="Goblin Warren")
    assert card.to_spec().rooms["Gate"].leads_to == ("Left Tunnel", "Right Tunnel")
    assert [r.name for r in card.rooms.order_by("position")] == [r[0] for r in ROOMS]
    no_sideways_scroll(page)

    # Try it: a practice game, about to venture into the Goblin Warren
    page.click("#try-it")
    expect(page.locator("#prompt")).to_be_visible()
    page.click("#prompt button[data-option='activate Dungeon Map: {3}, {T} #1']")
    mine = "#maps .map-slot[data-player=dana]"
    expect(page.locator(f"{mine} .room.current")).to_have_attribute("data-room", "Gate")
    page.click("#prompt button[data-option='activate Dungeon Map: {3}, {T} #2']")
    fork = page.locator("#prompt .room.choice")
    expect(fork).to_have_count(2)
    page.click("#prompt .room.choice[data-room='Right Tunnel']")
    expect(page.locator(f"{mine} .room.current")).to_have_attribute("data-room", "Right Tunnel")
    expect(page.locator("#log")).to_contain_text("Right Tunnel")
    no_sideways_scroll(page)
    # the site's header leads a designer back to the editor
    page.click("#dungeon-editor-link")
    expect(page.locator("#result_list")).to_contain_text("Goblin Warren")

    # a map three rooms wide fits the preview's panel too, nothing cut off on the right
    undercity = DungeonCard.objects.get(name="Undercity")
    page.goto(f"{base}/admin/dungeons/dungeoncard/{undercity.pk}/change/")
    preview = page.locator(f"{PREVIEW} .dungeon-preview")
    expect(preview.locator(".room[data-room='Arena']")).to_be_visible()
    assert preview.evaluate("e => e.scrollWidth <= e.clientWidth")
