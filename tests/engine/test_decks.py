"""The preset decks are legal: at least 40 cards, at most four copies of a non-basic card,
every card implemented."""

from __future__ import annotations

from collections import Counter

import pytest

from game.decks import STARTER_DECKS
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
