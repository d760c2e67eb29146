"""What each effect operation means to the computer is declared beside the operation (its
`Reading`, game/engine/ops.py): every step a card, an official room or a designer's room may
hold has one the computer can read in any position, and the readings say what they should
about whom a step hurts and what it is worth where the position decides."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from dungeons.official import official_dungeon_dicts
from game.engine import ops
from game.engine.cards import CARDS
from game.engine.game import Engine
from game.engine.ops import BOOL, INT, PAIR, TARGET, TEXT, WORDS, reading
from game.engine.state import GameState
from tests.engine.helpers import position

from .helpers import play, setup_for

# A value of each type dungeon data may give, for the smallest step of each data operation.
SAMPLE = {INT: 1, BOOL: True, PAIR: [1, 1], TARGET: "creature", WORDS: []}


def _card_steps() -> Iterator[ops.Step]:
    def walk(steps: list[ops.Step]) -> Iterator[ops.Step]:
        for step in steps:
            yield step
            yield from walk(step.get("then", []))

    for card in CARDS.values():
        for face in (card, card.adventure):
            if face is not None:
                yield from walk(face.spell)
                for t in face.triggers:
                    yield from walk(t.effect)
                for a in face.activated:
                    yield from walk(a.effect)


def _smallest_step(entry: ops.Op) -> ops.Step:
    step: ops.Step = {"op": entry.name}
    for p in entry.data_params:
        if p.required:
            step[p.name] = p.choices[0] if p.type == TEXT and p.choices else SAMPLE.get(p.type, "x")
    return step


def _steps() -> list[ops.Step]:
    """Every card's steps, every official room's, and the smallest step of every operation a
    designer's room may use."""
    rooms = [s for d in official_dungeon_dicts() for r in d["rooms"] for s in r["effect"]]
    smallest = [_smallest_step(entry) for entry in ops.data_ops().values()]
    return [*_card_steps(), *rooms, *smallest]


def _positions() -> Iterator[GameState]:
    for seed in (0, 5):
        game = Engine(setup_for(seed))
        for i, g in enumerate(play(game, seed, {"alice": "medium", "bob": "medium"}, 600)):
            if i % 40 == 0:
                yield g.state


def test_every_step_has_a_reading_the_computer_can_read_in_any_position():
    steps = _steps()
    assert {s["op"] for s in steps} >= set(ops.data_ops())
    for g in _positions():
        for seat in ("alice", "bob"):
            for step in steps:
                r = reading(step)
                assert isinstance(r.hurts(step), bool), step
                value = r.value(g, seat, step)
                assert isinstance(value, float | int) and math.isfinite(value), step


@pytest.mark.parametrize(
    "step, hurts",
    [
        ({"op": "destroy", "target": "creature"}, True),
        ({"op": "damage", "target": "any", "amount": 3}, True),
        ({"op": "lose_life", "who": "target", "target": "player", "amount": 5}, True),
        ({"op": "modify", "target": "creature", "power": -4}, True),
        ({"op": "modify", "target": "creature", "cant_attack": True}, True),
        ({"op": "modify", "target": "creature", "power": 2, "toughness": 2}, False),
        ({"op": "add_counters", "target": "creature", "amount": 1}, False),
        ({"op": "add_counters", "target": "creature", "counter": "-1/-1", "amount": 1}, True),
        ({"op": "explore", "target": "creature"}, False),
    ],
)
def test_a_step_that_hurts_what_it_names_says_so(step, hurts):
    assert reading(step).hurts(step) is hurts


def _worth(game: Engine, step: ops.Step, seat: str = "alice") -> float:
    return reading(step).value(game.state, seat, step)


def test_what_a_step_is_worth_follows_the_position():
    counter = {"op": "add_counters", "target": "creature", "amount": 2}
    weaken = {"op": "modify", "target": "creature", "power": -4}
    each_loses = {"op": "lose_life", "who": "each_player", "amount": 2}
    nobody = position({"alice": {"life": 5}, "bob": {"life": 20}})
    assert _worth(nobody, counter) == 0.0 and _worth(nobody, weaken) == 0.0
    assert _worth(nobody, each_loses) < 0 < _worth(nobody, each_loses, "bob")
    bears = position(
        {"alice": {"battlefield": [{"token": "Wolf"}]}, "bob": {"battlefield": [{"token": "Wolf"}]}}
    )
    assert _worth(bears, counter) > 0 and _worth(bears, weaken) > 0


def test_what_a_player_step_is_worth_depends_on_whose_it_is():
    game = position({})
    for op in ("draw", "gain_life"):
        mine = _worth(game, {"op": op, "amount": 2})
        assert mine > 0
        assert _worth(game, {"op": op, "who": "each_opponent", "amount": 2}) == -mine
        assert _worth(game, {"op": op, "who": "each_player", "amount": 2}) == 0
    assert _worth(game, {"op": "discard", "amount": 1}) < 0
    assert _worth(game, {"op": "discard", "who": "each_opponent", "amount": 1}) > 0
    assert _worth(game, {"op": "lose_life", "amount": 1}) < 0
    assert _worth(game, {"op": "lose_life", "who": "each_opponent", "amount": 1}) > 0


def test_tokens_are_worth_what_they_are():
    game = position({})
    worth = {
        token: _worth(game, {"op": "create_token", "token": token})
        for token in ("Treasure", "Goblin", "Skeleton 4/1 menace", "The Atropal")
    }
    assert worth["Treasure"] < worth["Goblin"] < worth["Skeleton 4/1 menace"]
    assert worth["Skeleton 4/1 menace"] < worth["The Atropal"]
    assert (
        _worth(game, {"op": "create_token", "token": "Goblin", "count": 2}) == 2 * worth["Goblin"]
    )


def test_draining_the_last_life_reads_as_a_win_and_so_does_the_venture_into_it():
    low = position(
        {
            "alice": {"dungeon": {"name": "Lost Mine of Phandelver", "room": "Goblin Lair"}},
            "bob": {"life": 1},
        }
    )
    drain = {"op": "lose_life", "who": "each_opponent", "amount": 1}
    assert _worth(low, drain) >= ops.WINS
    assert _worth(low, drain, "bob") < ops.WINS  # alice has life to spare
    both = {"op": "lose_life", "who": "each_player", "amount": 1}
    assert _worth(low, both) >= ops.WINS
    assert _worth(low, {"op": "venture"}) >= ops.WINS  # Dark Pool is next
    assert _worth(position({}), {"op": "venture"}) < ops.WINS


def test_a_pump_until_end_of_turn_reads_as_a_boost_and_nothing_else_does():
    pump = {"op": "modify", "target": 0, "power": 2, "keywords": ["first strike"]}
    boost = reading(pump).boosts(pump)
    assert boost == ops.Boost(2, 0, ("first strike",))
    lasting = {**pump, "duration": "permanent"}
    shrink = {"op": "modify", "target": 0, "power": -4}
    counter = {"op": "add_counters", "target": 0, "amount": 1}
    assert [reading(s).boosts(s) for s in (lasting, shrink, counter)] == [None, None, None]
