"""A creature Ray of Frost holds tapped (it doesn't untap during its controller's untap step,
CR 502.3) in the computer's reading of the next attack: out of it, unless its controller untaps
a creature at the other player's upkeep first (White Plume Adventurer)."""

from __future__ import annotations

import pytest

from game.ai.block_problem import block_race
from game.engine.game import Engine
from tests.engine.helpers import position


def _alice_attacks(home: str) -> Engine:
    """Alice's turn; her Caves of Chaos Adventurer (5/3) is tapped under bob's Ray of Frost, and
    `home` (a 3-power creature) is untapped beside it. The race bob blocks by counts what could
    attack him on alice's next turn."""
    return position(
        {
            "alice": {
                "library": ["Plains"] * 5,
                "battlefield": [
                    "Plains",
                    home,
                    {"card": "Caves of Chaos Adventurer", "tapped": True, "as": "adventurer"},
                ],
            },
            "bob": {
                "library": ["Island"] * 5,
                "battlefield": [
                    "Island",
                    "Island",
                    {"card": "Ray of Frost", "attached_to": "adventurer"},
                ],
            },
        },
        {"number": 11, "active": "alice", "step": "precombat_main"},
    )


@pytest.mark.parametrize(
    ("home", "coming"),
    [
        # Frozen through alice's untap step: only the Dungeoneer comes.
        ("Veteran Dungeoneer", 3),
        # White Plume untaps a creature of alice's at bob's upkeep, before her next attack: the
        # Adventurer's 5 come too.
        ("White Plume Adventurer", 3 + 5),
    ],
)
def test_a_frozen_creature_attacks_next_turn_only_when_it_is_untapped_first(
    home: str, coming: int
) -> None:
    game = _alice_attacks(home)
    assert block_race(game.state, "bob").home == coming
