"""A fight as the players see it once the blocks are made, in Debian's Chromium at 1280x800:
every word of the fight whole on the cards (a laptop's permanents are fixed squares, grown only
for a fight that says more than they hold), no keyword or counter under a P/T on either screen,
the page left where the player was looking once the blocks are declared, and on a phone every
Block button, every block said in the docked prompt and its Confirm within reach however many
blocks are made."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import DESKTOP, PHONE, box, game_at, in_the_viewport, past_arrival
from .test_in_view import BLOCKS_IN_REACH, attack_with_all, mine, to_blocks

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Each tag of a permanent's state and each P/T shown on the battlefield that its card cuts off:
# it runs past the card's inner edge (the card clips what overflows it), or its words run past
# its own box.
CUT_BY_THEIR_CARDS = """() => Array.from(document.querySelectorAll(
        '.battlefield .perm .st, .battlefield .perm .pt')).filter(t => t.checkVisibility())
    .flatMap(t => {
        const card = t.closest('.perm'), c = card.getBoundingClientRect();
        const r = t.getBoundingClientRect();
        const bottom = c.top + card.clientTop + card.clientHeight;
        const right = c.left + card.clientLeft + card.clientWidth;
        const cut = r.bottom > bottom + 0.5 || r.right > right + 0.5
            || (t.matches('.st') && t.scrollWidth > t.clientWidth + 1);
        return cut ? [card.dataset.name + ': ' + t.textContent] : [];
    })"""

# Each keyword, counter or damage badge shown on the battlefield that lies under its card's P/T
# (their boxes overlap), or runs past its card's inner right edge (the card clips it).
BADGES_UNDER_THE_PT = """() => Array.from(document.querySelectorAll('.battlefield .perm'))
    .flatMap(card => {
        const pt = card.querySelector('.pt');
        const p = pt && pt.checkVisibility() ? pt.getBoundingClientRect() : null;
        const c = card.getBoundingClientRect();
        const right = c.left + card.clientLeft + card.clientWidth;
        return Array.from(card.querySelectorAll('.kw, .counter, .damage'))
            .filter(b => b.checkVisibility()).flatMap(b => {
                const r = b.getBoundingClientRect();
                const under = p !== null && r.left < p.right - 0.5 && p.left < r.right - 0.5
                    && r.top < p.bottom - 0.5 && p.top < r.bottom - 0.5;
                return under || r.right > right + 0.5
                    ? [card.dataset.name + ': ' + b.textContent] : [];
            });
    })"""


def attack_with_all_at_once(alice, attackers: int) -> None:
    """Alice, asked for her attackers first (nothing else to do in her main phase), attacks
    with all `attackers` of her creatures."""
    expect(mine(alice)).to_have_attribute("data-kind", "declare_attackers")
    past_arrival(alice)
    alice.locator("#attack-all").click()
    expect(alice.locator("#prompt input[type=checkbox]:checked")).to_have_count(attackers)
    alice.locator("#confirm").click()


# Bob's blocks on busy_blocks.yaml: his blocker (by name and its index among its namesakes)
# and the attacker it blocks. Two on the Outrider, whose card also shows its +1/+1 counter.
BLOCKS = [
    ("Undermountain Adventurer", 0, "Varis, Silverymoon Ranger", 0),
    ("Yuan-Ti Malison", 1, "Veteran Dungeoneer", 0),
    ("Acererak the Archlich", 0, "Grizzled Outrider", 0),
    ("Clattering Skeletons", 0, "Grizzled Outrider", 0),
]


def block(bob, blocks) -> None:
    """Bob makes `blocks` on the cards (its Block button, then the attacker)."""
    for blocker, i, attacker, j in blocks:
        bob.locator(f"#me .perm.can-block[data-name='{blocker}']").nth(i).locator(
            ".block-with"
        ).click()
        bob.locator(f"#opponent .perm.attacking[data-name='{attacker}']").nth(j).click()
    expect(bob.locator("#prompt .block-pairs li")).to_have_count(len(blocks))


def test_a_laptop_shows_the_words_of_the_fight_whole_on_the_cards(open_as):
    """A laptop playtest: an attacker's "blocked by …" ran past the bottom of its card (a
    fixed 116 px square, which clips what overflows it), its P/T with it. Every tag and P/T is
    whole inside its card on both screens, and no card grew for it."""
    alice_player, bob_player, game = game_at("busy_blocks.yaml")
    alice = open_as(alice_player, game.get_absolute_url())
    bob = open_as(bob_player, game.get_absolute_url())
    attack_with_all(alice)
    to_blocks(bob)
    block(bob, BLOCKS)
    past_arrival(bob)
    bob.locator("#prompt #confirm").click()
    expect(mine(alice)).to_have_attribute(
        "data-kind", "priority"
    )  # her trick, once blocks are known
    blocked = {
        "Varis, Silverymoon Ranger": "blocked by Undermountain Adventurer #1",
        "Grizzled Outrider": "blocked by Acererak the Archlich, Clattering Skeletons",
    }
    for page, attackers in ((alice, "#me"), (bob, "#opponent")):
        page.mouse.move(1, 1)  # a card pointed at shows itself whole: none is
        for name, words in blocked.items():
            tag = page.locator(f"{attackers} .perm[data-name='{name}'] .st.blocked")
            expect(tag).to_have_text(words)
            expect(tag).to_be_visible()
        assert page.evaluate(CUT_BY_THEIR_CARDS) == [], page.venture_name
        # the Outrider's "1× +1/+1" beside its 6/6 ran 2 px under it
        assert page.evaluate(BADGES_UNDER_THE_PT) == [], page.venture_name
        heights = page.eval_on_selector_all(
            ".battlefield .row.creatures .perm", "ps => ps.map(p => p.offsetHeight)"
        )
        assert set(heights) == {116}, heights


def test_three_blockers_and_long_names_are_said_whole_on_the_attackers_card(open_as):
    """A laptop playtest: "blocked by …" on Varis (a long name, two keywords) ran past the foot
    of its 116 px square, the card clipping it. Said in full, the fight's words grow the card
    that needs it, and only that one (the Outrider's two blockers fit its square); on a phone
    too."""
    alice_player, bob_player, game = game_at("three_blockers.yaml")
    alice = open_as(alice_player, game.get_absolute_url())
    bob = open_as(bob_player, game.get_absolute_url())
    attack_with_all_at_once(alice, 2)
    expect(mine(bob)).to_have_attribute("data-kind", "declare_blockers")
    past_arrival(bob)
    block(
        bob,
        [
            ("Undermountain Adventurer", 0, "Varis, Silverymoon Ranger", 0),
            ("Undermountain Adventurer", 1, "Varis, Silverymoon Ranger", 0),
            ("Yuan-Ti Malison", 0, "Varis, Silverymoon Ranger", 0),
            ("Dungeon Crawler", 0, "Grizzled Outrider", 0),
            ("Zombie Ogre", 0, "Grizzled Outrider", 0),
        ],
    )
    past_arrival(bob)
    bob.locator("#prompt #confirm").click()
    expect(mine(alice)).to_have_attribute("data-kind", "assign_combat_damage")
    blocked = {
        "Varis, Silverymoon Ranger": "blocked by Undermountain Adventurer #1, Undermountain "
        "Adventurer #2, Yuan-Ti Malison",
        "Grizzled Outrider": "blocked by Dungeon Crawler, Zombie Ogre",
    }
    for page, attackers in ((alice, "#me"), (bob, "#opponent")):
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            page.mouse.move(1, 1)  # a card pointed at shows itself whole: none is
            for name, words in blocked.items():
                card = page.locator(f"{attackers} .perm[data-name='{name}']")
                tag = card.locator(".st.blocked")
                expect(tag).to_have_text(words)
                expect(tag).to_be_visible()
                # its words inside its own box, and its box inside the card's
                fits = tag.evaluate(
                    """t => { const card = t.closest('.perm'), c = card.getBoundingClientRect();
                        const r = t.getBoundingClientRect();
                        return t.scrollHeight <= t.clientHeight + 1
                            && t.scrollWidth <= t.clientWidth + 1
                            && r.top >= c.top + card.clientTop - 0.5
                            && r.left >= c.left + card.clientLeft - 0.5
                            && r.bottom <= c.top + card.clientTop + card.clientHeight + 0.5
                            && r.right <= c.left + card.clientLeft + card.clientWidth + 0.5; }"""
                )
                assert fits, (page.venture_name, viewport, name)
            assert page.evaluate(CUT_BY_THEIR_CARDS) == [], (page.venture_name, viewport)
            assert page.evaluate(BADGES_UNDER_THE_PT) == [], (page.venture_name, viewport)
            if viewport == DESKTOP:
                varis, outrider = (
                    page.locator(f"{attackers} .perm[data-name='{name}']").evaluate(
                        "p => p.offsetHeight"
                    )
                    for name in blocked
                )
                assert varis > 116 and outrider == 116, (varis, outrider)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_granted_keyword_stays_clear_of_the_pt(open_as, viewport):
    """A phone playtest: Seasoned Dungeoneer gave an attacking creature protection from
    creatures, and its badge (one line, wider than a phone's card) ran under the creature's P/T
    beside it. The badge wraps between its words, or the P/T makes way, and neither covers the
    other for the player or the opponent, nor is the badge clipped; on a laptop too."""
    alice_player, bob_player, game = game_at("protection_attack.yaml")
    phone = viewport == PHONE
    alice = open_as(alice_player, game.get_absolute_url(), phone=phone)
    bob = open_as(bob_player, game.get_absolute_url(), phone=phone)
    attack_with_all_at_once(alice, 2)
    # The Dungeoneer's trigger: its target is the Adventurer (vigilance), which explores (the
    # Plains on top of alice's library goes to her hand).
    expect(mine(alice)).to_have_attribute("data-kind", "choose_targets")
    past_arrival(alice)
    alice.locator("#prompt .options button", has_text="Undermountain Adventurer").click()
    expect(mine(bob)).to_have_attribute("data-kind", "declare_blockers")
    for page, whose in ((alice, "#me"), (bob, "#opponent")):
        card = page.locator(f"{whose} .perm[data-name='Undermountain Adventurer']")
        expect(card.locator(".kw")).to_have_text(["protection from creatures", "vigilance"])
        expect(card.locator(".kw.granted")).to_have_text("protection from creatures")
        page.mouse.move(1, 1)  # a card pointed at shows itself whole: none is
        assert page.evaluate(BADGES_UNDER_THE_PT) == [], page.venture_name
        assert page.evaluate(CUT_BY_THEIR_CARDS) == [], page.venture_name


def test_a_laptop_stays_where_the_blocker_was_looking_once_blocks_are_declared(open_as):
    """A laptop playtest: after the blocks were declared the page jumped up, away from the
    blockers. The next prompt (here bob's own stop once alice's is passed) came unstuck from
    beside the cards at the top of its column, and taking the focus scrolled the page to it. It
    stays beside the cards, in view with the stack under it, and the page stays put."""
    alice_player, bob_player, game = game_at("busy_blocks.yaml")
    alice = open_as(alice_player, game.get_absolute_url())
    bob = open_as(bob_player, game.get_absolute_url())
    attack_with_all(alice)
    to_blocks(bob)
    block(bob, BLOCKS[:2])
    where = bob.evaluate("scrollY")
    assert where > 100, where  # his blockers are below the fold: the page was scrolled to them
    past_arrival(bob)
    bob.locator("#prompt #confirm").click()
    expect(mine(alice)).to_have_attribute("data-kind", "priority")
    alice_where = alice.evaluate("scrollY")
    past_arrival(alice)
    alice.locator("#prompt #pass").click()
    expect(mine(bob)).to_have_attribute("data-kind", "priority")
    expect(bob.locator("#me .perm.blocking")).to_have_count(2)
    bob.wait_for_timeout(300)  # the page's own scrolling, after the new prompt
    assert bob.evaluate("scrollY") == where
    assert in_the_viewport(box(bob, "#prompt .prompt.mine"), DESKTOP)
    # and the stack under it, where a trick cast in the fight would be
    prompt, stack = box(bob, "#prompt .prompt.mine"), box(bob, "#stack")
    assert in_the_viewport(stack, DESKTOP) and stack["y"] >= prompt["y"] + prompt["height"], stack
    assert alice.evaluate("scrollY") == alice_where


def test_a_phone_keeps_every_block_button_and_confirm_within_reach_with_many_blocks(open_as):
    """A phone playtest: with four blocks or more the docked prompt, at its cap (42% of the
    screen), listed the blocks down past its bottom and Confirm with them, out of sight. Confirm
    stays on the bottom of the prompt, in view and taking the tap; every block said in the
    prompt scrolls into view inside it, clear of Confirm; every Block button scrolled into view
    as a browser does is above the dock and takes the tap."""
    alice_player, bob_player, game = game_at("busy_blocks.yaml")
    alice = open_as(alice_player, game.get_absolute_url())
    bob = open_as(bob_player, game.get_absolute_url(), phone=True)
    attack_with_all(alice)
    to_blocks(bob)
    many = BLOCKS + [("Yuan-Ti Malison", 0, "Veteran Dungeoneer", 1)]
    for blocker, i, attacker, j in many:
        bob.locator(f"#me .perm.can-block[data-name='{blocker}']").nth(i).locator(
            ".block-with"
        ).tap()
        bob.locator(f"#opponent .perm.attacking[data-name='{attacker}']").nth(j).locator(
            ".perm-name"
        ).tap()
    pairs = bob.locator("#prompt .block-pairs li")
    expect(pairs).to_have_count(len(many))
    bob.wait_for_timeout(300)  # the dock's new height, measured (layout.js)
    dock = box(bob, "#prompt")
    assert dock["height"] <= PHONE["height"] * 0.45, dock  # at its cap: the list scrolls in it

    def takes_the_tap(selector: str, i: int = 0) -> bool:
        """Whether the `i`th element matching `selector` is whole on the screen and is what is
        under its middle."""
        return bob.evaluate(
            """([s, i]) => { const e = document.querySelectorAll(s)[i];
                const r = e.getBoundingClientRect();
                const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return r.top >= 0 && r.bottom <= innerHeight + 0.5 && e.contains(hit); }""",
            [selector, i],
        )

    assert takes_the_tap("#prompt #confirm")
    for i in range(len(many)):
        pairs.nth(i).evaluate("e => e.scrollIntoView({block: 'nearest'})")
        assert takes_the_tap("#prompt .block-pairs li", i), i
        assert takes_the_tap("#prompt #confirm"), i
    blocks = bob.locator("#me .perm-actions .block-with")
    expect(blocks).to_have_count(7)
    for i in range(7):
        for start in (0, 100_000):
            bob.evaluate(f"window.scrollTo(0, {start})")
            blocks.nth(i).evaluate("e => e.scrollIntoView({block: 'nearest'})")
            assert i in bob.evaluate(BLOCKS_IN_REACH), (i, start)
    past_arrival(bob)
    where = box(bob, "#prompt #confirm")
    bob.touchscreen.tap(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2)
    expect(bob.locator("#log")).to_contain_text("bob blocks")
