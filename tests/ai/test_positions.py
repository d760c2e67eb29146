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
    # The levels expected to make the move (Easy may keep a person's slips).
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


def _keeps(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["keep"] else "took a mulligan"


def _mulligans(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["mulligan"] else "kept the hand"


def _bottoms_purple_worm(game: Engine, ids: list[str]) -> str | None:
    names = [game.state.find(obj).name for i in ids for obj in game.pending.option(i).objs]
    return None if names == ["Purple Worm"] else f"put {names} on the bottom"


CASES = [
    Case("pump_on_own_creature.yaml", "bob", _first_target_is_own),
    Case("removal_on_opponents_creature.yaml", "bob", _target_is_opponents),
    Case("keeps_two_lands_with_cheap_spells_of_its_colours.yaml", "bob", _keeps),
    Case("mulligans_seven_lands.yaml", "bob", _mulligans),
    Case("mulligans_spells_its_lands_cannot_cast.yaml", "bob", _mulligans),
    Case(
        "mulligans_two_lands_with_only_expensive_spells.yaml",
        "bob",
        _mulligans,
        levels=("medium", "hard"),
    ),
    Case(
        "bottoms_its_most_expensive_spell_not_a_land.yaml",
        "bob",
        _bottoms_purple_worm,
        levels=("medium", "hard"),
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
        pytest.skip(f"{level} may make this slip")
    game = position(case.file)
    d = game.pending
    assert d is not None and d.player == case.seat, (
        f"{case.file} must stop at {case.seat}'s decision"
    )
    for seed in SEEDS:
        answer = decide(level, game, case.seat, seed)
        ids = answer if isinstance(answer, list) else [answer]
        assert (why := case.wrong(game, ids)) is None, f"{level}, seed {seed}: {why}"
