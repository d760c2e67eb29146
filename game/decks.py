"""Preset decks from the implemented pool (lobby presets, random-play tests, benchmarks).

Each is legal under the deck rules (at least 40 cards, at most four copies of a non-basic card)
and its lands make the colours its spells need (`mana_base_problems`; tests/engine/test_decks.py
checks every preset)."""

from __future__ import annotations

from collections import Counter

from game.engine.cards import CARDS

# A colour needed by at most this many cards is a splash: it needs fewer sources.
SPLASH_CARDS = 4
MAIN_SOURCES = 7  # a colour the deck is built on
SPLASH_SOURCES = 4
DOUBLE_PIP_SOURCES = 8  # a card with {C}{C} in its cost

GREEN_WHITE_VARIS = (
    ["Forest"] * 9
    + ["Plains"] * 8
    + ["Varis, Silverymoon Ranger"] * 2
    + ["Grizzled Outrider"] * 2
    + ["Underdark Basilisk"] * 4
    + ["Rally Maneuver"] * 2
    + ["Veteran Dungeoneer"] * 2
    + ["Nadaar, Selfless Paladin"] * 2
    + ["Gloom Stalker"] * 2
    + ["Cloister Gargoyle"] * 2
    + ["Keen-Eared Sentry"] * 2
    + ["Dungeon Map"] * 1
    + ["Purple Worm"] * 1
    + ["Emerald Dragon"] * 1
)

BLACK_RED = (
    ["Swamp"] * 10
    + ["Mountain"] * 8
    + ["Power Word Kill"] * 2
    + ["Magic Missile"] * 2
    + ["Clattering Skeletons"] * 2
    + ["Yuan-Ti Fang-Blade"] * 2
    + ["Kick in the Door"] * 2
    + ["Dungeon Crawler"] * 4
    + ["Acererak the Archlich"] * 1
    + ["Fates' Reversal"] * 2
    + ["Caves of Chaos Adventurer"] * 2
    + ["Stirring Bard"] * 2
    + ["Dungeon Map"] * 1
)

# Built around the initiative: take it early, keep it with blockers, win it back in combat.
INITIATIVE_WHITE_BLACK = (
    ["Plains"] * 9
    + ["Swamp"] * 9
    + ["White Plume Adventurer"] * 3
    + ["Seasoned Dungeoneer"] * 2
    + ["Passageway Seer"] * 3
    + ["Trailblazer's Torch"] * 1
    + ["Sarevok's Tome"] * 1
    + ["From the Catacombs"] * 1
    + ["Barrowin of Clan Undurr"] * 1
    + ["Triumphant Adventurer"] * 3
    + ["Plate Armor"] * 2
    + ["Power Word Kill"] * 2
    + ["Precipitous Drop"] * 2
    + ["Radiant Solar"] * 1
)

# Blue-red dungeon tempo: fliers and burn.
DELVERS_BLUE_RED = (
    ["Island"] * 9
    + ["Mountain"] * 9
    + ["Eccentric Apprentice"] * 3
    + ["Aarakocra Sneak"] * 2
    + ["Caves of Chaos Adventurer"] * 3
    + ["Stirring Bard"] * 2
    + ["Ray of Frost"] * 2
    + ["Magic Missile"] * 2
    + ["Kick in the Door"] * 3
    + ["Yuan-Ti Malison"] * 3
    + ["Shortcut Seeker"] * 2
)

STARTER_DECKS = {
    "Varis (green-white)": GREEN_WHITE_VARIS,
    "Crawlers (black-red)": BLACK_RED,
    "The initiative (white-black)": INITIATIVE_WHITE_BLACK,
    "Delvers (blue-red)": DELVERS_BLUE_RED,
}


def mana_base_problems(cards: list[str]) -> list[str]:
    """Where a deck's lands fail the colours its spells need (empty when they don't).

    The rule, for each colour in the mana costs of the deck's spells and abilities:
    - a main colour (needed by more than SPLASH_CARDS cards) has at least MAIN_SOURCES sources
      (lands that can make it) and at least its share of the lands that make a main colour,
      rounded to the nearest; its share is its pips among the main colours' pips in the
      spells' costs;
    - a splash (needed by fewer cards) has at least SPLASH_SOURCES sources;
    - a colour a card needs twice ({1}{G}{G}) has at least DOUBLE_PIP_SOURCES sources.
    These are looser than the usual 40-card tables (nine sources for a one-pip two-drop), which
    no two-colour deck of seventeen lands meets in full; they catch what makes a preset unplayable:
    a colour without sources, a double pip on a splash, the lesser colour given more lands.
    """
    counts = Counter(cards)
    lands = {n: k for n, k in counts.items() if "Land" in CARDS[n].types}
    makes = {
        n: {c for a in CARDS[n].activated if a.is_mana_ability for c in a.produces} for n in lands
    }
    pips: Counter[str] = Counter()
    cards_needing: Counter[str] = Counter()
    most: Counter[str] = Counter()
    for name, k in counts.items():
        if name in lands:
            continue
        card = CARDS[name]
        needs: Counter[str] = Counter()
        for cost in [card.cost] + [a.mana for a in card.activated]:
            for colour, n in cost.colored if cost is not None else ():
                needs[colour] = max(needs[colour], n)
        for colour, n in needs.items():
            cards_needing[colour] += k
            most[colour] = max(most[colour], n)
        for colour, n in card.cost.colored if card.cost is not None else ():
            pips[colour] += n * k
    main = {c for c, k in cards_needing.items() if k > SPLASH_CARDS}
    main_pips = sum(pips[c] for c in main)
    main_lands = sum(k for n, k in lands.items() if makes[n] & main)
    problems = []
    for colour in sorted(cards_needing):
        have = sum(k for n, k in lands.items() if colour in makes[n])
        if colour in main:
            share = (2 * pips[colour] * main_lands + main_pips) // (2 * main_pips)
            need = max(MAIN_SOURCES, share)
        else:
            need = SPLASH_SOURCES
        if most[colour] >= 2:
            need = max(need, DOUBLE_PIP_SOURCES)
        if have < need:
            n = cards_needing[colour]
            problems.append(
                f"{{{colour}}}: needed by {n} card{'s' if n != 1 else ''} ({pips[colour]} in "
                f"their costs), made by {have} land{'s' if have != 1 else ''}; it needs {need}."
            )
    return problems
