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


def _answer(game, label: str | list[str]) -> None:
    d = game.pending
    by_label = {o.label: o.id for o in d.options}
    ids = [by_label[x] for x in label] if isinstance(label, list) else by_label[label]
    game.answer(d.player, ids)


def test_nothing_waits_to_go_on_the_stack_once_the_game_is_over():
    """The Crawler's combat damage kills bob, who holds the initiative: the initiative's trigger
    (its attacker takes it, CR 725.2) has nowhere to go once the game is over (CR 104.1), and
    no view says it waits (a playtester saw it listed, credited to the loser, at game over)."""
    game = position(
        {
            "alice": {"battlefield": ["Dungeon Crawler"]},
            "bob": {"life": 1, "initiative": True},
        },
        turn={"number": 3, "active": "alice", "step": "beginning_of_combat"},
    )
    while game.pending.kind != "declare_attackers":
        _answer(game, "pass")
    _answer(game, ["Dungeon Crawler"])
    while game.pending is not None:
        _answer(game, "pass")
    assert game.state.over and game.state.winner == "alice"
    assert game.state.pending_triggers, "the initiative's trigger did trigger"
    for seat in ("alice", "bob", None):
        assert game.view_for(seat)["waiting_triggers"] == []
