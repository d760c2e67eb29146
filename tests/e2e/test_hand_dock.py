"""The hand docked at the bottom of a laptop's screen (1280x800) and your own creatures, in
Debian's Chromium: a mid-game table (four or six creatures and six lands a side, seven cards in
hand) is taller than the screen, and wherever the page is scrolled (as it opens, on the way
down, at the bottom, your creatures scrolled into view) none of your creatures is under the
hand: the hand slides down out of their way and docks again below them. Its top strip stays in
view (the hand is never lost below the screen), and only that strip may lie on a creature the
bottom of the screen cuts. Pointing at the hand raises it whole."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.helpers import make_player, start_from_text

from .helpers import DESKTOP, box, in_the_viewport, off_the_loop

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ALICE_CREATURES = [
    '"Varis, Silverymoon Ranger"',
    "{card: Cloister Gargoyle, tapped: true}",
    '"Nadaar, Selfless Paladin"',
    "Veteran Dungeoneer",
    "Grizzled Outrider",
    "Undermountain Adventurer",
]
BOB_CREATURES = [
    "Acererak the Archlich",
    "{card: Yuan-Ti Fang-Blade, tapped: true}",
    "Clattering Skeletons",
    "Yuan-Ti Malison",
    "Dungeon Crawler",
    "Zombie Ogre",
]


def mid_game(creatures: int) -> str:
    """A scenario file: alice's main phase, `creatures` creatures and six lands a side, seven
    cards in her hand and five in bob's."""
    alice = ALICE_CREATURES[:creatures] + [
        "Forest",
        "Forest",
        "{card: Forest, tapped: true}",
        "Plains",
        "Plains",
        "Plains",
    ]
    bob = BOB_CREATURES[:creatures] + [
        "Swamp",
        "Swamp",
        "{card: Swamp, tapped: true}",
        "Mountain",
        "Mountain",
        "Island",
    ]
    lines = "\n".join(f"      - {p}" for p in alice)
    bob_lines = "\n".join(f"      - {p}" for p in bob)
    return f"""\
name: A mid-game table
seed: 6
players: [alice, bob]
turn: {{number: 7, active: alice, step: precombat_main}}
setup:
  alice:
    life: 17
    hand: [Keen-Eared Sentry, Rally Maneuver, Emerald Dragon, Purple Worm, Gloom Stalker,
           Seasoned Dungeoneer, Radiant Solar]
    library: [Plains, Forest, Plains, Forest, Plains, Forest]
    battlefield:
{lines}
  bob:
    life: 14
    hand: [Power Word Kill, Magic Missile, Dungeon Crawler, Clattering Skeletons, Zombie Ogre]
    library: [Clattering Skeletons, Yuan-Ti Fang-Blade, Swamp, Mountain]
    battlefield:
{bob_lines}
"""


# For each of your creatures: the part of its card on the screen above the hand's top strip
# (--hand-peek, always in view), the part of that under the docked hand (0 when none), and
# whether a click at its middle lands on the card.
UNDER_THE_HAND = """() => {
  const el = document.getElementById('hand'), hand = el.getBoundingClientRect();
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const peek = parseFloat(getComputedStyle(el).getPropertyValue('--hand-peek')) * rem;
  const h = document.documentElement.clientHeight - peek;
  const w = document.documentElement.clientWidth;
  const shown = r => ({top: Math.max(r.top, 0), bottom: Math.min(r.bottom, h),
                       left: Math.max(r.left, 0), right: Math.min(r.right, w)});
  const dock = shown(hand);
  return Array.from(document.querySelectorAll('#me .row.creatures .perm')).map(card => {
    const r = shown(card.getBoundingClientRect());
    if (r.bottom <= r.top) return {name: card.dataset.name, onScreen: false};
    const over = Math.max(0, Math.min(r.bottom, dock.bottom) - Math.max(r.top, dock.top))
               * Math.max(0, Math.min(r.right, dock.right) - Math.max(r.left, dock.left));
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {name: card.dataset.name, onScreen: true, top: r.top, bottom: r.bottom,
            covered: over, clickable: card.contains(hit)};
  });
}"""

NEXT_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def scrolled(page, script: str) -> None:
    """Scroll the page by `script`, then let two frames pass: the hand's slide follows the
    scrolling at the next frame."""
    page.evaluate(script)
    page.evaluate(NEXT_FRAMES)


def assert_no_creature_under_the_hand(page, where: str) -> list[dict]:
    cards = page.evaluate(UNDER_THE_HAND)
    hand = box(page, "#hand")
    for card in cards:
        if card["onScreen"]:
            assert card["covered"] == 0, (where, card, hand)
            assert card["clickable"], (where, card, hand)
    return cards


@pytest.mark.parametrize("creatures", [4, 6], ids=["one-row", "two-rows"])
def test_the_docked_hand_never_covers_your_creatures_on_a_laptop(open_as, creatures):
    alice, bob = make_player("alice"), make_player("bob")
    game = off_the_loop(start_from_text, alice, bob, mid_game(creatures), "mid_game.yaml")
    page = open_as(alice, game.get_absolute_url())
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "priority")
    expect(page.locator("#me .row.creatures .perm")).to_have_count(creatures)
    expect(page.locator("#hand .card")).to_have_count(7)
    page.mouse.move(2, 2)  # the pointer away from the hand, which it would raise
    page.wait_for_timeout(300)  # the page's own scrolling, after the new prompt
    bottom = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    assert bottom > 0  # the table is taller than the screen

    # As it opens: your creatures in view, none under the hand.
    scrolled(page, "window.scrollTo(0, 0)")
    cards = assert_no_creature_under_the_hand(page, "as it opens")
    assert any(card["onScreen"] for card in cards)
    # On the way down, a wheel's notch at a time, and at the bottom.
    for y in [*range(0, bottom, 60), bottom]:
        scrolled(page, f"window.scrollTo(0, {y})")
        assert_no_creature_under_the_hand(page, f"scrolled to {y}")
    # The hand's top strip is in view wherever the page is.
    for y in (0, bottom // 2, bottom):
        scrolled(page, f"window.scrollTo(0, {y})")
        assert box(page, "#hand")["y"] < DESKTOP["height"] - 40, y
    # Your creature row brought into view, from the top and from the bottom (a focus, the
    # page's own scrolling): the whole row above the hand, and the whole hand in view.
    for start in (0, bottom):
        for block in ("nearest", "end"):
            scrolled(page, f"window.scrollTo(0, {start})")
            scrolled(
                page,
                f"document.querySelector('#me .row.creatures')"
                f".scrollIntoView({{block: '{block}'}})",
            )
            cards = assert_no_creature_under_the_hand(page, f"{block} from {start}")
            assert all(card["onScreen"] for card in cards), (block, start, cards)
            assert in_the_viewport(box(page, "#hand"), DESKTOP), (block, start)

    # Where the hand has slid part of the way down, pointing at it raises it whole.
    scrolled(page, "window.scrollTo(0, 0)")
    row = box(page, "#me .row.creatures")
    dock_top = DESKTOP["height"] - box(page, "#hand")["height"]
    scrolled(page, f"window.scrollBy(0, {row['y'] + row['height'] - dock_top - 40})")
    hand = box(page, "#hand")
    assert dock_top < hand["y"] < DESKTOP["height"], hand
    page.mouse.move(hand["x"] + 60, (hand["y"] + DESKTOP["height"]) / 2)
    page.evaluate(NEXT_FRAMES)
    assert in_the_viewport(box(page, "#hand"), DESKTOP)
    page.mouse.move(2, 2)
    page.evaluate(NEXT_FRAMES)
    assert box(page, "#hand")["y"] == hand["y"]


# The playable cards of the hand whose tag ("can play", ::before) runs under the next card.
TAGS_UNDER_THE_NEXT_CARD = """() => {
    const cards = [...document.querySelectorAll('#hand .hand > .card')];
    return cards.slice(0, -1).flatMap((card, i) => {
        if (!card.matches('.playable')) return [];
        const tag = getComputedStyle(card, '::before');
        const right = card.getBoundingClientRect().left + card.clientLeft
            + parseFloat(tag.left) + parseFloat(tag.width);
        return right > cards[i + 1].getBoundingClientRect().left ? [card.dataset.name] : [];
    });
}"""


def test_a_hand_too_wide_for_the_column_overlaps_with_every_name_in_view(new_page, live_server_url):
    """Nine cards at 1280x800: the column holds three and a half side by side, so they overlap,
    none out of sight sideways, each card's left edge (its name) in view; pointing at one
    brings it to the front whole, its button with it."""
    from .helpers import table

    alice, _ = table(new_page, live_server_url, "big_hand.yaml", DESKTOP)
    cards = alice.locator("#hand .card")
    expect(cards).to_have_count(9)
    assert alice.evaluate(
        "(() => { const h = document.querySelector('#hand .hand');"
        " return h.scrollWidth <= h.clientWidth + 1; })()"
    )
    names = alice.evaluate(
        """[...document.querySelectorAll('#hand .card')].map(card => {
             const r = card.getBoundingClientRect();
             const hit = document.elementFromPoint(r.left + 12, r.top + 30);
             return hit && hit.closest('.card') === card ? card.dataset.name : null;
           })"""
    )
    assert None not in names, names
    # Each card's "can play" tag is whole on the strip of it that shows: it said "CAN PLA" under
    # the next card (a playtest); the fan's tags say "play".
    assert alice.evaluate(TAGS_UNDER_THE_NEXT_CARD) == []
    expect(alice.locator("#hand .hand")).to_have_class(re.compile(r"\btight\b"))
    rally = cards.nth(3)
    expect(rally).to_have_attribute("data-name", "Rally Maneuver")
    r = rally.bounding_box()
    alice.mouse.move(r["x"] + 12, r["y"] + 40)
    button = rally.locator(".card-actions button")
    b = button.bounding_box()
    on_top = alice.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.card').dataset.name",
        [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2],
    )
    assert on_top == "Rally Maneuver"
    button.click()
    expect(alice.locator("#prompt .prompt.mine")).not_to_have_attribute("data-kind", "priority")


# Each card of the hand: its height, and how far its mana cost runs past its inner right edge.
HAND_CARDS = """() => [...document.querySelectorAll('#hand .card')].map(card => {
    const c = card.getBoundingClientRect(), cost = card.querySelector('.mana-cost');
    const past = cost ? cost.getBoundingClientRect().right - (c.right - card.clientLeft) : 0;
    return [card.dataset.name, Math.round(c.height), Math.round(past)];
})"""


def test_a_phone_shows_the_hand_as_a_row_of_cards_of_one_height_with_their_costs_whole(
    new_page, live_server_url
):
    """A phone playtest: the longest rules text stretched every card of the row to 308 px, 40%
    of the screen, mostly empty; and Varis's {1}{G}{G} ran past its card's edge beside
    "Silverymoon". Every card is one height, its cost inside it."""
    from .helpers import PHONE, table

    alice, _ = table(new_page, live_server_url, "big_hand.yaml", PHONE)
    expect(alice.locator("#hand .card")).to_have_count(9)
    cards = alice.evaluate(HAND_CARDS)
    assert {height for _, height, _ in cards} == {196}, cards
    assert [name for name, _, past in cards if past > 0] == [], cards
