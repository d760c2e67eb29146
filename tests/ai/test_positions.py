"""The computer's moves in set positions: each file under `positions/` is a scenario file
(docs/scenarios.md) whose script stops at a decision of the computer's seat, and each case below
says what a player expects of that move at every level. A move a player would call a bug, once
fixed, becomes a case here (docs/how-to-add.md, "A rule of the computer")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.ai import LEVELS, decide
from game.engine.game import Engine
from game.scenario.loader import load_scenario
from game.scenario.runner import build_game, play_script

POSITIONS = Path(__file__).resolve().parent / "positions"
SEEDS = range(3)


@dataclass(frozen=True)
class Case:
    file: str
    seat: str
    # Given the game at the decision and the chosen options, why the move is wrong (or None).
    wrong: Callable[[Engine, list[str]], str | None]
    # The levels expected to see it: a move only the search finds is Hard's alone.
    levels: tuple[str, ...] = LEVELS


def _controllers(game: Engine, ids: list[str]) -> list[str]:
    d = game.pending
    assert d is not None
    return [game.state.find(obj).controller for i in ids for obj in d.option(i).objs]


def _first_target_is_own(game: Engine, ids: list[str]) -> str | None:
    whose = _controllers(game, ids[:1])
    return None if whose == ["bob"] else f"the pump went on {whose}'s creature"


def _target_is_opponents(game: Engine, ids: list[str]) -> str | None:
    whose = _controllers(game, ids)
    return None if whose == ["alice"] else f"the removal went on {whose}'s creature"


def _alice_alone(game: Engine, ids: list[str]) -> str | None:
    d = game.pending
    assert d is not None
    labels = [d.option(i).label for i in ids]
    return None if labels == ["alice"] else f"Magic Missile went at {labels}, not all at alice"


def _solar_on_the_flyer_worm_on_the_ground(game: Engine, ids: list[str]) -> str | None:
    d = game.pending
    assert d is not None
    labels = sorted(d.option(i).label for i in ids)
    want = [
        "Purple Worm blocks White Plume Adventurer",
        "Radiant Solar blocks Eccentric Apprentice",
    ]
    return None if labels == want else f"blocked {labels}"


CASES = [
    Case("pump_on_own_creature.yaml", "bob", _first_target_is_own),
    Case("removal_on_opponents_creature.yaml", "bob", _target_is_opponents),
    Case("magic_missile_all_at_the_face_for_lethal.yaml", "bob", _alice_alone, ("hard",)),
    Case(
        "reach_blocker_saved_for_the_flyer.yaml",
        "bob",
        _solar_on_the_flyer_worm_on_the_ground,
        ("hard",),
    ),
]


def position(file: str) -> Engine:
    scenario = load_scenario(POSITIONS / file)
    game = build_game(scenario)
    play_script(scenario, game)
    return game


def test_every_position_file_has_a_case() -> None:
    assert sorted(p.name for p in POSITIONS.glob("*.yaml")) == sorted(c.file for c in CASES)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.file.removesuffix(".yaml"))
def test_the_computer_makes_the_move_a_player_expects(case: Case, level: str) -> None:
    if level not in case.levels:
        pytest.skip(f"{case.file} is a move for {', '.join(case.levels)}")
    game = position(case.file)
    d = game.pending
    assert d is not None and d.player == case.seat, (
        f"{case.file} must stop at {case.seat}'s decision"
    )
    for seed in SEEDS:
        answer = decide(level, game, case.seat, seed)
        ids = answer if isinstance(answer, list) else [answer]
        assert (why := case.wrong(game, ids)) is None, f"{level}, seed {seed}: {why}"
