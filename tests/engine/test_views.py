"""Hidden information: view_for(seat) shows counts for what the seat may not see."""

from __future__ import annotations

import json

from .helpers import position


def _game():
    return position(
        {
            "alice": {"hand": ["Power Word Kill"], "library": ["Purple Worm", "Swamp"]},
            "bob": {
                "hand": ["Magic Missile", "Bar the Gate"],
                "library": ["Acererak the Archlich"],
            },
        }
    )


def test_each_seat_sees_its_own_hand_and_only_counts_of_the_rest():
    game = _game()
    alice = game.view_for("alice")
    assert alice["players"]["alice"]["hand"] == ["Power Word Kill"]
    assert alice["players"]["bob"]["hand"] is None
    assert alice["players"]["bob"]["hand_count"] == 2
    assert alice["players"]["alice"]["library"] is None
    assert alice["players"]["alice"]["library_count"] == 2
    text = json.dumps(alice)
    for hidden in ("Magic Missile", "Bar the Gate", "Acererak the Archlich", "Purple Worm"):
        assert hidden not in text


def test_a_spectator_sees_no_hand_and_the_opponent_sees_no_options():
    game = _game()
    spectator = json.dumps(game.view_for(None))
    for hidden in ("Power Word Kill", "Magic Missile", "Bar the Gate"):
        assert hidden not in spectator
    bob = game.view_for("bob")
    assert bob["pending"] == {"player": "alice", "kind": "priority"}
    assert "Power Word Kill" not in json.dumps(bob)


def test_the_judge_view_shows_everything():
    state = _game().state_json()
    assert state["players"]["bob"]["hand"] == ["Magic Missile", "Bar the Gate"]
    assert state["players"]["alice"]["library"] == ["Purple Worm", "Swamp"]
