"""The pace feature's stops: whether a player is asked never depends on what their hand holds,
so the pace of the game tells the opponent nothing about it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine
from game.engine.priority import priority_decision
from game.engine.state import GameState
from game.engine.stops import (
    ALL_STOP_KEYS,
    DEFAULT_STOPS,
    THEIR_TRIGGERS,
    cheapest_from_hand,
    destination,
    passed_because,
    stop_key_problem,
    stops_at,
    stops_from,
)

from .helpers import new_game, position

DECKS = list(STARTER_DECKS.values())


def _swap_hand_with_library(g: GameState, player: str, k: int) -> None:
    """Exchange the player's hand with `k`-th window of their library (same number of cards),
    so the hand holds other cards while everything public stays as it was."""
    p = g.player(player)
    n = len(p.hand)
    window = p.library[k : k + n]
    for a, b in zip(p.hand, window, strict=True):
        a.zone, b.zone = "library", "hand"
    p.hand[:], p.library[k : k + n] = window, p.hand[:]


def _priority_moments(seed: int) -> Iterator[tuple[Engine, str]]:
    """Every priority decision of a random game between two preset decks."""
    rng = random.Random(seed)
    decks = rng.sample(DECKS, 2)
    game = new_game(seed, {"alice": list(decks[0]), "bob": list(decks[1])})
    for _ in range(1500):
        d = game.pending
        if d is None:
            return
        if d.kind == "priority":
            yield game, d.player
        try:
            game.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            game.answer(d.player, [] if d.multi else d.options[0].id)


# Stop settings a player may have: the defaults, the defaults and the opponent's triggers, every
# stop, none, and only the opponent's end.
STOP_SETS = [
    DEFAULT_STOPS,
    DEFAULT_STOPS | {THEIR_TRIGGERS},
    ALL_STOP_KEYS,
    frozenset(),
    frozenset({"theirs:end"}),
]


def _pace_seen(g: GameState, player: str) -> list[tuple[bool, str | None, str]]:
    """Everything the pace feature shows of this moment, for each stop set: whether the player
    is stopped, the log's explanation of a pass, and the pass button's words."""
    d = priority_decision(g, player)
    return [
        (stops_at(g, d, stops), passed_because(g, d, stops), destination(g, player, stops))
        for stops in STOP_SETS
    ]


@pytest.mark.parametrize("seed", range(6))
def test_the_stop_decision_is_the_same_whatever_the_hand_holds(seed):
    checked = leaky_differs = their_triggers = 0
    for game, player in _priority_moments(seed):
        g = game.state
        p = g.player(player)
        if not p.hand or len(p.library) < len(p.hand):
            continue
        their_triggers += (
            bool(g.stack) and g.stack[-1].triggered and g.stack[-1].controller != player
        )
        original = _pace_seen(g, player)
        could_act = _could_act(g, player)
        for k in (0, max(0, len(p.library) - len(p.hand))):
            _swap_hand_with_library(g, player, k)
            try:
                assert _pace_seen(g, player) == original, (g.turn, g.step, player)
                leaky_differs += _could_act(g, player) != could_act
            finally:
                _swap_hand_with_library(g, player, k)
        checked += 1
    assert checked > 50
    assert their_triggers > 0  # moments the stop on the opponent's triggers decides
    # The samples can tell: stopping only when the player could act (the rule this replaces)
    # does change with the hand in these same moments.
    assert leaky_differs > 0


def _could_act(g: GameState, player: str) -> bool:
    d = priority_decision(g, player)
    return any(o.id != "pass" and o.data != "mana" for o in d.options)


def test_an_empty_hand_with_nothing_to_activate_is_passed_and_a_held_card_stops_in_windows():
    game = new_game(3)
    for _ in range(400):  # to the first main phase with a priority decision
        d = game.pending
        if d.kind == "priority" and game.state.step == "precombat_main":
            break
        game.answer(d.player, [] if d.multi else random_answer(d, random.Random(1)))
    g = game.state
    me = game.pending.player
    assert g.active == me and not g.stack
    assert stops_at(g, priority_decision(g, me))  # your own main phase, cards in hand
    held = list(g.player(me).hand)
    g.player(me).hand.clear()
    try:
        d = priority_decision(g, me)
        public = any(
            o.id != "pass" and o.data != "mana" for o in d.options
        )  # e.g. a land's ability
        assert stops_at(g, d) == public
    finally:
        g.player(me).hand[:] = held


def test_every_card_of_the_pool_costs_mana_so_a_player_without_mana_is_passed_for():
    assert cheapest_from_hand() >= 1  # derived from the card pool: no free spell in it

    def bob_on_alices_spell(bob_battlefield: list[str]) -> bool:
        game = _bob_with_priority(["Plains", "Plains"], bob_battlefield)
        return stops_at(game.state, game.pending)

    assert not bob_on_alices_spell([])  # no untapped source, an empty pool: passed for
    assert bob_on_alices_spell(["Swamp"])  # mana to spend (not enough for his card): asked
    assert bob_on_alices_spell(["Swamp", "Swamp"])


def test_your_own_main_phase_stops_you_with_a_land_to_play_or_mana_to_spend():
    def alice_in_her_main(lands_played: int, plains: dict) -> bool:
        game = position(
            {"alice": {"hand": ["Gloom Stalker"], "battlefield": [plains]}, "bob": {}},
            {"number": 3, "active": "alice", "step": "precombat_main"},
        )
        game.state.player("alice").lands_played = lands_played
        return stops_at(game.state, priority_decision(game.state, "alice"))

    assert alice_in_her_main(0, {"card": "Plains", "tapped": True})  # a land still to play
    assert alice_in_her_main(1, {"card": "Plains", "tapped": False})  # mana to spend
    assert not alice_in_her_main(1, {"card": "Plains", "tapped": True})  # neither: passed for


def test_once_blockers_are_declared_both_players_with_mana_are_stopped():
    # Combat tricks: the attacker (blocked or not) and the defender both get a stop after blocks.
    def stops_after_blocks(block: bool) -> dict[str, bool]:
        game = position(
            {
                "alice": {
                    "hand": ["Rally Maneuver"],
                    "battlefield": ["Plains", "Plains", "Plains", "Grizzled Outrider"],
                },
                "bob": {
                    "hand": ["Rally Maneuver"],
                    "battlefield": ["Plains", "Plains", "Plains", "Grizzled Outrider"],
                },
            },
            {"number": 3, "active": "alice", "step": "beginning_of_combat"},
        )
        seen: dict[str, bool] = {}
        for _ in range(20):
            d = game.pending
            g = game.state
            if d.kind == "declare_attackers":
                game.answer("alice", [o.id for o in d.options])
            elif d.kind == "declare_blockers":
                game.answer("bob", [d.options[0].id] if block else [])
            elif g.step == "declare_blockers" and d.kind == "priority":
                seen[d.player] = stops_at(g, d)
                game.answer(d.player, "pass")
            elif g.step in ("combat_damage", "end_of_combat"):
                break
            else:
                game.answer(d.player, "pass")
        return seen

    assert stops_after_blocks(block=True) == {"alice": True, "bob": True}
    assert stops_after_blocks(block=False) == {"alice": True, "bob": True}


def _alice_casts_sentry(bob_battlefield: list[str], bob_hand: list[str]) -> Engine:
    """Alice casts Keen-Eared Sentry in her main phase and passes: bob holds priority."""
    game = position(
        {
            "alice": {"hand": ["Keen-Eared Sentry"], "battlefield": ["Plains", "Plains"]},
            "bob": {"hand": bob_hand, "battlefield": bob_battlefield},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    cast = next(o.id for o in game.pending.options if o.label == "cast Keen-Eared Sentry")
    game.answer("alice", cast)
    return game


def test_your_own_spell_on_the_stack_is_not_a_stop_even_with_something_to_activate():
    # Alice's own spell resolves unless bob responds: she is not asked again after casting it,
    # whatever she could do (here: mana to spend and cards in hand).
    game = position(
        {
            "alice": {
                "hand": ["Keen-Eared Sentry", "Power Word Kill"],
                "battlefield": ["Plains", "Plains", "Swamp", "Swamp"],
            },
            "bob": {},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    cast = next(o.id for o in game.pending.options if o.label == "cast Keen-Eared Sentry")
    game.answer("alice", cast)
    d = game.pending
    assert (d.player, d.kind) == ("alice", "priority")
    assert any(o.data == "mana" for o in d.options)  # she could still do something
    for stops in STOP_SETS:
        assert not stops_at(game.state, d, stops)
        assert passed_because(game.state, d, stops) is None  # nothing to explain: not a stop
    assert destination(game.state, "alice") == "Resolve Keen-Eared Sentry"


def test_the_steps_a_player_turned_on_stop_them_and_the_others_do_not():
    # Bob, holding a card with mana open, in alice's end step: stopped only if he turned it on.
    game = position(
        {"alice": {}, "bob": {"hand": ["Power Word Kill"], "battlefield": ["Swamp", "Swamp"]}},
        {"number": 3, "active": "alice", "step": "end"},
    )
    g = game.state
    d = priority_decision(g, "bob")
    assert not stops_at(g, d, DEFAULT_STOPS)  # off by default
    assert stops_at(g, d, DEFAULT_STOPS | {"theirs:end"})
    assert not stops_at(g, d, {"mine:end"})  # his own end step is another stop
    # Alice, in her own end step, is not stopped by bob's setting.
    assert not stops_at(g, priority_decision(g, "alice"), {"theirs:end"})


def test_a_stop_passed_for_want_of_mana_is_explained():
    game = _alice_casts_sentry([], ["Power Word Kill"])
    game.answer("alice", "pass")
    d = game.pending
    assert (d.player, d.kind) == ("bob", "priority")
    why = passed_because(game.state, d, DEFAULT_STOPS)
    assert why == (
        "bob's priority is passed on Keen-Eared Sentry: no untapped mana source "
        "(every card costs mana)"
    )
    # With an untapped Swamp he is asked instead, and there is nothing to explain.
    game = _alice_casts_sentry(["Swamp"], ["Power Word Kill"])
    game.answer("alice", "pass")
    assert stops_at(game.state, game.pending) and passed_because(game.state, game.pending) is None


def test_the_pass_button_names_where_passing_goes():
    def where(step: str, stops=DEFAULT_STOPS, battlefield=("Plains",)) -> str:
        game = position(
            {"alice": {"hand": ["Rally Maneuver"], "battlefield": list(battlefield)}, "bob": {}},
            {"number": 3, "active": "alice", "step": step},
        )
        return destination(game.state, "alice", stops)

    assert where("upkeep") == "To main 1"
    # With a creature able to attack, declaring attackers comes next: you are asked there.
    assert where("precombat_main", battlefield=["Plains", "Grizzled Outrider"]) == ("To combat")
    assert where("precombat_main") == "To main 2"  # nothing can attack: no combat stop
    assert where("postcombat_main") == "To end of turn"
    assert where("postcombat_main", DEFAULT_STOPS | {"mine:end"}) == "To end step"
    # On the opponent's turn, with nothing turned on there: to your own turn.
    game = position(
        {"alice": {}, "bob": {"hand": ["Rally Maneuver"], "battlefield": ["Plains"]}},
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    assert destination(game.state, "bob", frozenset()) == "To your turn"
    assert destination(game.state, "bob", {"theirs:end"}) == "To end step"


def _bob_with_priority(alice_battlefield: list[str], bob_battlefield: list[str]) -> Engine:
    """Alice casts Keen-Eared Sentry and passes: bob, with Power Word Kill in hand, holds
    priority with what is on top of the stack (her Sentry, or Varis's trigger if she has
    Varis)."""
    game = position(
        {
            "alice": {"hand": ["Keen-Eared Sentry"], "battlefield": alice_battlefield},
            "bob": {"hand": ["Power Word Kill"], "battlefield": bob_battlefield},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    cast = next(o.id for o in game.pending.options if o.label == "cast Keen-Eared Sentry")
    game.answer("alice", cast)
    game.answer("alice", "pass")
    d = game.pending
    assert (d.player, d.kind) == ("bob", "priority")
    return game


def _bob_on_top_of_the_stack(bob_battlefield: list[str]) -> Engine:
    """Bob holds priority with Varis's triggered ability (alice's) on top of the stack."""
    game = _bob_with_priority(["Varis, Silverymoon Ranger", "Plains", "Plains"], bob_battlefield)
    assert game.state.stack[-1].ability_kind == "triggered ability"
    return game


def test_the_opponents_triggered_ability_stops_you_only_if_you_turned_that_on():
    game = _bob_on_top_of_the_stack(["Swamp", "Swamp"])  # cards in hand, mana to spend
    g, d = game.state, game.pending
    assert not stops_at(g, d, DEFAULT_STOPS)  # off by default
    assert passed_because(g, d, DEFAULT_STOPS) is None  # not a stop point: nothing to explain
    assert stops_at(g, d, DEFAULT_STOPS | {THEIR_TRIGGERS})
    assert stops_at(g, d, {THEIR_TRIGGERS})  # the setting alone, no step turned on
    label = "Varis, Silverymoon Ranger's triggered ability"
    assert destination(g, "bob", DEFAULT_STOPS | {THEIR_TRIGGERS}) == f"Resolve {label}"
    # Turned on, without mana to spend, he is passed for and the log says why.
    game = _bob_on_top_of_the_stack([])
    g, d = game.state, game.pending
    assert not stops_at(g, d, {THEIR_TRIGGERS})
    assert passed_because(g, d, {THEIR_TRIGGERS}) == (
        f"bob's priority is passed on {label}: no untapped mana source (every card costs mana)"
    )


def test_a_room_ability_is_a_triggered_ability_for_the_stop():
    game = _bob_on_top_of_the_stack(["Swamp", "Swamp"])
    game.answer("bob", "pass")  # Varis's trigger resolves: alice ventures
    d = game.pending
    assert (d.player, d.kind) == ("alice", "choose_dungeon")
    game.answer("alice", next(o.id for o in d.options if "Mad Mage" in o.label))
    while (d := game.pending).player == "alice":
        game.answer("alice", "pass")
    top = game.state.stack[-1]
    assert top.ability_kind == "room ability" and top.controller == "alice"  # CR 309.4c
    assert not stops_at(game.state, d, DEFAULT_STOPS)
    assert stops_at(game.state, d, DEFAULT_STOPS | {THEIR_TRIGGERS})


def test_a_trigger_aimed_at_you_or_yours_stops_you_whatever_the_setting():
    # Alice's marker is in Mine Tunnels: her Dungeon Map ventures into Fungi Cavern, whose
    # ability targets a creature (-4/-0). Bob has mana to spend and a card in hand.
    def bob_facing_fungi_cavern(target_of_alice: str) -> Engine:
        game = position(
            {
                "alice": {
                    "battlefield": ["Dungeon Map", "Plains", "Plains", "Plains", "Gloom Stalker"],
                    "dungeon": {"name": "Lost Mine of Phandelver", "room": "Mine Tunnels"},
                },
                "bob": {
                    "hand": ["Power Word Kill"],
                    "battlefield": ["Swamp", "Swamp", "Zombie Ogre"],
                },
            },
            {"number": 3, "active": "alice", "step": "precombat_main"},
        )
        d = game.pending
        game.answer("alice", next(o.id for o in d.options if "{3}, {T}" in o.label))
        game.answer("alice", "pass")
        game.answer("bob", "pass")  # the Dungeon Map's ability resolves
        while (d := game.pending).player == "alice":
            if d.kind == "priority":
                game.answer("alice", "pass")
            elif any("Fungi Cavern" in o.label for o in d.options):
                game.answer("alice", next(o.id for o in d.options if "Fungi Cavern" in o.label))
            else:
                game.answer("alice", next(o.id for o in d.options if target_of_alice in o.label))
        assert game.state.stack[-1].name == "Fungi Cavern" and d.player == "bob"
        return game

    aimed = bob_facing_fungi_cavern("Zombie Ogre")  # bob's creature
    assert stops_at(aimed.state, aimed.pending, DEFAULT_STOPS)
    elsewhere = bob_facing_fungi_cavern("Gloom Stalker")  # alice's own
    assert not stops_at(elsewhere.state, elsewhere.pending, DEFAULT_STOPS)
    assert stops_at(elsewhere.state, elsewhere.pending, {THEIR_TRIGGERS})


def test_the_opponents_activated_ability_and_a_trigger_on_your_own_turn():
    # An activated ability still stops you by default (the Dungeon Map's, alice's).
    game = position(
        {
            "alice": {"battlefield": ["Dungeon Map", "Plains", "Plains", "Plains"]},
            "bob": {"hand": ["Power Word Kill"], "battlefield": ["Swamp", "Swamp"]},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    activate = next(
        o.id for o in game.pending.options if o.label == "activate Dungeon Map: {3}, {T}"
    )
    game.answer("alice", activate)
    game.answer("alice", "pass")
    d = game.pending
    assert (d.player, d.kind) == ("bob", "priority")
    assert game.state.stack[-1].ability_kind == "ability"
    assert stops_at(game.state, d, DEFAULT_STOPS)
    # The opponent's trigger on your own turn (Varis's ward, bob's, on alice's spell) is the
    # same setting: it is about whose ability it is, not whose turn.
    game = position(
        {
            "alice": {"hand": ["Power Word Kill", "Rally Maneuver"], "battlefield": ["Swamp"] * 4},
            "bob": {"battlefield": ["Varis, Silverymoon Ranger"]},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    game.answer(
        "alice", next(o.id for o in game.pending.options if o.label == "cast Power Word Kill")
    )
    game.answer("alice", next(o.id for o in game.pending.options if "Varis" in o.label))
    while (d := game.pending).player == "bob":
        game.answer("bob", "pass")
    assert (d.player, d.kind) == ("alice", "priority")
    assert game.state.stack[-1].controller == "bob" and game.state.stack[-1].triggered
    assert not stops_at(game.state, d, DEFAULT_STOPS)
    assert stops_at(game.state, d, DEFAULT_STOPS | {THEIR_TRIGGERS})


def test_stop_keys_are_checked_and_stored_settings_read_back():
    assert stop_key_problem("theirs:end") is None
    assert stop_key_problem(THEIR_TRIGGERS) is None
    assert "is not a stop" in stop_key_problem("mine:triggers")
    for bad in ("theirs:untap", "ours:end", "end", 3, None, "mine:cleanup"):
        assert "is not a stop" in stop_key_problem(bad)
    assert stops_from(None) == DEFAULT_STOPS  # never changed: the defaults
    assert stops_from([]) == frozenset()  # turned everything off
    assert stops_from(["theirs:end", "gone:step"]) == {"theirs:end"}
    assert THEIR_TRIGGERS not in stops_from(None)  # the opponent's triggers: off by default
