"""Deck text import: the usual `4 Card Name` format, and every problem reported at once."""

import pytest

from game.decklists import DeckError, format_decklist, parse_decklist
from game.decks import STARTER_DECKS


def test_the_usual_format_with_headers_and_sideboard():
    deck = parse_decklist(
        """Deck
4 Varis, Silverymoon Ranger
4x Keen-Eared Sentry
1 Dungeon Map (AFR) 242
// lands
15 Forest
16 Plains

Sideboard
2 Bar the Gate
SB: 1 Power Word Kill
"""
    )
    assert len(deck.main) == 40
    assert deck.main.count("Varis, Silverymoon Ranger") == 4
    assert deck.main.count("Dungeon Map") == 1
    assert deck.sideboard == ["Bar the Gate", "Bar the Gate", "Power Word Kill"]


def test_names_are_matched_without_case_or_curly_quotes():
    deck = parse_decklist("4 fates\u2019 reversal\n36 swamp\n")
    assert deck.main[:4] == ["Fates' Reversal"] * 4
    assert deck.main[-1] == "Swamp"


def test_every_unknown_card_and_rule_breach_is_listed():
    with pytest.raises(DeckError) as e:
        parse_decklist(
            "4 Varis, Silverymon Ranger\n2 Black Lotus\n5 Keen-Eared Sentry\n"
            "4 Forest\nthis is not a line\nSideboard\n1 Keen-Eared Sentry\n"
        )
    problems = e.value.problems
    assert "Line 1: unknown card 'Varis, Silverymon Ranger'. Did you mean" in problems[0]
    assert "'Varis, Silverymoon Ranger'" in problems[0]
    assert problems[1] == "Line 2: unknown card 'Black Lotus'."
    assert problems[2].startswith("Line 5: 'this is not a line' is not")
    assert problems[3].startswith("6 copies of Keen-Eared Sentry: a deck may hold at most 4")
    assert problems[4] == "The deck has 9 cards; it needs at least 40."
    assert len(problems) == 5


def test_basic_lands_are_not_limited_to_four():
    assert len(parse_decklist("40 Island").main) == 40


@pytest.mark.parametrize("name", sorted(STARTER_DECKS))
def test_the_preset_decks_round_trip(name):
    cards = STARTER_DECKS[name]
    assert sorted(parse_decklist(format_decklist(cards)).main) == sorted(cards)
