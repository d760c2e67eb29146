"""One way in: decisions with stable ids; an illegal answer raises and changes nothing."""

from __future__ import annotations

import copy

import pytest

from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine, GameSetup

from .helpers import new_game, position


def test_a_new_game_starts_with_the_coin_flip_winner_choosing_to_play_or_draw():
    # CR 103.1: the winner of the coin flip decides who takes the first turn; then the
    # mulligans, the player who plays first deciding first (CR 103.5).
    for answer in ("play", "draw"):
        game = new_game(seed=3)
        d = game.pending
        assert d is not None and d.kind == "play_or_draw"
        assert [o.label for o in d.options] == ["play", "draw"]
        winner = d.player
        assert any(f"{winner} wins the coin flip" in line for line in game.state.log)
        game.answer(winner, answer)
        first = winner if answer == "play" else game.state.opponent(winner)
        assert game.state.first_player == game.state.active == first
        d = game.pending
        assert d.kind == "mulligan" and d.player == first
        assert [o.label for o in d.options] == ["keep", "mulligan"]


def test_a_game_stored_before_the_play_or_draw_choice_replays_without_it():
    game = new_game(seed=3)
    setup = game.setup
    old = Engine(
        GameSetup(setup.players, setup.seed, setup.decks, setup.dungeons, play_or_draw=False)
    )
    assert old.pending.kind == "mulligan"
    assert old.pending.player == game.pending.player  # the winner played first
    assert any("wins the coin flip and plays first (CR 103.1)" in x for x in old.state.log)


def test_illegal_answers_raise_a_typed_error_listing_the_options_and_change_nothing():
    game = new_game(seed=1)
    before = copy.deepcopy(game.state_json())
    answers_before = list(game.answers)
    d = game.pending
    with pytest.raises(IllegalAnswer) as err:
        game.answer(d.player, "not-an-option")
    assert "play" in str(err.value) and "draw" in str(err.value)
    other = "bob" if d.player == "alice" else "alice"
    with pytest.raises(IllegalAnswer, match="decision"):
        game.answer(other, "play")
    with pytest.raises(IllegalAnswer):
        game.answer(d.player, ["play", "draw"])
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


def test_a_priority_decision_lists_its_options_only_when_asked_and_pass_needs_no_list():
    # Replaying a log answers most priority decisions with "pass"; that answer is legal
    # (CR 117.3) without finding every castable card and activatable ability first.
    game = position({"alice": {"hand": ["Forest"]}})
    d = game.pending
    assert d.kind == "priority" and d._options is None  # nothing listed yet
    game.answer("alice", "pass")
    with pytest.raises(RuntimeError, match="never listed"):
        d.options  # noqa: B018 - the state it would be read from is gone
    # Looked at while pending, the same kind of decision lists what the player can do.
    e = game.pending
    assert e.kind == "priority" and e.player == "bob"
    assert [o.id for o in e.options] == ["pass"]
    with pytest.raises(IllegalAnswer, match="Legal options: pass"):
        game.answer("bob", "play:1")


def test_an_unlisted_priority_decision_still_refuses_what_is_not_an_option():
    game = position({"alice": {"hand": ["Forest"]}})
    forest = game.state.player("alice").hand[0]
    with pytest.raises(IllegalAnswer, match="not an option"):
        game.answer("alice", f"cast:{forest.id}")  # a land is played, not cast
    game.answer("alice", f"play:{forest.id}")
    assert [o.name for o in game.state.battlefield] == ["Forest"]


def test_a_sacrificed_token_ceases_to_exist_at_the_next_check():
    # CR 704.5d: zones.move marks that a token left the battlefield; the check then looks.
    game = position({"alice": {"battlefield": [{"token": "Treasure"}]}})
    treasure = game.state.battlefield[0]
    game.answer("alice", f"act:{treasure.id}:0")
    while game.pending.kind != "priority":  # the Treasure's color of mana
        game.answer("alice", game.pending.options[0].id)
    alice = game.state.player("alice")
    assert not game.state.battlefield and not alice.graveyard
    assert not game.state.tokens_may_be_out


def _searching_among_copies() -> Engine:
    """Alice, holding the initiative, searches with Secret Entrance a library of three Swamps
    and a Mountain (the search comes at her upkeep)."""
    library = ["Swamp", "Mountain", "Swamp", "Swamp"]
    game = position(
        {"alice": {"initiative": True, "library": library}, "bob": {}},
        turn={"number": 2, "active": "bob", "step": "end"},
        seed=5,
    )
    while game.pending.kind == "priority":
        game.answer(game.pending.player, "pass")
    assert game.pending.kind == "search"
    return game


def test_a_search_offers_identical_cards_once_and_still_takes_a_copy_answered_before():
    game = _searching_among_copies()
    d = game.pending
    assert [o.label for o in d.options] == ["Mountain", "Swamp", "find nothing"]
    swamps = [o.id for o in game.state.player("alice").library if o.name == "Swamp"]
    assert d.option(f"o{swamps[0]}").label == "Swamp"
    # A stored game's answer log names the third Swamp: replayed, it finds that very card.
    game.answer("alice", f"o{swamps[2]}")
    assert [o.name for o in game.state.player("alice").hand] == ["Swamp"]
    left = {o.id for o in game.state.player("alice").library}
    assert swamps[2] not in left and {swamps[0], swamps[1]} <= left


def test_each_target_of_a_text_with_two_says_what_it_gets():
    """Rally Maneuver asks for two creatures; each question says which one gets first strike
    and which lifelink (a playtest could not tell). A text with one target phrase is asked as
    before."""
    game = position(
        {
            "alice": {
                "battlefield": ["Grizzled Outrider", "Dungeon Crawler", "Plains", "Plains"]
                + ["Plains"],
                "hand": ["Rally Maneuver"],
            },
            "bob": {},
        },
        turn={"number": 3, "active": "alice", "step": "precombat_main"},
    )
    game.answer(
        "alice", next(o.id for o in game.pending.options if o.label == "cast Rally Maneuver")
    )
    assert game.pending.prompt == (
        "Rally Maneuver: choose target creature, "
        "which gets +2/+0 and gains first strike until end of turn"
    )
    game.answer("alice", game.pending.options[0].id)
    assert game.pending.prompt == (
        "Rally Maneuver: choose up to one other target creature, "
        "which gets +0/+2 and gains lifelink until end of turn"
    )
