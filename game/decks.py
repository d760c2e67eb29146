"""Preset decks from the implemented pool (lobby presets, random-play tests, benchmarks).

Each is legal under the deck rules: at least 40 cards, at most four copies of a non-basic card."""

from __future__ import annotations

GREEN_WHITE_VARIS = (
    ["Forest"] * 9
    + ["Plains"] * 7
    + ["Varis, Silverymoon Ranger"] * 2
    + ["Grizzled Outrider"] * 2
    + ["Underdark Basilisk"] * 3
    + ["Rally Maneuver"] * 2
    + ["Veteran Dungeoneer"] * 2
    + ["Nadaar, Selfless Paladin"] * 1
    + ["Gloom Stalker"] * 2
    + ["Cloister Gargoyle"] * 2
    + ["Keen-Eared Sentry"] * 2
    + ["Dungeon Map"] * 1
    + ["Purple Worm"] * 1
    + ["Emerald Dragon"] * 1
    + ["Hama Pashar, Ruin Seeker"] * 1
    + ["Island"] * 1
    + ["Triumphant Adventurer"] * 1
)

BLACK_RED_BLUE = (
    ["Swamp"] * 8
    + ["Mountain"] * 5
    + ["Island"] * 4
    + ["Power Word Kill"] * 2
    + ["Magic Missile"] * 2
    + ["Clattering Skeletons"] * 2
    + ["Yuan-Ti Fang-Blade"] * 2
    + ["Kick in the Door"] * 2
    + ["Zombie Ogre"] * 1
    + ["Dungeon Crawler"] * 2
    + ["Acererak the Archlich"] * 1
    + ["Fates' Reversal"] * 2
    + ["Yuan-Ti Malison"] * 2
    + ["Shortcut Seeker"] * 2
    + ["Bar the Gate"] * 2
    + ["Dungeon Map"] * 1
)

# Built around the initiative: take it early, keep it with blockers, win it back in combat.
INITIATIVE_WHITE_BLACK = (
    ["Plains"] * 9
    + ["Swamp"] * 8
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
    + ["Gloom Stalker"] * 1
)

# Blue-red dungeon tempo: fliers and burn, with green for Ellywick and the Dragon.
DELVERS_BLUE_RED_GREEN = (
    ["Island"] * 7
    + ["Mountain"] * 6
    + ["Forest"] * 4
    + ["Eccentric Apprentice"] * 3
    + ["Aarakocra Sneak"] * 2
    + ["Caves of Chaos Adventurer"] * 2
    + ["Stirring Bard"] * 1
    + ["Ray of Frost"] * 2
    + ["Magic Missile"] * 2
    + ["Kick in the Door"] * 2
    + ["Yuan-Ti Malison"] * 2
    + ["Shortcut Seeker"] * 1
    + ["Undermountain Adventurer"] * 2
    + ["Ellywick Tumblestrum"] * 1
    + ["Emerald Dragon"] * 1
    + ["Dungeon Descent"] * 1
    + ["Rilsa Rael, Kingpin"] * 1
)

STARTER_DECKS = {
    "Varis (green-white)": GREEN_WHITE_VARIS,
    "Crawlers (black-red-blue)": BLACK_RED_BLUE,
    "The initiative (white-black)": INITIATIVE_WHITE_BLACK,
    "Delvers (blue-red-green)": DELVERS_BLUE_RED_GREEN,
}
