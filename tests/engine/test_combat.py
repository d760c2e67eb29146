"""Blocks and combat damage division: the data a board needs, exact refusals, the division."""

from __future__ import annotations

import pytest

from game.engine.combat_damage import MAX_DIVISIONS, divisions, usual_division
from game.engine.decisions import IllegalAnswer

from .helpers import position


def _to_blocks(setup: dict) -> object:
    game = position(setup, turn={"number": 3, "active": "alice", "step": "beginning_of_combat"})
    game.answer("alice", "pass")
    game.answer("bob", "pass")
    d = game.pending
    assert d.kind == "declare_attackers"
    game.answer("alice", [o.id for o in d.options if "->" not in o.label])
    game.answer("alice", "pass")
    game.answer("bob", "pass")
    return game


def _ids(game, *labels: str) -> list[str]:
    by_label = {o.label: o.id for o in game.pending.options}
    return [by_label[label] for label in labels]


def test_blocks_offer_only_legal_pairs_and_publish_their_objects_and_constraints():
    game = _to_blocks(
        {
            "alice": {"battlefield": ["Emerald Dragon", {"token": "Skeleton 4/1 menace"}]},
            "bob": {"battlefield": ["Varis, Silverymoon Ranger", "Gloom Stalker"]},
        }
    )
    d = game.pending
    assert d.kind == "declare_blockers"
    # Gloom Stalker can't block the flying Dragon; both may block the Skeleton (menace).
    assert sorted(o.label for o in d.options) == [
        "Gloom Stalker blocks Skeleton",
        "Varis, Silverymoon Ranger blocks Emerald Dragon",
        "Varis, Silverymoon Ranger blocks Skeleton",
    ]
    data = d.to_json()
    names = {o.id: game.state.find(o.objs[0]).name for o in d.options}
    for oid, objs in zip(data["option_ids"], data["option_objs"], strict=True):
        blocker, attacker = (game.state.find(i) for i in objs)
        assert blocker.controller == "bob" and attacker.controller == "alice"
        assert names[oid] == blocker.name
    skeleton = next(o for o in game.state.battlefield if o.name == "Skeleton")
    assert data["constraints"] == {"one_attacker_per_blocker": True, "menace": [skeleton.id]}
    assert data["max"] == 2  # two creatures can block, whatever the number of pairs


def test_a_refused_block_says_exactly_what_is_wrong_and_nothing_else():
    game = _to_blocks(
        {
            "alice": {"battlefield": ["Grizzled Outrider", {"token": "Skeleton 4/1 menace"}]},
            "bob": {"battlefield": ["Gloom Stalker", "Keen-Eared Sentry"]},
        }
    )
    before = game.state_json()
    with pytest.raises(IllegalAnswer) as err:
        game.answer(
            "bob",
            _ids(game, "Gloom Stalker blocks Grizzled Outrider", "Gloom Stalker blocks Skeleton"),
        )
    assert str(err.value) == (
        "Gloom Stalker can't block both Grizzled Outrider and Skeleton: a creature blocks only "
        "one attacker (CR 509.1a)."
    )
    with pytest.raises(IllegalAnswer) as err:
        game.answer("bob", _ids(game, "Keen-Eared Sentry blocks Skeleton"))
    assert str(err.value) == (
        "Skeleton has menace: it can't be blocked except by two or more creatures (CR 702.110b)."
    )
    assert "choose" not in str(err.value)
    assert game.state_json() == before
    game.answer(
        "bob", _ids(game, "Gloom Stalker blocks Skeleton", "Keen-Eared Sentry blocks Skeleton")
    )
    view = game.view_for(None)["players"]
    skeleton = next(p for p in view["alice"]["battlefield"] if p["name"] == "Skeleton")
    assert skeleton["attacks"] == "bob" and len(skeleton["blocked_by"]) == 2
    assert all(p["blocks"] == skeleton["id"] for p in view["bob"]["battlefield"])


def test_the_usual_division_is_first_and_every_division_is_offered_once():
    # Outrider (5) blocked by a Zombie (2/2) and a Goblin (1/1): 6 ways, lethal-first first.
    assert usual_division(5, [2, 1], trample=False) == (2, 3)
    shares = list(divisions(5, [2, 1], trample=False))
    assert len(shares) == len(set(shares)) == 6 and all(sum(s) == 5 for s in shares)
    # Trample: the player gets damage only when every blocker has lethal.
    assert usual_division(5, [2, 1], trample=True) == (2, 1, 2)
    trample = list(divisions(5, [2, 1], trample=True))
    assert all(s[2] == 0 or (s[0] >= 2 and s[1] >= 1) for s in trample)
    assert (2, 1, 2) in trample and (1, 1, 3) not in trample
    # Not enough for lethal to all: the usual division stops at what there is.
    assert usual_division(2, [3, 3], trample=True) == (2, 0, 0)


def _to_damage(setup: dict) -> object:
    game = _to_blocks(setup)
    d = game.pending
    game.answer("bob", [o.id for o in d.options])
    game.answer("bob" if game.pending.player == "bob" else "alice", "pass")
    game.answer(game.pending.player, "pass")
    return game


def test_identical_blockers_are_told_apart_in_the_division():
    game = _to_damage(
        {
            "alice": {"battlefield": ["Grizzled Outrider"]},
            "bob": {"battlefield": [{"token": "Goblin"}, {"token": "Goblin"}]},
        }
    )
    d = game.pending
    assert d.kind == "assign_combat_damage" and d.player == "alice"
    assert d.options[0].label == "1 to Goblin #1, 4 to Goblin #2"
    assert "5 to Goblin #2" in [o.label for o in d.options]
    first, second = d.options[0].objs
    assert game.state.find(first).name == game.state.find(second).name == "Goblin"


def test_a_division_too_large_to_list_is_asked_recipient_by_recipient():
    setup = {
        "alice": {"battlefield": [{"card": "Grizzled Outrider", "counters": {"+1/+1": 15}}]},
        "bob": {"battlefield": ["Zombie Ogre", "Gloom Stalker", "Keen-Eared Sentry"]},
    }
    assert sum(1 for _ in divisions(20, [5, 3, 1], trample=False)) > MAX_DIVISIONS
    game = _to_damage(setup)
    d = game.pending
    assert d.kind == "assign_combat_damage_part" and d.player == "alice"
    assert d.options[0].label == "5 to Zombie Ogre"  # the usual amount first
    assert len(d.options) == 21  # 0 to 20
    game.answer("alice", next(o.id for o in d.options if o.label == "18 to Zombie Ogre"))
    d = game.pending
    assert d.kind == "assign_combat_damage_part"
    assert sorted(o.label for o in d.options) == sorted(f"{n} to Gloom Stalker" for n in range(3))
    game.answer("alice", next(o.id for o in d.options if o.label == "1 to Gloom Stalker"))
    # The Sentry gets what is left: 1.
    assert any(
        "18 to Zombie Ogre, 1 to Gloom Stalker, 1 to Keen-Eared Sentry" in x for x in game.state.log
    )
    bob = {o.name: o for o in game.state.battlefield if o.controller == "bob"}
    assert "Keen-Eared Sentry" not in bob and "Zombie Ogre" not in bob
    assert bob["Gloom Stalker"].damage == 1


def test_one_blocker_without_trample_takes_everything_without_a_question():
    game = _to_damage(
        {
            "alice": {"battlefield": ["Grizzled Outrider"]},
            "bob": {"battlefield": ["Zombie Ogre"]},
        }
    )
    assert game.pending.kind == "priority" and game.state.step == "combat_damage"


def test_one_blocker_for_two_attackers_is_refused_by_the_rule_not_by_a_count():
    game = _to_blocks(
        {
            "alice": {"battlefield": ["Grizzled Outrider", "Keen-Eared Sentry"]},
            "bob": {"battlefield": ["Gloom Stalker"]},
        }
    )
    assert game.pending.max_count == 1
    with pytest.raises(IllegalAnswer) as err:
        game.answer(
            "bob",
            _ids(
                game,
                "Gloom Stalker blocks Grizzled Outrider",
                "Gloom Stalker blocks Keen-Eared Sentry",
            ),
        )
    assert str(err.value).startswith("Gloom Stalker can't block both Grizzled Outrider and")


def test_a_game_with_a_division_replays_to_the_same_state():
    from game.engine.game import replay

    game = _to_damage(
        {
            "alice": {"battlefield": ["Grizzled Outrider"]},
            "bob": {"battlefield": [{"token": "Goblin"}, {"token": "Zombie"}]},
        }
    )
    d = game.pending
    game.answer("alice", next(o.id for o in d.options if o.label == "5 to Zombie"))
    again = replay(game.setup, game.answers)
    assert again.state_json() == game.state_json()
    bob = {o.name: o for o in again.state.battlefield if o.controller == "bob"}
    assert "Goblin" in bob and "Zombie" not in bob
