"""The table as a player sees it, desktop (1280x800) and phone (390x844, touch): the phone's
action bar and its fold, the hand in view on a laptop (the mulligan, a main phase) and one swipe
away on a phone, the phase strip's names whole, maps that fit, the other player's dungeon choice
that does not push the board down, the zoom panel, upright tapped permanents, whole names, the
"can play" mark, the dungeon modal's focus, and the no-JavaScript page that reloads while it
waits. The
README's pictures of the table are taken here (test-artifacts/screenshots/; with
VENTURE_UPDATE_SCREENSHOT=1 also static/img/)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from game import services
from game.decks import GREEN_WHITE_VARIS
from game.engine.cards import CARDS
from tests.web.helpers import make_player

from .helpers import (
    DESKTOP,
    PHONE,
    a_game_at_the_mulligan,
    box,
    game_at,
    in_the_viewport,
    off_the_loop,
    past_arrival,
    save_readme_picture,
    waiting_game,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits_the_phone_width(rect: dict) -> bool:
    """Whether the box `rect` lies across the phone's screen, neither edge outside."""
    return rect["x"] >= 0 and rect["x"] + rect["width"] <= PHONE["width"]


def test_the_phone_keeps_the_prompt_in_view_and_the_hand_one_swipe_away(open_as):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=True)
    expect(page.locator("#prompt .prompt.mine")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    # Nothing is wider than the phone: no sideways scrolling of the page, no zoomed-out layout.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("window.innerWidth") == PHONE["width"]
    for y in (0, 900, 10_000):
        page.evaluate(f"window.scrollTo(0, {y})")
        prompt = box(page, "#prompt")
        assert abs(prompt["y"] + prompt["height"] - PHONE["height"]) <= 1, (y, prompt)
        assert prompt["height"] <= PHONE["height"] * 0.45
    # Its buttons in view (not those folded under "Mana abilities") are a finger's size: at
    # least 44 px tall.
    heights = page.eval_on_selector_all(
        "#prompt .btn",
        "bs => bs.filter(b => b.checkVisibility()).map(b => b.getBoundingClientRect().height)",
    )
    assert heights and min(heights) >= 44, heights
    # The hand: a strip that scrolls sideways, its top within one screen's swipe of the top.
    page.evaluate("window.scrollTo(0, 0)")
    hand = box(page, "#hand .hand")
    assert hand["y"] < 2 * PHONE["height"]
    cards = page.locator("#hand .card")
    expect(cards).to_have_count(7)
    first, last = box(page, "#hand .card:first-child"), box(page, "#hand .card:last-child")
    assert abs(first["y"] - last["y"]) < 1 and last["x"] > PHONE["width"]
    assert page.evaluate("document.querySelector('#hand .hand').scrollWidth") > PHONE["width"]


def test_the_hand_is_in_view_on_a_laptop_during_the_mulligan_and_the_turn(open_as):
    player, game = off_the_loop(a_game_at_the_mulligan)
    page = open_as(player, game.get_absolute_url())
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "mulligan")
    expect(page.locator("#prompt .prompt-text")).to_have_text("Keep this hand of 7?")
    expect(page.locator("#hand .card")).to_have_count(7)
    assert in_the_viewport(box(page, "#hand .hand"), DESKTOP)
    assert in_the_viewport(box(page, "#prompt .prompt.mine"), DESKTOP)
    # A main phase of a busy table: the hand, the prompt and both life totals in view. The hand
    # starts just under your creatures, none of which it covers (test_hand_dock.py); pointing at
    # it raises it whole.
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url())
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "priority")
    page.wait_for_timeout(300)
    creatures, hand = box(page, "#me .row.creatures"), box(page, "#hand .hand")
    assert creatures["y"] + creatures["height"] <= hand["y"] < DESKTOP["height"], (creatures, hand)
    page.mouse.move(hand["x"] + 60, (hand["y"] + DESKTOP["height"]) / 2)
    page.wait_for_timeout(100)
    hand = box(page, "#hand .hand")
    assert in_the_viewport(hand, DESKTOP), hand
    # the card's own button, which casts it, too
    cast = box(page, "#hand .card[data-name='Keen-Eared Sentry'] .card-actions")
    assert in_the_viewport(cast, DESKTOP), cast
    assert in_the_viewport(box(page, "#prompt .prompt.mine"), DESKTOP)
    for side in ("#opponent", "#me"):
        life = box(page, f"{side} .life-value")
        assert in_the_viewport(life, DESKTOP) and life["y"] + life["height"] <= hand["y"], side
    # A decision made on the permanents: the hand steps aside from the buttons on the cards.
    page.locator("#prompt button[data-option='cast Rally Maneuver']").click()
    expect(page.locator("#prompt .prompt.mine")).to_have_attribute("data-kind", "choose_targets")
    page.wait_for_timeout(300)
    hand = box(page, "#hand .hand")
    for i in range(page.locator("#me .perm-actions").count()):
        target = box(page, f"#me .row.creatures .perm:nth-child({i + 1}) .perm-actions")
        assert target["y"] + target["height"] <= hand["y"] or hand["y"] >= DESKTOP["height"]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_name_of_the_phase_strip_is_whole(open_as, phone):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=phone)
    expect(page.locator("#topbar .steps li")).to_have_count(12)
    cut = page.eval_on_selector_all(
        "#topbar .steps li, #topbar .steps li button",
        """els => els.filter(e => e.scrollWidth > e.clientWidth
                                  || e.scrollHeight > e.clientHeight + 1)
                    .map(e => e.textContent.trim())""",
    )
    assert cut == []
    if not phone:  # a laptop's strip shows every step at once
        strip = page.evaluate(
            "(() => { const s = document.querySelector('#topbar .steps');"
            " return [s.scrollWidth, s.clientWidth]; })()"
        )
        assert strip[0] <= strip[1], strip


def test_the_docked_prompt_folds_and_never_hides_the_blockers_buttons(open_as):
    alice, bob, game = game_at("identical_blockers.yaml")
    attacker = open_as(alice, game.get_absolute_url())
    page = open_as(bob, game.get_absolute_url(), phone=True)
    expect(attacker.locator("#prompt .prompt.mine")).to_have_attribute(
        "data-kind", "declare_attackers"
    )
    attacker.locator("#attack-all").click()
    expect(attacker.locator("#prompt input[type=checkbox]:checked")).to_have_count(2)
    attacker.locator("#confirm").click()
    prompt = page.locator("#prompt .prompt.mine")
    expect(prompt).to_have_attribute("data-kind", "declare_blockers")
    page.wait_for_timeout(300)
    buttons = "#me .perm-actions .block-with"
    count = page.locator(buttons).count()
    assert count == 2  # two blockers, each with its Block button

    def uncovered() -> list[bool]:
        """For each blocker's button: whether it is above the docked prompt once scrolled into
        view as a browser does (a focus, the page's own scrolling)."""
        out = []
        for i in range(count):
            page.evaluate(
                "([s, i]) => document.querySelectorAll(s)[i].scrollIntoView({block: 'nearest'})",
                [buttons, i],
            )
            b = page.evaluate(
                "([s, i]) => document.querySelectorAll(s)[i].getBoundingClientRect().bottom",
                [buttons, i],
            )
            out.append(b <= box(page, "#prompt")["y"] + 0.5)
        return out

    page.evaluate("window.scrollTo(0, 0)")
    # At the start of the decision the first blocker's buttons are in view above the prompt.
    first = box(page, buttons)
    assert first["y"] >= 0 and first["y"] + first["height"] <= box(page, "#prompt")["y"] + 0.5
    assert all(uncovered())
    # Folded: the prompt is one line, the table shows above it; blocks are still made on the
    # cards, and the prompt unfolds to confirm them.
    unfolded = box(page, "#prompt")["height"]
    fold = page.locator("#prompt [data-fold]")
    expect(fold).to_have_attribute("aria-expanded", "true")
    fold.tap()
    expect(prompt).to_have_class(re.compile(r"\bfolded\b"))
    expect(fold).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#prompt .prompt-text")).to_be_visible()
    expect(page.locator("#prompt #confirm")).to_be_hidden()
    folded = box(page, "#prompt")["height"]
    assert folded <= 80 and folded < unfolded, (folded, unfolded)
    assert all(uncovered())
    page.locator("#me .perm[data-name='Yuan-Ti Malison'] >> nth=0 >> .perm-name").tap()
    page.locator("#opponent .perm[data-name='Veteran Dungeoneer'] >> nth=0 >> .perm-name").tap()
    expect(page.locator("#prompt input[type=checkbox]:checked")).to_have_count(1)
    expect(prompt).to_have_class(re.compile(r"\bfolded\b"))
    fold.tap()
    expect(page.locator("#prompt #confirm")).to_be_visible()
    expect(page.locator("#prompt .block-pairs li")).to_have_count(1)


def test_the_phone_shows_the_stack_just_above_the_prompt(open_as):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=True)
    expect(page.locator("#stack")).to_be_hidden()  # an empty stack takes no room on a phone
    page.locator("#prompt button[data-option='cast Keen-Eared Sentry']").click()
    expect(page.locator("#stack .stack-item").first).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    stack, prompt = box(page, "#stack"), box(page, "#prompt")
    assert abs(stack["y"] + stack["height"] - prompt["y"]) <= 2, (stack, prompt)
    assert stack["y"] > 0 and prompt["y"] + prompt["height"] <= PHONE["height"] + 1


def test_a_cards_full_text_is_readable_on_the_phone(open_as):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=True)
    varis = page.locator("#me .perm[data-name='Varis, Silverymoon Ranger']")
    varis.tap()
    zoom = page.locator("dialog.zoom[open]")
    expect(zoom).to_be_visible()
    expect(zoom.locator(".zoom-name")).to_have_text("Varis, Silverymoon Ranger")
    text = zoom.locator(".zoom-text")
    printed = CARDS["Varis, Silverymoon Ranger"].text
    assert " ".join(text.inner_text().split()) == " ".join(printed.split())
    size = float(text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 14
    panel = zoom.bounding_box()
    assert fits_the_phone_width(panel), panel
    assert panel["y"] >= 0 and panel["y"] + panel["height"] <= PHONE["height"]
    expect(zoom.locator(".zoom-state")).to_contain_text("3/3")
    page.keyboard.press("Escape")
    expect(zoom).to_have_count(0)
    # A long press on a card in the hand opens it too, and the click after it does nothing else.
    card = page.locator("#hand .card[data-name='Emerald Dragon']")
    card.scroll_into_view_if_needed()
    card.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    page.wait_for_timeout(700)
    card.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    expect(page.locator("dialog.zoom[open] .zoom-name")).to_have_text("Emerald Dragon")
    expect(page.locator("dialog.zoom[open] .zoom-text")).to_contain_text("Dissonant Wave")


def test_a_click_on_a_permanent_shows_it_whole_with_its_state(open_as):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url())
    page.locator("#opponent .perm[data-name='Yuan-Ti Fang-Blade']").click()
    zoom = page.locator("dialog.zoom[open]")
    expect(zoom.locator(".zoom-type")).to_have_text(CARDS["Yuan-Ti Fang-Blade"].type_line)
    expect(zoom.locator(".zoom-state")).to_contain_text("tapped")
    expect(zoom.locator(".zoom-state")).to_contain_text("deathtouch")
    zoom.locator(".zoom-close").click()
    expect(zoom).to_have_count(0)
    # The graveyard's cards too.
    page.locator("#opponent .pile summary").click()
    page.locator("#opponent .pile li", has_text="Fates' Reversal").click()
    expect(page.locator("dialog.zoom[open] .zoom-text")).to_contain_text("graveyard")
    page.keyboard.press("Escape")
    # By keyboard: a permanent is a Tab stop, and Enter opens it.
    page.locator("#me .perm[data-name='Cloister Gargoyle']").focus()
    page.keyboard.press("Enter")
    expect(zoom.locator(".zoom-name")).to_have_text("Cloister Gargoyle")
    page.keyboard.press("Escape")
    # The stack: a spell as its card, an ability in its own words (not its source's cost or P/T).
    # Bob stops on alice's triggers, so Varis's waits on the stack for him.
    off_the_loop(services.set_stop, game.pk, bob, "theirs:triggers", True, action_id="t-1")
    page.locator("#prompt button[data-option='cast Keen-Eared Sentry']").click()
    trigger = page.locator("#stack .stack-item.ability").first
    trigger.click()
    expect(zoom.locator(".zoom-type")).to_have_text("Ability")
    expect(zoom.locator(".zoom-text")).to_contain_text("venture into the dungeon")
    expect(zoom.locator(".zoom-pt, .mana-cost")).to_have_count(0)
    page.keyboard.press("Escape")
    page.locator("#stack .stack-item.spell").click()
    expect(zoom.locator(".zoom-pt")).to_have_text("2/1")
    page.keyboard.press("Escape")
    # The stack's items and the graveyard's cards are Tab stops too.
    trigger.focus()
    expect(trigger).to_be_focused()
    page.keyboard.press("Enter")
    expect(zoom.locator(".zoom-type")).to_have_text("Ability")
    page.keyboard.press("Escape")
    page.locator("#opponent details.pile").evaluate("d => { d.open = true; }")
    buried = page.locator("#opponent .pile li", has_text="Fates' Reversal")
    assert buried.get_attribute("tabindex") == "0"
    buried.focus()
    expect(buried).to_be_focused()
    page.keyboard.press("Enter")
    expect(zoom.locator(".zoom-name")).to_have_text("Fates' Reversal")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_tapped_permanents_stay_upright_and_names_are_whole(open_as, phone):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=phone)
    tapped = "#me .perm.tapped[data-name='Cloister Gargoyle']"
    expect(page.locator(tapped)).to_be_visible()
    # Each read finds its element and reads it in one go (as `box`): a fragment swapped in
    # between a locator's find and its read would leave a detached element's empty style.
    matrix = page.evaluate("s => getComputedStyle(document.querySelector(s)).transform", tapped)
    # upright: no rotation (a translation at most)
    assert matrix == "none" or matrix.startswith("matrix(1, 0, 0, 1,"), matrix
    for name in ("Varis, Silverymoon Ranger", "Nadaar, Selfless Paladin", "Acererak the Archlich"):
        clipped = page.evaluate(
            """s => { const e = document.querySelector(s);
                      return e.scrollHeight > e.clientHeight + 1
                          || e.scrollWidth > e.clientWidth + 1; }""",
            f".perm[data-name='{name}'] .perm-name",
        )
        assert not clipped, name


def test_the_can_play_mark_is_no_card_frame_colour(open_as):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url())
    playable = page.locator("#hand .card.playable").first
    expect(playable).to_be_visible()
    ring = playable.evaluate("e => getComputedStyle(e).boxShadow")
    frames = page.evaluate(
        """() => ['W','U','B','R','G','multi','land','colorless'].map(c => {
             const e = document.createElement('div'); e.className = 'card color-' + c;
             document.body.appendChild(e);
             const edge = getComputedStyle(e).borderTopColor; e.remove(); return edge; })"""
    )
    assert not any(edge in ring for edge in frames), (ring, frames)
    # (A redraw just after the page opens replaces the card: one measured as it goes has no
    # style, so the hand's first playable card is read until one has.)
    for _ in range(50):
        tag = page.evaluate(
            "getComputedStyle(document.querySelector('#hand .card.playable'), '::before').content"
        )
        if tag:
            break
        page.wait_for_timeout(100)
    assert tag in ('"can play"', '"play"')  # "play" where the hand is fanned (layout.js)


def test_maps_fit_the_phone_and_open_at_full_size(open_as):
    alice, bob, game = game_at("busy_table.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=True)
    maps = page.locator("#maps .dungeon-map")
    expect(maps).to_have_count(2)
    for i in range(2):
        m = box(page, f"#maps .map-slot:nth-child({i + 1}) .dungeon-map")
        assert fits_the_phone_width(m), m
    page.locator("#maps .map-slot[data-player=bob] [data-map-full]").click()
    full = page.locator("dialog.zoom[open] .dungeon-map")
    expect(full).to_have_attribute("data-dungeon", "Lost Mine of Phandelver")
    size = full.locator(".room-name").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 12  # its drawn size, the sidebar's copy is smaller
    # Its Close button is a finger's target above the map, not under it (a playtester could
    # not tap it), and stays in reach when the map is scrolled inside the panel.
    page.locator("dialog.zoom[open] .zoom-card").evaluate("e => e.scrollTo(0, 10000)")
    page.locator("dialog.zoom[open] .zoom-close").tap()
    expect(page.locator("dialog.zoom[open]")).to_have_count(0)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_other_players_dungeon_choice_does_not_push_the_board_down(open_as, phone):
    alice, bob, game = game_at("varis_fork.yaml")
    alice_page = open_as(alice, game.get_absolute_url())
    bob_page = open_as(bob, game.get_absolute_url(), phone=phone)
    bob_page.evaluate("window.scrollTo(0, 0)")
    before = box(bob_page, "#me")
    alice_page.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(bob_page.locator("#prompt .waiting-text")).to_have_text("alice is choosing a dungeon…")
    bob_page.evaluate("window.scrollTo(0, 0)")
    after = box(bob_page, "#me")
    assert after["y"] - before["y"] < 60, (before, after)
    expect(bob_page.locator("#prompt .dungeon-map").first).to_be_hidden()
    bob_page.locator("#prompt .choice-maps-peek summary").click()
    expect(bob_page.locator("#prompt .dungeon-map")).to_have_count(3)
    # On the phone, the maps of the choice fit its width.
    if phone:
        choice = open_as(alice, game.get_absolute_url(), phone=True)
        maps = choice.locator("#dungeon-choice .dungeon-map")
        expect(maps).to_have_count(3)
        for i in range(3):
            m = box(choice, f"#dungeon-choice .dungeon-map:nth-of-type({i + 1})")
            assert fits_the_phone_width(m), m


# The WCAG contrast ratio between an element's text colour and the background of the nearest
# ancestor (or itself) that paints one.
CONTRAST = """(el) => {
    const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    let back = el;
    while (getComputedStyle(back).backgroundColor === "rgba(0, 0, 0, 0)") back = back.parentElement;
    const [a, b] = [getComputedStyle(el).color, getComputedStyle(back).backgroundColor].map(
        (c) => lum(rgb(c)));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_the_dungeon_choice_says_its_question_legibly(open_as):
    """The dialog's heading is the question ("Venture into the dungeon: choose a dungeon"); it
    had the side panel's light ink on the dialog's cream card (a playtest read the dialog as
    having no question). axe's audit leaves text over such a backdrop unjudged."""
    alice, bob, game = game_at("varis_fork.yaml")
    page = open_as(alice, game.get_absolute_url())
    page.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    heading = page.locator("#dungeon-choice.shown .modal-head h2")
    expect(heading).to_have_text("Venture into the dungeon: choose a dungeon")
    assert heading.evaluate(CONTRAST) >= 4.5


def test_the_dungeon_modal_takes_and_keeps_the_focus(open_as):
    alice, bob, game = game_at("varis_fork.yaml")
    page = open_as(alice, game.get_absolute_url())
    page.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    modal = page.locator("#dungeon-choice.shown")
    expect(modal).to_have_attribute("role", "dialog")
    expect(modal).to_have_attribute("aria-modal", "true")

    def focus_in_modal() -> bool:
        return page.evaluate(
            "() => document.getElementById('dungeon-choice').contains(document.activeElement)"
        )

    page.wait_for_function(
        "() => document.getElementById('dungeon-choice').contains(document.activeElement)"
    )
    for _ in range(8):
        page.keyboard.press("Tab")
        assert focus_in_modal()
    page.keyboard.press("Shift+Tab")
    assert focus_in_modal()
    page.keyboard.press("Escape")
    expect(page.locator("#dungeon-choice")).not_to_have_class("modal shown")
    assert page.evaluate("document.activeElement.getAttribute('data-show')") == "#dungeon-choice"
    page.keyboard.press("Enter")  # the button opens it again, and the focus goes back in
    expect(modal).to_be_visible()
    page.wait_for_function(
        "() => document.getElementById('dungeon-choice').contains(document.activeElement)"
    )


def test_the_hand_never_covers_the_dungeon_choice(open_as):
    """The docked hand (desktop) once drew over the chooser's lower rooms and Dungeon of the
    Mad Mage's Venture button: while the choice is open, what is where a hand card sits is the
    choice, not the card."""
    alice, bob, game = game_at("varis_fork.yaml")
    page = open_as(alice, game.get_absolute_url())
    page.click("#hand .card[data-name='Keen-Eared Sentry'] button")
    expect(page.locator("#dungeon-choice.shown")).to_be_visible()
    card = page.locator("#hand .card[data-name='Gloom Stalker']")
    expect(card).to_have_count(1)
    under_the_card = card.evaluate(
        """c => { const r = c.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return document.getElementById('dungeon-choice').contains(hit); }"""
    )
    assert under_the_card, "the hand is drawn over the dungeon choice"
    button = page.locator("#dungeon-choice.shown button", has_text="Dungeon of the Mad Mage")
    button.scroll_into_view_if_needed()
    expect(button).to_be_visible()


# Where each dungeon of the choice shows its name and its Venture button, and whether what is
# at the middle of each is that map's own button (nothing covers it, no scrolling needed).
CHOICE_IN_VIEW = """() => Array.from(
  document.querySelectorAll('#dungeon-choice .dungeon-map'), m => {
    const label = m.querySelector('.map-button span'), name = m.querySelector('.dungeon-name');
    const [l, n] = [label, name].map(e => e.getBoundingClientRect());
    const hit = document.elementFromPoint(l.x + l.width / 2, l.y + l.height / 2);
    const inView = r => r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
                        && r.right <= innerWidth;
    return {dungeon: m.dataset.dungeon, name: inView(n), label: inView(l),
            hit: m.querySelector('.map-button').contains(hit),
            x: l.x + l.width / 2, y: l.y + l.height / 2};
})"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_dungeon_of_the_choice_and_its_button_are_in_view(open_as, phone):
    """A laptop playtest: Dungeon of the Mad Mage, the longest map, ran below the fold with its
    Venture button, and scrolling the page to it took the question and the other maps away. The
    dialog fits the window, its maps scroll inside it, and each map's name and button are in
    view and take the click where they are; on a phone each map's button is in view once its
    map is scrolled to, and the dialog's heading stays."""
    alice, bob, game = game_at("varis_fork.yaml")
    page = open_as(alice, game.get_absolute_url(), phone=phone)
    viewport = PHONE if phone else DESKTOP
    page.locator("#hand .card[data-name='Keen-Eared Sentry'] button").click()
    expect(page.locator("#dungeon-choice.shown .dungeon-map")).to_have_count(3)
    past_arrival(page)
    assert in_the_viewport(box(page, "#dungeon-choice .modal-card"), viewport)
    if not phone:
        shown = page.evaluate(CHOICE_IN_VIEW)
        assert all(d["name"] and d["label"] and d["hit"] for d in shown), shown
        mad_mage = next(d for d in shown if d["dungeon"] == "Dungeon of the Mad Mage")
        page.mouse.click(mad_mage["x"], mad_mage["y"])  # where it is: no scrolling first
    else:
        for i, dungeon in enumerate(
            ["Tomb of Annihilation", "Lost Mine of Phandelver", "Dungeon of the Mad Mage"]
        ):
            page.locator("#dungeon-choice .dungeon-name").nth(i).evaluate(
                "e => e.scrollIntoView({block: 'start'})"
            )
            shown = page.evaluate(CHOICE_IN_VIEW)[i]
            assert shown["dungeon"] == dungeon and shown["label"] and shown["hit"], shown
            assert in_the_viewport(box(page, "#dungeon-choice .modal-head h2"), viewport)
        page.locator(
            "#dungeon-choice .map-button[data-dungeon='Dungeon of the Mad Mage'] span"
        ).tap()
    expect(page.locator("#dungeon-choice.shown")).to_have_count(0)
    expect(page.locator("#maps .map-slot[data-player=alice] .dungeon-map").first).to_have_attribute(
        "data-dungeon", "Dungeon of the Mad Mage"
    )


def test_without_javascript_the_waiting_page_says_so_and_reloads_when_they_join(open_as):
    alice, bob = make_player("alice"), make_player("bob")
    game = waiting_game(alice)
    page = open_as(alice, game.get_absolute_url(), js=False)
    expect(page.locator("h1")).to_have_text("Waiting for an opponent")
    # (Chromium's JavaScript switch leaves <noscript> unrendered; its text is what a browser
    # without JavaScript shows.)
    assert "reloads itself every 5 seconds" in page.locator(".invite noscript").text_content()
    expect(page.locator("head noscript meta[http-equiv=refresh]")).to_have_attribute("content", "5")
    off_the_loop(services.join_game, game.pk, bob, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))
    expect(page.locator("#topbar")).to_be_visible(timeout=12_000)


def test_readme_pictures_of_the_table(open_as):
    """The README's two pictures: the desktop table and the phone table, mid-game."""
    alice, bob, game = game_at("busy_table.yaml")
    desk = open_as(alice, game.get_absolute_url())
    phone = open_as(bob, game.get_absolute_url(), phone=True)
    desk.locator("#prompt button[data-option='cast Keen-Eared Sentry']").click()
    expect(phone.locator("#stack .stack-item").first).to_be_visible()
    expect(phone.locator("#prompt .prompt.mine")).to_be_visible()
    past_arrival(phone)  # the buttons as they stay, not dimmed for the decision's first moment
    for page, name in ((desk, "table-desktop.png"), (phone, "table-phone.png")):
        page.evaluate("window.scrollTo(0, 0)")
        time.sleep(0.3)
        save_readme_picture(page, name)
