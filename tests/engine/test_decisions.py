"""One way in: decisions with stable ids; an illegal answer raises and changes nothing."""

from __future__ import annotations

import copy

import pytest

from game.engine.decisions import IllegalAnswer

from .helpers import new_game, position


def test_a_new_game_starts_with_a_mulligan_decision_for_the_coin_flip_winner():
    game = new_game(seed=3)
    d = game.pending
    assert d is not None and d.kind == "mulligan"
    assert d.player == game.state.first_player
    assert [o.label for o in d.options] == ["keep", "mulligan"]
    assert any("coin flip" in line and "CR 103.1" in line for line in game.state.log)


def test_illegal_answers_raise_a_typed_error_listing_the_options_and_change_nothing():
    game = new_game(seed=1)
    before = copy.deepcopy(game.state_json())
    answers_before = list(game.answers)
    d = game.pending
    with pytest.raises(IllegalAnswer) as err:
        game.answer(d.player, "not-an-option")
    assert "keep" in str(err.value) and "mulligan" in str(err.value)
    other = "bob" if d.player == "alice" else "alice"
    with pytest.raises(IllegalAnswer, match="decision"):
        game.answer(other, "keep")
    with pytest.raises(IllegalAnswer):
        game.answer(d.player, ["keep", "mulligan"])
    assert game.state_json() == before
    assert game.answers == answers_before


def test_multi_select_counts_are_enforced():
    game = position(
        {
            "alice": {"battlefield": ["Grizzled Outrider", "Underdark Basilisk"]},
            "bob": {"battlefield": ["Grizzled Outrider"]},
        },
        turn={"step": "beginning_of_combat"},
    )
    game.answer("alice", "pass")
    game.answer("bob", "pass")
    d = game.pending
    assert d.kind == "declare_attackers" and d.multi
    ids = [o.id for o in d.options]
    with pytest.raises(IllegalAnswer, match="twice"):
        game.answer("alice", [ids[0], ids[0]])
    game.answer("alice", ids)
    assert len(game.state.combat.attackers) == 2


def test_stable_option_ids_do_not_depend_on_labels():
    game = position({"alice": {"hand": ["Forest", "Forest"]}})
    d = game.pending
    labels = [o.label for o in d.options]
    assert "play Forest #1" in labels and "play Forest #2" in labels
    ids = {o.id for o in d.options}
    again = position({"alice": {"hand": ["Forest", "Forest"]}}).pending
    assert {o.id for o in again.options} == ids
