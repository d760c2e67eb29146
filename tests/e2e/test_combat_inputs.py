"""Combat as a player plays it, inputs counted, in Debian's Chromium at 1280x800 and 390x844:
"Attack with all" and Confirm, no stop once blocks are known when nothing could block, blocks
made on the cards with the prompt saying the pairs chosen in the cards' own numbers, and the
keys (Space confirms wherever the focus is in the prompt; Enter ticks a focused checkbox)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import DESKTOP, PHONE, Inputs, past_arrival, table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def prompt(page):
    return page.locator("#prompt .prompt.mine")


def settled(page, version: str) -> None:
    expect(page.locator("#topbar")).not_to_have_attribute("data-version", version)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_lethal_swing_with_five_creatures_takes_three_inputs(new_page, live_server_url, viewport):
    alice, bob = table(new_page, live_server_url, "five_attackers.yaml", viewport)
    inputs = Inputs(alice)
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    expect(alice.locator("#pass")).to_contain_text("To combat")
    inputs.click("#prompt #pass")
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    attack_all = alice.locator("#attack-all")
    expect(attack_all).to_have_text(re.compile("Attack with all"))
    inputs.click("#attack-all")
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(5)
    expect(alice.locator("#me label.pick.on")).to_have_count(5)  # ticked on the cards too
    # The way back to none.
    expect(attack_all).to_have_text(re.compile("Attack with none"))
    attack_all.click()
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(0)
    attack_all.click()
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(5)
    inputs.click("#confirm")
    # Bob has no creature: no stop once blocks are known; 15 damage and the game is over.
    for page in (alice, bob):
        expect(page.locator("#over.shown .over-headline")).to_have_text("alice wins")
    assert inputs.count == 3, inputs.count


def test_a_turn_with_combat_by_keyboard_is_four_keys_and_none_for_the_defender(
    new_page, live_server_url
):
    alice, bob = table(new_page, live_server_url, "five_attackers_20.yaml")
    keys, bob_inputs = Inputs(alice), Inputs(bob)
    expect(prompt(alice)).to_be_focused()
    version = alice.locator("#topbar").get_attribute("data-version")
    keys.press("Space")  # to combat
    settled(alice, version)
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    expect(alice.locator("#attack-all kbd")).to_have_text("A")
    past_arrival(alice)
    keys.press("a")  # attack with all
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(5)
    # Space confirms even with a checkbox focused (Enter would tick it).
    alice.locator("#prompt input[type=checkbox]").first.focus()
    version = alice.locator("#topbar").get_attribute("data-version")
    keys.press("Space")
    settled(alice, version)
    expect(bob.locator(".plate[data-player=bob] .life-value")).to_have_text("6")
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    expect(alice.locator("#topbar .turn-step")).to_have_text("Main 2")
    past_arrival(alice)
    keys.press("Space")  # to the end of the turn
    expect(bob.locator("#topbar .turn-number")).to_have_text("Turn 6")
    assert keys.count == 4, keys.count
    assert bob_inputs.count == 0
    expect(alice.locator("#log")).not_to_contain_text("declares no blockers")
    # The log heads the combat with its phase, in each player's words.
    expect(alice.locator("#log li.heading", has_text="Your combat, turn 5")).to_have_count(1)
    expect(bob.locator("#log li.heading", has_text="alice's combat, turn 5")).to_have_count(1)
    expect(bob.locator("#log li.heading").first).to_have_text("Turn 6: your turn")
    expect(alice.locator("#log li.heading").first).to_have_text("Turn 6: bob's turn")


def test_enter_ticks_a_focused_checkbox_and_space_does_not(new_page, live_server_url):
    alice, _ = table(new_page, live_server_url, "identical_blockers.yaml")
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    box = alice.locator("#prompt input[type=checkbox]").first
    box.focus()
    alice.keyboard.press("Enter")
    expect(box).to_be_checked()
    alice.keyboard.press("Enter")
    expect(box).not_to_be_checked()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_blocks_on_the_cards_are_said_in_the_prompt_with_the_cards_numbers(
    new_page, live_server_url, viewport
):
    alice, bob = table(new_page, live_server_url, "identical_blockers.yaml", viewport)
    inputs = Inputs(bob)
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    alice.locator("#attack-all").click()
    alice.locator("#confirm").click()
    expect(prompt(bob)).to_have_attribute("data-kind", "declare_blockers")
    # Each namesake carries its number on its card.
    for side, name in (("#me", "Yuan-Ti Malison"), ("#opponent", "Veteran Dungeoneer")):
        numbers = bob.locator(f"{side} .perm[data-name='{name}'] .perm-number")
        expect(numbers).to_have_text(["#1", "#2"])
    # The flat list of every pair is the form without JavaScript: out of sight here.
    expect(bob.locator("#prompt .block-list")).to_be_hidden()
    expect(bob.locator("#prompt .block-none")).to_be_visible()
    # What no blocks would cost, and not lethal at 20 life.
    expect(bob.locator("#prompt .coming")).to_have_text(
        "The attackers left unblocked deal 6 damage; you are at 20 life."
    )
    malison = "#me .perm[data-name='Yuan-Ti Malison']"
    dungeoneer = "#opponent .perm[data-name='Veteran Dungeoneer']"
    inputs.click(f"{malison} >> nth=0 >> .perm-name")
    inputs.click(f"{dungeoneer} >> nth=1 >> .perm-name")
    # The numbers alone: "(untapped)" after every blocker and "(tapped)" after every attacker
    # told them apart no better, and on a phone made each line of the docked prompt one longer.
    pairs = bob.locator("#prompt .block-pairs li")
    expect(pairs).to_have_text(["your Yuan-Ti Malison #1 blocks alice's Veteran Dungeoneer #2"])
    inputs.click(f"{malison} >> nth=1 >> .perm-name")
    inputs.click(f"{dungeoneer} >> nth=0 >> .perm-name")
    expect(pairs).to_have_text(
        [
            "your Yuan-Ti Malison #1 blocks alice's Veteran Dungeoneer #2",
            "your Yuan-Ti Malison #2 blocks alice's Veteran Dungeoneer #1",
        ]
    )
    inputs.click("#confirm")
    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text("bob blocks")
    assert inputs.count == 5, inputs.count


def block_on_the_cards(new_page, live_server_url, viewport):
    """Alice attacks with her two Veteran Dungeoneers (a trick in hand: she is stopped once
    blocks are known, so the blocks stay on the table); Bob's page at his declare-blockers
    decision, with his two Yuan-Ti Malisons able to block."""
    alice, bob = table(new_page, live_server_url, "identical_blockers_trick.yaml", viewport)
    expect(alice.locator("#pass")).to_contain_text("To combat")
    alice.locator("#pass").click()
    expect(prompt(alice)).to_have_attribute("data-kind", "declare_attackers")
    alice.locator("#attack-all").click()
    alice.locator("#confirm").click()
    expect(prompt(bob)).to_have_attribute("data-kind", "declare_blockers")
    return alice, bob


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_two_namesake_attackers_blocked_by_clicks_anywhere_on_the_cards(
    new_page, live_server_url, viewport
):
    """A click on a blocker's card picks it wherever it lands (its lower half held a button
    per attacker that made a block at once, and the click on the attacker then opened its
    zoom); the click on an attacker makes the block. Two namesakes block two namesakes crosswise,
    and the prompt, the cards and then the log say which blocks which."""
    alice, bob = block_on_the_cards(new_page, live_server_url, viewport)
    inputs = Inputs(bob)
    malisons = bob.locator("#me .perm[data-name='Yuan-Ti Malison']")
    dungeoneers = bob.locator("#opponent .perm[data-name='Veteran Dungeoneer']")
    # Each blocker shows one button, "Block"; its buttons for each attacker are out of sight.
    blocks = bob.locator("#me .perm-actions .block-with")
    expect(blocks).to_have_text(["Block", "Block"])
    expect(bob.locator("#me .perm-actions label.pick")).to_have_count(4)
    for i in range(4):
        expect(bob.locator("#me .perm-actions label.pick").nth(i)).to_be_hidden()
    pairs = bob.locator("#prompt .block-pairs li")

    def click(card, where: float) -> None:
        """A click on `card` at `where` of its height, in its middle."""
        card.scroll_into_view_if_needed()
        size = card.bounding_box()
        inputs.count += 1
        card.click(position={"x": size["width"] / 2, "y": size["height"] * where})

    # The lower part of the first Malison: it is picked, no block is made yet.
    click(malisons.nth(0), 0.85)
    expect(malisons.nth(0)).to_have_class(re.compile(r"\bblock-source\b"))
    expect(blocks.nth(0)).to_have_attribute("aria-pressed", "true")
    expect(bob.locator("#prompt .block-picking")).to_have_text(
        "Now click or tap the attacker your Yuan-Ti Malison #1 blocks; Block again lets go."
    )
    expect(pairs).to_have_count(0)
    click(dungeoneers.nth(1), 0.5)
    expect(pairs).to_have_count(1)
    expect(bob.locator("dialog.zoom[open]")).to_have_count(0)
    expect(pairs.first).to_have_text(
        re.compile(r"^your Yuan-Ti Malison #1 .*blocks alice's Veteran Dungeoneer #2\b")
    )
    expect(blocks.nth(0)).to_have_text("Blocks alice's Veteran Dungeoneer #2")
    # The second Malison by its middle, then the first Dungeoneer.
    click(malisons.nth(1), 0.5)
    click(dungeoneers.nth(0), 0.3)
    expect(pairs).to_have_count(2)
    expect(bob.locator("dialog.zoom[open]")).to_have_count(0)
    expect(pairs.nth(1)).to_have_text(
        re.compile(r"^your Yuan-Ti Malison #2 .*blocks alice's Veteran Dungeoneer #1\b")
    )
    expect(blocks).to_have_text(
        ["Blocks alice's Veteran Dungeoneer #2", "Blocks alice's Veteran Dungeoneer #1"]
    )
    expect(bob.locator("#pairings line.pairing.proposed")).to_have_count(2)
    inputs.click("#confirm")
    # Declared: written on the cards on both screens (Alice is stopped with her trick).
    expect(prompt(alice)).to_have_attribute("data-kind", "priority")
    for page in (alice, bob):
        side = "#me" if page is bob else "#opponent"
        expect(page.locator(f"{side} .perm[data-name='Yuan-Ti Malison'] .st.blk")).to_have_text(
            [
                re.compile(r"^blocking .*Veteran Dungeoneer #2$"),
                re.compile(r"^blocking .*Veteran Dungeoneer #1$"),
            ]
        )
    expect(bob.locator("#log")).to_contain_text("bob blocks")
    assert inputs.count == 5, inputs.count


def test_a_block_by_keyboard_and_a_picked_blocker_let_go(new_page, live_server_url):
    """Tab to a blocker's Block button and press Enter, then Tab to the attacker and press
    Enter: the block is made (Enter on a card opens its zoom otherwise). A pick is let go by its
    Block button again or by Escape, and a click on the picked card shows its own buttons."""
    _, bob = block_on_the_cards(new_page, live_server_url, DESKTOP)
    blocks = bob.locator("#me .perm-actions .block-with")
    malison = bob.locator("#me .perm[data-name='Yuan-Ti Malison']").nth(1)
    dungeoneer = bob.locator("#opponent .perm[data-name='Veteran Dungeoneer']").nth(0)
    blocks.nth(1).focus()
    bob.keyboard.press("Enter")
    expect(malison).to_have_class(re.compile(r"\bblock-source\b"))
    expect(dungeoneer).to_have_class(re.compile(r"\bblock-target\b"))
    # Picked, it shows its buttons per attacker; its Block button lets go of it.
    expect(malison.locator("label.pick")).to_have_count(2)
    for label in malison.locator("label.pick").all():
        expect(label).to_be_visible()
    bob.keyboard.press("Enter")
    expect(malison).not_to_have_class(re.compile(r"\bblock-source\b"))
    expect(malison.locator("label.pick").first).to_be_hidden()
    bob.keyboard.press("Enter")
    expect(malison).to_have_class(re.compile(r"\bblock-source\b"))
    bob.keyboard.press("Escape")
    expect(malison).not_to_have_class(re.compile(r"\bblock-source\b"))
    bob.keyboard.press("Enter")
    dungeoneer.focus()
    bob.keyboard.press("Enter")
    pairs = bob.locator("#prompt .block-pairs li")
    expect(pairs).to_have_count(1)
    expect(pairs.first).to_have_text(
        re.compile(r"^your Yuan-Ti Malison #2 .*blocks alice's Veteran Dungeoneer #1\b")
    )
    expect(bob.locator("dialog.zoom[open]")).to_have_count(0)
    # A picked blocker's own button for an attacker makes that block at once.
    bob.locator("#me .perm[data-name='Yuan-Ti Malison']").nth(0).locator(".perm-name").click()
    bob.locator("#me .perm[data-name='Yuan-Ti Malison']").nth(0).locator(
        "label.pick", has_text="Veteran Dungeoneer #2"
    ).click()
    expect(pairs).to_have_count(2)
    expect(pairs.nth(0)).to_have_text(
        re.compile(r"^your Yuan-Ti Malison #1 .*blocks alice's Veteran Dungeoneer #2\b")
    )
    expect(bob.locator(".block-source")).to_have_count(0)
    # With nothing picked, Enter on an attacker opens it, as on any card.
    dungeoneer.focus()
    bob.keyboard.press("Enter")
    expect(bob.locator("dialog.zoom[open] .zoom-name")).to_have_text("Veteran Dungeoneer")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_blocks_into_lethal_damage_asks_again(new_page, live_server_url, viewport):
    """A Space (or a tap on Confirm) with nothing ticked while the attack is lethal only asks
    again, in the button's words; a block ticked takes the question back; a second Space
    declares no blocks."""
    alice, bob = table(new_page, live_server_url, "lethal_unblocked.yaml", viewport)
    alice.locator("#attack-all").click()
    alice.locator("#confirm").click()
    expect(prompt(bob)).to_have_attribute("data-kind", "declare_blockers")
    expect(bob.locator("#prompt .coming.lethal")).to_have_text(
        "The attackers left unblocked deal 6 damage; you are at 6 life: lethal."
    )
    # The strip of steps, scrolled sideways on a phone, shows the current one.
    strip = bob.locator("#topbar .steps").bounding_box()
    step = bob.locator("#topbar .steps li.current").bounding_box()
    assert strip["x"] <= step["x"] and step["x"] + step["width"] <= strip["x"] + strip["width"]
    past_arrival(bob)
    confirm = bob.locator("#confirm")
    if viewport is PHONE:
        confirm.click()
    else:
        bob.keyboard.press("Space")
    expect(confirm).to_have_text(re.compile(r"^No blocks: take 6 and lose\? Confirm again"))
    expect(prompt(bob)).to_have_attribute("data-kind", "declare_blockers")
    expect(bob.locator(".plate[data-player=bob] .life-value")).to_have_text("6")
    # A blocker picked takes the question back; its block made, the line says what is left.
    bob.locator("#me .perm[data-name='Yuan-Ti Malison'] >> nth=0 >> .perm-name").click()
    expect(confirm).not_to_have_text(re.compile("again"))
    bob.locator("#opponent .perm[data-name='Veteran Dungeoneer'] >> nth=0 >> .perm-name").click()
    expect(bob.locator("#prompt .block-pairs li")).to_have_count(1)
    expect(confirm).to_have_text(re.compile(r"^Confirm"))
    expect(bob.locator("#prompt .coming")).to_have_text(
        "The attackers left unblocked deal 3 damage; you are at 6 life."
    )
    expect(bob.locator("#prompt .coming.lethal")).to_have_count(0)
    # Untick it (the same pair again) and decline twice: the game is lost.
    bob.locator("#me .perm[data-name='Yuan-Ti Malison'] >> nth=0 >> .perm-name").click()
    bob.locator("#opponent .perm[data-name='Veteran Dungeoneer'] >> nth=0 >> .perm-name").click()
    expect(bob.locator("#prompt .block-pairs li")).to_have_count(0)
    confirm.click()
    expect(confirm).to_have_text(re.compile("Confirm again"))
    confirm.click()
    for page in (alice, bob):
        expect(page.locator("#over.shown .over-headline")).to_have_text("alice wins")


def test_the_blocks_line_counts_trample_over_the_blockers_chosen(new_page, live_server_url):
    """A trampler blocked still deals what is left after lethal damage to its blockers
    (CR 702.19b): the line follows the blocker picked, a 2/1 letting 4 over (lethal at 5 life
    with the other attacker's 3), a 3/4 letting 1 over."""
    alice, bob = table(new_page, live_server_url, "trample_blocks.yaml", DESKTOP)
    alice.locator("#attack-all").click()
    alice.locator("#confirm").click()
    # Bob, holding an instant, is stopped as the attack is declared, then blocks.
    expect(bob.locator("#pass")).to_contain_text("To blockers")
    bob.locator("#pass").click()
    line = bob.locator("#prompt .prompt.mine[data-kind=declare_blockers] .coming")
    expect(line).to_have_text(
        "The attackers left unblocked deal 8 damage; you are at 5 life: lethal."
    )
    past_arrival(bob)

    def toggle_block(blocker: str) -> None:
        """Pick bob's `blocker`, then the Adventurer: the block made, or taken back."""
        bob.locator(f"#me .perm[data-name='{blocker}'] .perm-name").click()
        bob.locator("#opponent .perm[data-name='Caves of Chaos Adventurer'] .perm-name").click()

    toggle_block("Yuan-Ti Malison")
    expect(line).to_have_text(
        "The attackers left unblocked deal 3 damage, trample 4 more over blockers; "
        "you are at 5 life: lethal."
    )
    toggle_block("Yuan-Ti Malison")
    toggle_block("Veteran Dungeoneer")
    expect(line).to_have_text(
        "The attackers left unblocked deal 3 damage, trample 1 more over blockers; "
        "you are at 5 life."
    )
    bob.locator("#confirm").click()
    # Stopped again after the blocks, the server's line says the same.
    expect(bob.locator("#prompt .prompt.mine[data-kind=priority] .coming")).to_have_text(
        "The attackers left unblocked deal 3 damage, trample 1 more over blockers; "
        "you are at 5 life."
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_pass_into_lethal_damage_with_an_answer_in_hand_asks_again(
    new_page, live_server_url, viewport
):
    """Once the blocks are declared, the pass button says what passing does ("Pass and take 6",
    not "To your turn"); with Power Word Kill still castable its first press only asks again
    and the second passes (on the phone, from the docked "To my next turn"); on the desktop the
    kill cast instead leaves 3 to take."""
    alice, bob = table(new_page, live_server_url, "lethal_with_an_answer.yaml", viewport)
    alice.locator("#attack-all").click()
    alice.locator("#confirm").click()
    expect(bob.locator("#pass")).to_contain_text("To blockers")
    bob.locator("#pass").click()
    expect(prompt(bob)).to_have_attribute("data-kind", "declare_blockers")
    confirm = bob.locator("#confirm")
    confirm.click()
    expect(confirm).to_have_text(re.compile("Confirm again"))
    confirm.click()
    expect(prompt(bob)).to_have_attribute("data-kind", "priority")
    expect(bob.locator("#pass")).to_have_text(re.compile(r"^Pass and take 6"))
    # On a phone, the docked "To my next turn" (the pace's pass) asks again in its own words.
    pass_button = bob.locator("#prompt .pass-turn-docked" if viewport is PHONE else "#pass")
    pass_button.click()
    expect(pass_button).to_have_text(re.compile(r"^Take 6 and lose\? Pass again"))
    expect(bob.locator(".plate[data-player=bob] .life-value")).to_have_text("6")
    if viewport is PHONE:
        # The second press passes: the damage is dealt and the game is lost.
        pass_button.click()
        for page in (alice, bob):
            expect(page.locator("#over.shown .over-headline")).to_have_text("alice wins")
        return
    bob.locator("#prompt button[data-option='cast Power Word Kill']").click()
    expect(prompt(bob)).to_have_attribute("data-kind", "choose_targets")
    bob.locator("#prompt .option-form button").first.click()
    # With nothing left to play, bob's pass is made for him: the other Dungeoneer's 3 is dealt.
    expect(bob.locator("#opponent .perm[data-name='Veteran Dungeoneer']")).to_have_count(1)
    expect(bob.locator(".plate[data-player=bob] .life-value")).to_have_text("3")
