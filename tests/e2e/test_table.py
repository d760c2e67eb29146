"""The table as two players use it, in Debian's Chromium: how many clicks a quiet turn costs,
blocks made by clicking and drawn for both players, the attacker dividing damage, the automatic
payment keeping what the hand needs, honest choices, the keyboard (a dungeon and a room too), and
a new prompt taking the focus. Desktop (1280x800) and phone (390x844) viewports."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import DESKTOP, PHONE, Inputs, past_arrival, table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HIGHLIGHTED = re.compile(r"\bhighlight\b")
PICKED_BLOCKER = re.compile(r"\bblock-source\b")


def prompt_kind(page):
    return page.locator("#prompt .prompt.mine")


def cast_power_word_kill(alice):
    """Alice casts Power Word Kill from her hand; the answer is the target option naming bob's
    Varis. Varis is its one legal target, which would be chosen for her: she turns on "Ask when
    forced" first, to be shown the choice."""
    ask_forced = alice.locator("#ask-forced")
    if ask_forced.get_attribute("aria-pressed") != "true":
        ask_forced.click()
        expect(alice.locator("#ask-forced")).to_have_attribute("aria-pressed", "true")
    alice.locator("#hand .card[data-name='Power Word Kill'] button").click()
    return alice.locator("#prompt .options button", has_text="bob's Varis")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_quiet_turn_holding_an_instant_takes_at_most_four_clicks_and_none_for_the_other(
    new_page, live_server_url, viewport
):
    alice, bob = table(new_page, live_server_url, "instant_in_hand.yaml", viewport)
    click_alice, click_bob = Inputs(alice), Inputs(bob)
    # Alice holds Rally Maneuver with three Plains; bob holds Power Word Kill. Nobody acts: alice
    # passes where she is stopped until bob's turn begins.
    new_turn = "document.querySelector('#topbar .turn-number').textContent === 'Turn 4'"
    for _ in range(6):
        alice.wait_for_function(
            f"() => document.querySelector('#prompt .prompt.mine') || {new_turn}"
        )
        if alice.evaluate(new_turn):
            break
        assert prompt_kind(bob).count() == 0, "bob was asked on alice's turn"
        version = alice.locator("#topbar").get_attribute("data-version")
        click_alice("#prompt #pass")
        expect(alice.locator("#topbar")).not_to_have_attribute("data-version", version)
    expect(bob.locator("#topbar .turn-number")).to_have_text("Turn 4")
    assert click_alice.count <= 4, click_alice.count
    assert click_bob.count == 0
    # Bob is stopped in his own main phase, where he can play his land and cards.
    expect(prompt_kind(bob)).to_have_attribute("data-kind", "priority")


def test_the_pass_button_names_where_it_goes_and_a_step_of_the_strip_sets_a_stop(
    new_page, live_server_url
):
    alice, bob = table(new_page, live_server_url, "instant_in_hand.yaml")
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "priority")
    expect(alice.locator("#topbar .turn-step")).to_have_text("Main 1")
    expect(alice.locator("#pass")).to_contain_text("To main 2")
    # Alice turns on a stop at her own end step: the button now goes there.
    end_step = alice.locator("#topbar .steps li[data-step=end] button.stop")
    expect(end_step).to_have_attribute("aria-pressed", "false")
    end_step.click()
    expect(alice.locator("#topbar .steps li[data-step=end] button.stop")).to_have_attribute(
        "aria-pressed", "true"
    )
    # A spectator-like view of the strip has no buttons; the opponent's strip shows their own
    # stops for the opponent's turn (not alice's).
    expect(bob.locator("#topbar .steps li[data-step=end] button.stop")).to_have_attribute(
        "aria-pressed", "false"
    )
    alice.locator("#pass").click()
    expect(alice.locator("#topbar .turn-step")).to_have_text("Main 2")
    expect(alice.locator("#pass")).to_contain_text("To end step")
    alice.locator("#pass").click()
    expect(alice.locator("#topbar .turn-step")).to_have_text("End step")
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "priority")


# The players' plates a pairing line is drawn over: each plate's box (in the page's
# coordinates) must be one of the black rectangles of the mask that the lines are drawn through.
PLATES_UNDER_NO_LINE = """() => {
    const cut = Array.from(document.querySelectorAll('#pairings mask rect[fill=black]'))
        .map(r => ['x', 'y', 'width', 'height'].map(k => Math.round(Number(r.getAttribute(k)))));
    const masked = document.querySelector('#pairings g[mask="url(#pairings-mask)"] line');
    return Array.from(document.querySelectorAll('.plate')).flatMap(plate => {
        const b = plate.getBoundingClientRect();
        const box = [b.left + scrollX, b.top + scrollY, b.width, b.height].map(Math.round);
        const hidden = masked && cut.some(c => c.every((v, i) => Math.abs(v - box[i]) <= 1));
        return hidden ? [] : [plate.dataset.player];
    });
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_blocks_made_by_clicking_appear_as_pairings_on_both_screens_and_the_attacker_divides(
    new_page, live_server_url, viewport
):
    alice, bob = table(new_page, live_server_url, "double_block.yaml", viewport)
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "declare_attackers")
    alice.locator("#me .perm[data-name='Grizzled Outrider'] label.pick").click()
    alice.locator("#me .perm[data-name='Veteran Dungeoneer'] label.pick").click()
    alice.locator("#confirm").click()

    expect(prompt_kind(bob)).to_have_attribute("data-kind", "declare_blockers")
    outrider = "#opponent .perm[data-name='Grizzled Outrider']"
    # A blocker, then the attacker it blocks: the attackers it may block are marked.
    bob.locator("#me .perm[data-name='Dungeon Crawler'] .perm-name").click()
    expect(bob.locator("#me .perm[data-name='Dungeon Crawler']")).to_have_class(PICKED_BLOCKER)
    expect(bob.locator("#opponent .perm.block-target")).to_have_count(2)
    bob.locator(outrider + " .perm-name").click()
    bob.locator("#me .perm[data-name='Zombie Ogre'] .perm-name").click()
    bob.locator(outrider + " .perm-name").click()
    expect(bob.locator("#prompt input[type=checkbox]:checked")).to_have_count(2)
    expect(bob.locator("#pairings line.proposed")).to_have_count(2)
    # The lines cross the prompt between the two halves of a desktop's table: drawn above it.
    if viewport == DESKTOP:
        above = bob.evaluate(
            """() => Number(getComputedStyle(document.getElementById('pairings')).zIndex) >
                     Number(getComputedStyle(document.querySelector('#prompt .prompt')).zIndex)"""
        )
        assert above
    # Clicking the Ogre then the other attacker moves its block there; then back.
    bob.locator("#me .perm[data-name='Zombie Ogre'] .perm-name").click()
    bob.locator("#opponent .perm[data-name='Veteran Dungeoneer'] .perm-name").click()
    expect(bob.locator("#prompt input[type=checkbox]:checked")).to_have_count(2)
    expect(
        bob.locator("#prompt label.check:has(input:checked)", has_text="Zombie Ogre blocks")
    ).to_contain_text("Veteran Dungeoneer")
    bob.locator("#me .perm[data-name='Zombie Ogre'] .perm-name").click()
    bob.locator(outrider + " .perm-name").click()
    bob.locator("#confirm").click()

    # Both screens and a spectator's show who blocks whom: the words on the blockers and a line
    # for each pair.
    spectator = new_page("spectator")
    spectator.set_viewport_size(viewport)
    spectator.goto(alice.locator("#topbar .watch-link").get_attribute("href"))
    for page, blockers in ((alice, "#opponent"), (bob, "#me"), (spectator, "#opponent")):
        for name in ("Dungeon Crawler", "Zombie Ogre"):
            expect(page.locator(f"{blockers} .perm[data-name='{name}'] .st.blk")).to_have_text(
                "blocking Grizzled Outrider"
            )
        expect(page.locator("#pairings line.declared")).to_have_count(2)
        expect(page.locator(".perm[data-name='Grizzled Outrider'] .st.blocked")).to_have_text(
            "blocked by Dungeon Crawler, Zombie Ogre"
        )
        # The lines pass under the players' plates: each plate's box is cut out of them.
        assert page.evaluate(PLATES_UNDER_NO_LINE) == [], page.venture_name

    # Alice divides the Outrider's 5 damage: an amount for each blocker, the usual division
    # (lethal damage to the first blocker, the rest to the next) filled in; every division is
    # listed too, the usual one first.
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "assign_combat_damage")
    expect(alice.locator("#prompt .prompt.mine .btn.primary")).to_have_count(1)  # Assign only
    amounts = alice.locator("#prompt .division-form input[type=number]")
    expect(amounts).to_have_count(2)
    expect(amounts.nth(0)).to_have_value("1")
    expect(amounts.nth(1)).to_have_value("4")
    expect(alice.locator("#prompt .division-amount").nth(0)).to_contain_text(
        "to bob's Dungeon Crawler"
    )
    alice.locator("#prompt .all-divisions summary").click()
    choices = alice.locator("#prompt .all-divisions button")
    expect(choices).to_have_count(6)
    expect(choices.first).to_contain_text(
        "1 to bob's Dungeon Crawler, 4 to bob's Zombie Ogre (the usual division)"
    )
    expect(alice.locator("#prompt .division-state")).to_have_text(
        "Filled in: bob's Dungeon Crawler dies."
    )
    amounts.nth(0).fill("4")
    expect(alice.locator("#prompt .division-state")).to_have_text("3 damage too many.")
    expect(alice.locator("#prompt .division-form #confirm")).to_be_disabled()
    amounts.nth(0).fill("2")
    amounts.nth(1).fill("3")
    expect(alice.locator("#prompt .division-state")).to_have_text(
        "A legal division: bob's Dungeon Crawler dies."
    )
    alice.locator("#prompt .division-form #confirm").click()
    expect(bob.locator("#me .perm[data-name='Dungeon Crawler']")).to_have_count(0)
    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text(
            "Grizzled Outrider deals 2 damage to Dungeon Crawler"
        )
        expect(page.locator("#log")).to_contain_text(
            "Grizzled Outrider deals 3 damage to Zombie Ogre"
        )


def test_the_automatic_payment_keeps_the_colours_of_a_card_in_hand(new_page, live_server_url):
    alice, bob = table(new_page, live_server_url, "ward_payment.yaml")
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "priority")
    # Alice turns on the stop on her opponent's triggers (off by default), to answer the ward.
    alice.locator("#stop-triggers").click()
    expect(alice.locator("#stop-triggers")).to_have_attribute("aria-pressed", "true")
    varis = cast_power_word_kill(alice)
    # The target says whose it is; nothing is styled as the recommended choice.
    expect(varis).to_be_visible()
    expect(alice.locator("#prompt .options button.primary")).to_have_count(0)
    # The target on the table is tagged as a choice, not as a permanent of hers that can act.
    target = alice.locator("#opponent .perm[data-name='Varis, Silverymoon Ranger']")
    expect(target).to_have_class(re.compile(r"\bactionable\b"))
    tag = target.evaluate("e => getComputedStyle(e, '::before').content")
    assert tag == '"choose"', tag
    varis.click()
    # Ward {1} triggers (bob's ability): alice lets it resolve and pays {1}, automatically.
    expect(alice.locator("#pass")).to_contain_text("Resolve Varis")
    alice.locator("#pass").click()
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "pay_ward")
    expect(alice.locator("#prompt .options button.primary")).to_have_count(0)
    alice.locator("#prompt form:has(input[name=option][value=pay]) button").click()
    expect(bob.locator("#opponent .perm[data-name='Varis, Silverymoon Ranger']")).to_have_count(0)
    # {1}{B} and {1} were paid from Swamps and the Island: both Mountains stay for Magic
    # Missile ({1}{R}{R}), which is still castable.
    expect(alice.locator("#me .perm[data-name=Mountain]:not(.tapped)")).to_have_count(2)
    expect(alice.locator("#hand .card[data-name='Magic Missile'] button")).to_be_visible()


def test_options_and_their_cards_highlight_each_other(new_page, live_server_url):
    alice, _ = table(new_page, live_server_url, "ward_payment.yaml")
    option = cast_power_word_kill(alice)
    option.hover()
    expect(alice.locator("#opponent .perm[data-name='Varis, Silverymoon Ranger']")).to_have_class(
        HIGHLIGHTED
    )
    alice.locator("#opponent .perm[data-name='Varis, Silverymoon Ranger'] .perm-name").hover()
    expect(option).to_have_class(HIGHLIGHTED)


def test_focus_moves_to_a_new_prompt_and_the_keyboard_answers_it(new_page, live_server_url):
    alice, bob = table(new_page, live_server_url, "double_block.yaml")
    expect(prompt_kind(alice)).to_be_focused()
    # 1 and 2 tick the attackers, Space confirms.
    alice.keyboard.press("1")
    alice.keyboard.press("2")
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(2)
    alice.keyboard.press("Space")
    # Bob's new decision is brought into view and takes the focus.
    expect(prompt_kind(bob)).to_have_attribute("data-kind", "declare_blockers")
    expect(prompt_kind(bob)).to_be_focused()
    expect(prompt_kind(bob)).to_be_in_viewport()
    # Keys tick blocks too, and a blocker blocks one attacker: the Crawler's second block
    # (key 2) replaces its first (key 1).
    bob.keyboard.press("1")
    bob.keyboard.press("2")
    checked = bob.locator("#prompt input[type=checkbox]:checked")
    expect(checked).to_have_count(1)
    expect(bob.locator("#prompt label.check:has(input:checked)")).to_contain_text(
        "your Dungeon Crawler blocks alice's Veteran Dungeoneer"
    )


def test_number_keys_choose_a_dungeon_and_a_room_on_its_map(new_page, live_server_url):
    alice, bob = table(new_page, live_server_url, "varis_fork.yaml")
    marker = bob.locator("#maps .map-slot[data-player=alice] .room.current")
    alice.locator("#hand .card[data-name='Keen-Eared Sentry'] button").click()
    # Each dungeon of the choice shows its key, as the prompt's buttons do.
    dungeons = alice.locator("#dungeon-choice .map-button[data-key]")
    expect(dungeons).to_have_count(3)
    lost_mine = alice.locator("#dungeon-choice .map-button[data-dungeon='Lost Mine of Phandelver']")
    key = lost_mine.get_attribute("data-key")
    expect(lost_mine.locator("kbd.key")).to_have_text(key)
    past_arrival(alice)
    alice.keyboard.press(key)
    expect(marker).to_have_attribute("data-room", "Cave Entrance")
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "scry")
    past_arrival(alice)
    alice.keyboard.press("Space")
    # The Dungeon Map ventures again: a fork, each reachable room with its key on the map.
    alice.locator("#prompt button[data-option='activate Dungeon Map: {3}, {T}']").click()
    rooms = alice.locator("#prompt .room.choice[data-key]")
    expect(rooms).to_have_count(2)
    tunnels = alice.locator("#prompt .room.choice[data-room='Mine Tunnels']")
    key = tunnels.get_attribute("data-key")
    expect(tunnels.locator("kbd.key")).to_be_visible()
    past_arrival(alice)
    alice.keyboard.press(key)
    expect(marker).to_have_attribute("data-room", "Mine Tunnels")


def test_sources_can_be_tapped_by_hand_before_casting(new_page, live_server_url):
    alice, _ = table(new_page, live_server_url, "ward_payment.yaml")
    expect(prompt_kind(alice)).to_have_attribute("data-kind", "priority")
    # Alice taps her Island and a Swamp herself: the mana waits in her pool.
    alice.locator("#me .perm[data-name=Island] button.mana").click()
    expect(alice.locator("#me .perm[data-name=Island]")).to_have_class(re.compile(r"\btapped\b"))
    alice.locator("#me .perm[data-name=Swamp]:not(.tapped) button.mana").first.click()
    expect(alice.locator("#me .perm[data-name=Swamp].tapped")).to_have_count(1)
    expect(alice.locator(".plate[data-player=alice] .pool")).to_contain_text("U")
    # Power Word Kill ({1}{B}) is paid from the pool: no other land is tapped for it.
    cast_power_word_kill(alice).click()
    expect(alice.locator("#me .perm.tapped")).to_have_count(2)
    expect(alice.locator("#stack .stack-item[data-name='Power Word Kill']")).to_have_count(1)
