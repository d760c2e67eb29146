"""A position is the same game whatever the order of its setup's player keys.

The setup is stored as JSON, and PostgreSQL's jsonb gives an object's keys back sorted (shorter
keys first), so a game started from a scenario whose first player has the longer name was
replayed with its objects numbered the other way round: other option ids ('cast:9' instead of
'cast:2') than the live game's, in another process or after a restart. Object ids are given out
in seat order, whatever order the mapping has."""

from __future__ import annotations

import random

from game.engine.bot import random_answer

from .helpers import position

ALICE = {
    "hand": ["Keen-Eared Sentry", "Gloom Stalker"],
    "battlefield": ["Forest", "Forest", {"card": "Plains", "tapped": True}],
    "library": ["Forest", "Plains", "Forest"],
}
BOB = {"hand": ["Power Word Kill", "Zombie Ogre"], "battlefield": ["Swamp"], "library": ["Swamp"]}


def _played(setup: dict) -> list:
    game = position(setup, {"active": "alice"}, seed=3)
    rng = random.Random(3)
    states = [game.state_json()]
    for _ in range(25):
        d = game.pending
        if d is None:
            break
        game.answer(d.player, random_answer(d, rng))
        states.append(game.state_json())
    return states


def test_the_setups_key_order_changes_no_object_id():
    in_seat_order = _played({"alice": ALICE, "bob": BOB})
    reversed_keys = _played({"bob": BOB, "alice": ALICE})
    players = in_seat_order[0]["players"]
    assert max(players["alice"]["hand_ids"]) < min(players["bob"]["hand_ids"])  # seat order
    assert in_seat_order == reversed_keys


def test_a_game_stored_before_replays_in_its_mappings_order():
    """A game stored before ids were given out in seat order was played, and logged, with its
    mapping's order: its setup has no "position_ids" key and replays that way
    (services.engine_setup)."""
    from dungeons.official import official_dungeons
    from game.engine.game import Engine, GameSetup

    def ids(in_mapping_order: bool) -> dict:
        setup = GameSetup(
            players=["alice", "bob"],
            seed=3,
            dungeons=official_dungeons(),
            position={"turn": {"active": "alice"}, "setup": {"bob": BOB, "alice": ALICE}},
            position_in_mapping_order=in_mapping_order,
        )
        players = Engine(setup).state_json()["players"]
        return {name: players[name]["hand_ids"] for name in ("alice", "bob")}

    old, new = ids(True), ids(False)
    assert max(old["bob"]) < min(old["alice"])  # bob's listed first: numbered first, as then
    assert max(new["alice"]) < min(new["bob"])
