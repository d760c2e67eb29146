"""What the computer remembers having seen, kept in its guesses of hidden cards (game/ai/memory.py,
docs/ai.md "It never peeks"): the cards its scry showed it and where it put them, the cards it
put on the bottom after a mulligan, a card of the other player's gone back to their hand; and
what it forgets (a shuffle)."""

from __future__ import annotations

import random
from collections import Counter

from game.ai.memory import seen_by
from game.ai.worlds import sample_world
from game.engine import kinds
from game.engine.game import Engine, replay
from game.scenario.loader import parse_scenario
from game.scenario.runner import build_game, play_script

from .helpers import COMPUTER, OTHER, play, setup_for

WORLDS = 8

SCRY = """
name: bob scries 1 with Dungeon Map's venture into Lost Mine of Phandelver (Cave Entrance)
turn: {number: 5, active: bob, step: precombat_main}
setup:
  alice:
    hand: [Forest, Forest]
    library: [Forest, Forest, Forest]
  bob:
    battlefield: [Dungeon Map, Plains, Plains, Plains]
    library: [Island, Forest, Swamp, Mountain, Plains]
script:
  - bob: "activate Dungeon Map: {3}, {T}"
  - resolve
  - bob: Lost Mine of Phandelver
  - resolve
  - check: {pending: {player: bob, kind: scry, options: [Island]}}
  - bob: %s
"""

# Deep Mines' scry 3 puts three cards on the bottom; Fates' Reversal's venture completes the
# dungeon (Mad Wizard's Lair draws three from the top), and White Plume Adventurer's initiative
# enters Undercity, whose Secret Entrance searches the library and shuffles it.
SHUFFLED = """
name: bob scries three cards to the bottom, then his library is shuffled
turn: {number: 5, active: bob, step: precombat_main}
setup:
  alice:
    hand: [Forest, Forest]
    library: [Forest, Forest, Forest]
  bob:
    hand: [White Plume Adventurer, "Fates' Reversal"]
    battlefield: [Dungeon Map, Plains, Plains, Plains, Plains, Swamp, Swamp, Swamp, Swamp]
    library: [Island, Forest, Swamp, Mountain, Plains, Island, Forest, Swamp, Mountain, Plains]
    dungeon: {name: Dungeon of the Mad Mage, room: "Muiral's Graveyard"}
script:
  - bob: "activate Dungeon Map: {3}, {T}"
  - resolve
  - resolve
  - check: {pending: {player: bob, kind: scry, options: [Island, Forest, Swamp]}}
  - bob: [Island, Forest, Swamp]
  - bob: "cast Fates' Reversal"
  - resolve
  - resolve
  - bob: cast White Plume Adventurer
  - resolve: all
  - check: {pending: {player: bob, kind: search}}
"""

RETURNED = """
name: alice returns Clattering Skeletons from her graveyard to her hand with Fates' Reversal
turn: {number: 5, active: alice, step: precombat_main}
setup:
  alice:
    hand: ["Fates' Reversal", Swamp, Swamp, Mountain]
    graveyard: [Clattering Skeletons]
    battlefield: [Swamp, Swamp]
    library: [Swamp, Mountain, Kick in the Door, Magic Missile, Swamp, Mountain]
  bob:
    battlefield: [Forest]
    library: [Forest, Forest, Forest]
script:
  - alice: "cast Fates' Reversal"
  - alice: [Clattering Skeletons]
  - resolve
  - alice: Lost Mine of Phandelver
  - resolve
"""


def _game(text: str) -> Engine:
    scenario = parse_scenario(text)
    game = build_game(scenario)
    play_script(scenario, game)
    return game


def _worlds(game: Engine) -> list[Engine]:
    return [sample_world(game, COMPUTER, random.Random(seed)) for seed in range(WORLDS)]


def test_a_card_it_scried_to_the_top_stays_on_top_in_its_guesses():
    game = _game(SCRY % "[]")
    assert [o.name for o in game.state.player(COMPUTER).library][:1] == ["Island"]
    tops = {w.state.player(COMPUTER).library[0].name for w in _worlds(game)}
    assert tops == {"Island"}


def test_a_card_it_scried_to_the_bottom_stays_at_the_bottom_in_its_guesses():
    game = _game(SCRY % "[Island]")
    bottoms = {w.state.player(COMPUTER).library[-1].name for w in _worlds(game)}
    assert bottoms == {"Island"}


def test_it_forgets_where_its_cards_are_once_its_library_is_shuffled():
    game = _game(SHUFFLED)
    bottom = ["Island", "Forest", "Swamp"]
    assert [o.name for o in game.state.player(COMPUTER).library][-3:] == bottom
    for world in _worlds(game):
        assert [o.name for o in world.state.player(COMPUTER).library][-3:] == bottom
    game.answer(COMPUTER, "none")  # find nothing; the library is shuffled
    assert not seen_by(game, COMPUTER).own_placed
    bottoms = {tuple(o.name for o in w.state.player(COMPUTER).library[-3:]) for w in _worlds(game)}
    assert len(bottoms) > 1


def test_a_card_the_other_player_took_back_to_hand_stays_in_that_hand_in_its_guesses():
    game = _game(RETURNED)
    hand = game.state.player(OTHER).hand
    assert "Clattering Skeletons" in [o.name for o in hand]
    assert seen_by(game, COMPUTER).their_hand == Counter({"Clattering Skeletons": 1})
    for world in _worlds(game):
        assert "Clattering Skeletons" in [o.name for o in world.state.player(OTHER).hand]


def test_the_cards_it_put_on_the_bottom_after_a_mulligan_stay_there_in_its_guesses():
    deck = ["Purple Worm", "Forest", "Forest", "Mountain", "Swamp"] + ["Island"] * 7
    setup_text = f"""
name: bob takes a mulligan and puts a card on the bottom
seed: 0
deal: true
setup:
  alice: {{library: [Forest, Forest, Forest, Forest, Forest, Forest, Forest, Forest]}}
  bob: {{library: [{", ".join(deck)}]}}
script: []
"""
    game = _game(setup_text)
    d = game.pending
    game.answer(d.player, "play" if d.player == COMPUTER else "draw")  # bob plays first
    game.answer(COMPUTER, "mulligan")
    game.answer(OTHER, "keep")
    game.answer(COMPUTER, "keep")
    d = game.pending
    assert d is not None and d.kind == kinds.MULLIGAN_BOTTOM and d.player == COMPUTER
    names = {o.id: game.state.find(o.objs[0]).name for o in d.options}
    name = next(n for n in names.values() if n in ("Purple Worm", "Mountain", "Swamp"))
    game.answer(COMPUTER, [next(i for i, n in names.items() if n == name)])
    assert game.state.player(COMPUTER).library[-1].name == name
    for world in _worlds(game):
        assert world.state.player(COMPUTER).library[-1].name == name


def test_the_memory_taken_up_where_it_stopped_is_the_memory_of_a_fresh_replay():
    seed = 2
    game = Engine(setup_for(seed))
    checked = 0
    for n, g in enumerate(play(game, seed, {OTHER: "random", COMPUTER: "medium"}, 600)):
        if n % 40 == 0:
            fresh = replay(g.setup, g.answers)
            assert seen_by(g, COMPUTER) == seen_by(fresh, COMPUTER)
            checked += 1
    assert checked >= 5


def test_a_world_holds_no_real_hidden_deck_or_seed():
    game = _game(RETURNED)
    for world in _worlds(game):
        assert world.setup.seed != game.setup.seed
        position = world.setup.position or {}
        alice = position["setup"]["alice"]
        assert "hand" not in alice and "library" not in alice
        assert "library" not in position["setup"]["bob"]
