"""The computer's moves in set positions: each file under `positions/` is a scenario file
(docs/scenarios.md) whose script stops at a decision of the computer's seat, and each case below
says what a player expects of that move at every level. A move a player would call a bug, once
fixed, becomes a case here (docs/how-to-add.md, "A rule of the computer")."""

from __future__ import annotations

from collections import Counter
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
    # The levels the move is expected of; a level left out may miss it as a person would (Easy's
    # slips, docs/ai.md), and `why` says so.
    levels: tuple[str, ...] = LEVELS
    why: str = ""


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


def _labels(game: Engine, ids: list[str]) -> list[str]:
    d = game.pending
    assert d is not None
    return sorted(d.option(i).label for i in ids)


def _attacks_with(*names: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == sorted(names) else f"attacked with {got}"

    return wrong


def _blocks(*wanted: str, never: tuple[str, ...] = ()) -> Callable[[Engine, list[str]], str | None]:
    """The blocks include every `wanted` one and none naming a blocker in `never`."""

    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        missing = Counter(wanted) - Counter(got)
        bad = [g for g in got if g.split(" blocks ")[0] in never]
        return f"blocked {got}" if missing or bad else None

    return wrong


def _passes(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["pass"] else f"played {_labels(game, ids)}"


def _casts(name: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == [f"cast {name}"] else f"answered {got}"

    return wrong


def _first_target(name: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == [name] else f"targeted {got}"

    return wrong


def _activates(prefix: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if len(got) == 1 and got[0].startswith(prefix) else f"answered {got}"

    return wrong


EASY_SLIPS = "Easy may miss it, as a beginner does (docs/ai.md, Easy's slips)"

CASES = [
    Case("pump_on_own_creature.yaml", "bob", _first_target_is_own),
    Case("removal_on_opponents_creature.yaml", "bob", _target_is_opponents),
    Case(
        "attacks_for_lethal.yaml",
        "bob",
        _attacks_with("Emerald Dragon", "Dungeon Crawler #1", "Dungeon Crawler #2"),
        ("medium", "hard"),
        "Easy sees an all-in lethal attack only when nothing can block",
    ),
    Case("burn_for_lethal.yaml", "bob", _casts("Magic Missile")),
    Case("room_for_lethal.yaml", "bob", _activates("activate Dungeon Map: {3}")),
    Case(
        "blocks_to_survive_when_the_attack_is_lethal.yaml",
        "bob",
        _blocks("Veteran Dungeoneer blocks Grizzled Outrider"),
    ),
    Case(
        "gang_blocks_a_menace_attacker.yaml",
        "bob",
        _blocks(
            "Veteran Dungeoneer blocks Grizzled Outrider",
            "White Plume Adventurer blocks Grizzled Outrider",
        ),
        ("medium", "hard"),
        EASY_SLIPS + ": a gang block",
    ),
    Case(
        "chump_blocks_only_when_it_must.yaml",
        "bob",
        _blocks(
            "Veteran Dungeoneer blocks Grizzled Outrider",
            "White Plume Adventurer blocks Grizzled Outrider",
            never=("Dungeon Crawler",),
        ),
        ("medium", "hard"),
        EASY_SLIPS + ": a gang block (it then chump-blocks, which keeps it alive)",
    ),
    Case(
        "enough_blockers_against_trample.yaml",
        "bob",
        _blocks(
            "Dungeon Crawler blocks Caves of Chaos Adventurer #1",
            "Dungeon Crawler blocks Caves of Chaos Adventurer #2",
        ),
    ),
    Case("no_pump_after_no_attackers.yaml", "bob", _passes),
    Case("no_pump_at_the_end_step.yaml", "bob", _passes),
    Case(
        "pump_in_combat_saves_or_kills.yaml",
        "bob",
        _casts("Rally Maneuver"),
        ("medium", "hard"),
        EASY_SLIPS + ": a combat trick",
    ),
    Case(
        "pump_goes_on_the_creature_in_the_fight.yaml",
        "bob",
        _first_target("Veteran Dungeoneer"),
    ),
    Case(
        "pump_after_blocks_for_lethal.yaml",
        "bob",
        _first_target("White Plume Adventurer"),
    ),
]


def position(file: str) -> Engine:
    scenario = load_scenario(POSITIONS / file)
    game = build_game(scenario)
    play_script(scenario, game)
    return game


def test_every_position_file_has_a_case() -> None:
    assert sorted(p.name for p in POSITIONS.glob("*.yaml")) == sorted(c.file for c in CASES)


def test_a_case_for_some_levels_says_why() -> None:
    assert [c.file for c in CASES if c.levels != LEVELS and not c.why] == []


@pytest.mark.parametrize(
    ("case", "level"),
    [(c, level) for c in CASES for level in c.levels],
    ids=[f"{c.file.removesuffix('.yaml')}-{level}" for c in CASES for level in c.levels],
)
def test_the_computer_makes_the_move_a_player_expects(case: Case, level: str) -> None:
    game = position(case.file)
    d = game.pending
    assert d is not None and d.player == case.seat, (
        f"{case.file} must stop at {case.seat}'s decision"
    )
    for seed in SEEDS:
        answer = decide(level, game, case.seat, seed)
        ids = answer if isinstance(answer, list) else [answer]
        assert (why := case.wrong(game, ids)) is None, f"{level}, seed {seed}: {why}"
