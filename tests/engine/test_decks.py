"""The preset decks are legal: at least 40 cards, at most four copies of a non-basic card,
every card implemented."""

from __future__ import annotations

from collections import Counter

import pytest

from game.decks import STARTER_DECKS, mana_base_problems
from game.engine.cards import CARDS


def test_there_are_four_presets_one_for_varis_and_one_for_the_initiative():
    assert len(STARTER_DECKS) >= 4
    assert any("Varis, Silverymoon Ranger" in d for d in STARTER_DECKS.values())
    assert any(
        sum(1 for c in d if "take the initiative" in CARDS[c].text) >= 6
        for d in STARTER_DECKS.values()
    )


@pytest.mark.parametrize("name", sorted(STARTER_DECKS))
def test_preset_deck_is_legal(name):
    deck = STARTER_DECKS[name]
    assert len(deck) >= 40
    for card, n in Counter(deck).items():
        assert card in CARDS, card
        if "Basic" not in CARDS[card].supertypes:
            assert n <= 4, f"{n} copies of {card}"


@pytest.mark.parametrize("name", sorted(STARTER_DECKS))
def test_preset_lands_make_every_colour_its_spells_need(name):
    assert mana_base_problems(list(STARTER_DECKS[name])) == []


def test_the_mana_base_rule_catches_a_missing_colour_a_splash_and_a_short_main_colour():
    # The Varis preset as it once was: 7 Plains for 13 white cards and 9 Forests for 9 green
    # ones, a {W}{B} card without a black source, a {1}{W}{U} card with one Island.
    old_varis = (
        ["Forest"] * 9
        + ["Plains"] * 7
        + ["Island"]
        + ["Varis, Silverymoon Ranger"] * 2
        + ["Grizzled Outrider"] * 2
        + ["Underdark Basilisk"] * 3
        + ["Rally Maneuver"] * 2
        + ["Veteran Dungeoneer"] * 2
        + ["Nadaar, Selfless Paladin"]
        + ["Gloom Stalker"] * 2
        + ["Cloister Gargoyle"] * 2
        + ["Keen-Eared Sentry"] * 2
        + ["Dungeon Map", "Purple Worm", "Emerald Dragon"]
        + ["Hama Pashar, Ruin Seeker", "Triumphant Adventurer"]
    )
    problems = mana_base_problems(old_varis)
    assert [p.split(":")[0] for p in problems] == ["{B}", "{U}", "{W}"]
    assert problems[0].startswith("{B}: needed by 1 card (1 in their costs), made by 0 lands;")
    assert "it needs 8." in problems[2]


def test_a_double_pip_needs_more_than_a_splash():
    deck = ["Island"] * 12 + ["Forest"] * 5 + ["Yuan-Ti Malison"] * 4 + ["Ellywick Tumblestrum"]
    deck += ["Shortcut Seeker"] * 4 + ["Bar the Gate"] * 4 + ["Eccentric Apprentice"] * 4
    deck += ["Aarakocra Sneak"] * 4 + ["Ray of Frost"] * 2
    assert mana_base_problems(deck) == [
        "{G}: needed by 1 card (2 in their costs), made by 5 lands; it needs 8."
    ]
    fixed = deck[:]
    fixed.remove("Ellywick Tumblestrum")
    fixed.append("Underdark Basilisk")  # {1}{G}: one pip, a splash of one card
    assert mana_base_problems(fixed) == []
