"""Dungeon data: the four official dungeons are valid, their arrows match the printed cards
(each room's arrows as printed on the cards, transcribed here), and the validator names the
room for every kind of broken dungeon."""

from __future__ import annotations

import copy

import pytest

from dungeons.official import official_dungeon_dicts, official_dungeons
from game.engine.dungeon import DungeonError, dungeon_from_dict, validate_dungeon_dict
from tests.dungeon_samples import cellar

# The printed dungeon cards: room -> rooms it leads to, in printed order (top room first).
PRINTED_ARROWS = {
    "Tomb of Annihilation": {
        "Trapped Entry": ["Veils of Fear", "Oubliette"],
        "Veils of Fear": ["Sandfall Cell"],
        "Sandfall Cell": ["Cradle of the Death God"],
        "Oubliette": ["Cradle of the Death God"],
        "Cradle of the Death God": [],
    },
    "Lost Mine of Phandelver": {
        "Cave Entrance": ["Goblin Lair", "Mine Tunnels"],
        "Goblin Lair": ["Storeroom", "Dark Pool"],
        "Mine Tunnels": ["Dark Pool", "Fungi Cavern"],
        "Storeroom": ["Temple of Dumathoin"],
        "Dark Pool": ["Temple of Dumathoin"],
        "Fungi Cavern": ["Temple of Dumathoin"],
        "Temple of Dumathoin": [],
    },
    "Dungeon of the Mad Mage": {
        "Yawning Portal": ["Dungeon Level"],
        "Dungeon Level": ["Goblin Bazaar", "Twisted Caverns"],
        "Goblin Bazaar": ["Lost Level"],
        "Twisted Caverns": ["Lost Level"],
        "Lost Level": ["Runestone Caverns", "Muiral's Graveyard"],
        "Runestone Caverns": ["Deep Mines"],
        "Muiral's Graveyard": ["Deep Mines"],
        "Deep Mines": ["Mad Wizard's Lair"],
        "Mad Wizard's Lair": [],
    },
    "Undercity": {
        "Secret Entrance": ["Forge", "Lost Well"],
        "Forge": ["Trap!", "Arena"],
        "Lost Well": ["Arena", "Stash"],
        "Trap!": ["Archives"],
        "Arena": ["Archives", "Catacombs"],
        "Stash": ["Catacombs"],
        "Archives": ["Throne of the Dead Three"],
        "Catacombs": ["Throne of the Dead Three"],
        "Throne of the Dead Three": [],
    },
}
PRINTED_TEXT = {
    "Cave Entrance": "Scry 1.",
    "Fungi Cavern": "Target creature gets -4/-0 until your next turn.",
    "Oubliette": "Discard a card and sacrifice an artifact, a creature, and a land.",
    "Mad Wizard's Lair": (
        "Draw three cards and reveal them. You may cast one of them without paying its mana cost."
    ),
    "Trap!": "Target player loses 5 life.",
}


def test_every_official_dungeon_is_valid():
    for data in official_dungeon_dicts():
        assert validate_dungeon_dict(data) == []


@pytest.mark.parametrize("name", sorted(PRINTED_ARROWS))
def test_arrows_and_room_names_match_the_printed_card(name):
    spec = official_dungeons()[name]
    assert {r: list(room.leads_to) for r, room in spec.rooms.items()} == PRINTED_ARROWS[name]
    assert spec.top == next(iter(PRINTED_ARROWS[name]))
    bottom = [r for r, room in spec.rooms.items() if room.bottommost]
    assert bottom == [r for r, leads in PRINTED_ARROWS[name].items() if not leads]


def test_printed_text_and_subtype():
    specs = official_dungeons()
    rooms = {r: room for s in specs.values() for r, room in s.rooms.items()}
    for room, text in PRINTED_TEXT.items():
        assert rooms[room].text == text
    assert specs["Undercity"].subtype == "Undercity"
    assert [s.subtype for n, s in specs.items() if n != "Undercity"] == [None, None, None]


def _small() -> dict:
    return cellar()


def _broken(change) -> list[str]:
    data = copy.deepcopy(_small())
    change(data)
    return validate_dungeon_dict(data)


def test_a_custom_dungeon_is_valid():
    assert validate_dungeon_dict(_small()) == []
    assert dungeon_from_dict(_small()).top == "Stairs"


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda d: d["rooms"][3]["leads_to"].append("Stairs"), "cycle"),
        (lambda d: d["rooms"][0]["leads_to"].remove("Right"), "Nothing leads to room 'Right'"),
        (lambda d: d["rooms"][1].update(name="Right"), "Two rooms are named 'Right'"),
        (lambda d: d["rooms"][3]["leads_to"].append("Left"), "cycle"),
        (lambda d: d["rooms"][2].update(text=""), "Room 'Right' has no text"),
        (
            lambda d: d["rooms"][2]["effect"].append({"op": "explode"}),
            "unknown operation 'explode'",
        ),
        (lambda d: d["rooms"][1]["effect"][0].update(amount="one"), "amount has the wrong type"),
        (lambda d: d["rooms"][1]["effect"][0].update(colour=1), "unknown parameter 'colour'"),
        (lambda d: d["rooms"][0]["leads_to"].append("Nowhere"), "'Nowhere', which is not a room"),
        (lambda d: d["rooms"][3]["effect"][0].update(token="Dragon"), "unknown token 'Dragon'"),
        (lambda d: d.update(rooms=[]), "needs a list of rooms"),
    ],
)
def test_the_validator_names_the_problem(change, fragment):
    problems = _broken(change)
    assert any(fragment in p for p in problems), problems


def test_no_bottommost_room_is_reported():
    data = _small()
    data["rooms"] = data["rooms"][:1]
    data["rooms"][0]["leads_to"] = ["Stairs"]
    problems = validate_dungeon_dict(data)
    assert any("cycle" in p for p in problems)
    assert any("no bottommost room" in p for p in problems)


def test_building_an_invalid_dungeon_raises():
    data = _small()
    data["rooms"][2]["text"] = " "
    with pytest.raises(DungeonError, match="Right"):
        dungeon_from_dict(data)
