"""The computer's moves in set positions: each file under `positions/` is a scenario file
(docs/scenarios.md) whose script stops at a decision of the computer's seat, and each case of
position_cases.py says what a player expects of that move at every level. A move a player would
call a bug, once fixed, becomes a case there (docs/how-to-add.md, "A rule of the computer")."""

from __future__ import annotations

import pytest

from game.ai import LEVELS, decide

from .expected_moves import _labels
from .helpers import POSITIONS, position
from .position_cases import CASES, Case


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
    if level not in case.levels:
        pytest.skip(f"{case.file} is a move for {', '.join(case.levels)}")
    game = position(case.file)
    d = game.pending
    assert d is not None and d.player == case.seat, (
        f"{case.file} must stop at {case.seat}'s decision"
    )
    for seed in case.seeds:
        answer = decide(level, game, case.seat, seed)
        ids = answer if isinstance(answer, list) else [answer]
        assert (why := case.wrong(game, ids)) is None, f"{level}, seed {seed}: {why}"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_menace_goes_on_the_attacker_that_then_takes_the_initiative(level: str) -> None:
    """The rest of menace_to_take_the_initiative_back.yaml: the Bard's target is the Crawler,
    and the Crawler attacks (a trick before the attack is never left unused)."""
    game = position("menace_to_take_the_initiative_back.yaml")
    while (d := game.pending) is not None and not game.state.player("bob").initiative:
        if d.player == "bob" and d.kind == "choose_targets":
            ids = decide(level, game, "bob", 0)
            assert _labels(game, ids if isinstance(ids, list) else [ids]) == ["Dungeon Crawler"]
        game.answer(d.player, decide(level, game, d.player, 0))
    assert any("bob attacks alice with Dungeon Crawler" in line for line in game.state.log)
    assert game.state.player("bob").initiative


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_removal_after_blocks_kills_the_blocker_and_the_attacker_lives(level: str) -> None:
    """The rest of power_word_kill_on_the_blocker_that_kills_its_attacker.yaml: Power Word Kill
    goes on the Basilisk (not the Gargoyle nor bob's own creatures), and the Fang-Blade, blocked
    by nothing left, deals no damage and survives the combat (CR 510.1c)."""
    game = position("power_word_kill_on_the_blocker_that_kills_its_attacker.yaml")
    while (d := game.pending) is not None and game.state.step == "declare_blockers":
        if d.player == "bob" and d.kind == "choose_targets":
            ids = decide(level, game, "bob", 0)
            assert _labels(game, ids if isinstance(ids, list) else [ids]) == ["Underdark Basilisk"]
        game.answer(d.player, decide(level, game, d.player, 0))
    graveyards = {p: [o.name for o in game.state.player(p).graveyard] for p in ("alice", "bob")}
    assert "Underdark Basilisk" in graveyards["alice"]
    assert "Yuan-Ti Fang-Blade" not in graveyards["bob"]
    assert any(o.name == "Yuan-Ti Fang-Blade" for o in game.state.controlled("bob"))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_each_dungeoneer_shields_a_different_attacker(level: str) -> None:
    """The rest of two_dungeoneers_shield_two_attackers_for_lethal.yaml: the two "whenever you
    attack" triggers target different Dungeoneers (the first to resolve would make a shared
    target illegal for the second, CR 702.16b), and both connect for alice's last 6 life."""
    game = position("two_dungeoneers_shield_two_attackers_for_lethal.yaml")
    targeted: list[int] = []
    while (d := game.pending) is not None and game.state.turn == 9:
        answer = decide(level, game, d.player, 0)
        if d.player == "bob" and d.kind == "choose_targets":
            ids = answer if isinstance(answer, list) else [answer]
            targeted += [o for i in ids for o in d.option(i).objs]
        game.answer(d.player, answer)
    assert len(targeted) == 2 and len(set(targeted)) == 2, targeted
    assert game.state.player("alice").life <= 0
