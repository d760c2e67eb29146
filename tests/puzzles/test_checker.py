"""The puzzle checker (docs/puzzles.md): every shipped puzzle is proven sound; an unsound one is
refused with the defence that beats it; a bad `puzzle` block is an error naming its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from game.puzzles.checker import Search, best_defence, check, check_file
from game.scenario import ScenarioError
from game.scenario.loader import load_scenario, parse_scenario

HERE = Path(__file__).parent
SHIPPED = sorted((Path(__file__).parents[2] / "game" / "puzzles" / "data").glob("*.yaml"))


def test_there_are_shipped_puzzles():
    assert SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_puzzle_is_sound(path):
    report = check_file(path)
    assert not report.bound_reached, f"{path.name}: the bound was reached ({report.positions})"
    assert report.sound, f"{path.name}: {report.problem}: {report.refutation}"


def test_unsound_puzzle_is_refused_with_the_defence():
    report = check_file(HERE / "unsound_power_word_kill.yaml")
    assert report.solution_wins is False
    assert report.winnable is False
    assert "rival: cast Power Word Kill" in report.refutation
    assert "rival: Grizzled Outrider" in report.refutation
    assert report.problem == "turn 6 ended without you winning"


def test_command_exit_codes(capsys):
    with pytest.raises(SystemExit) as done:
        call_command("puzzle", "check", str(HERE / "unsound_power_word_kill.yaml"))
    assert done.value.code == 1
    out = capsys.readouterr().out
    assert out.startswith("UNSOUND") and "rival: cast Power Word Kill" in out
    with pytest.raises(SystemExit) as done:
        call_command("puzzle", "check", str(SHIPPED[0]))
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("SOUND")


def test_bound_is_reported_not_guessed():
    scenario = parse_scenario(SHIPPED[0].read_text(), "p.yaml")
    report = check(scenario, bound=5)
    assert report.bound_reached and report.solution_wins is None and not report.sound


PUZZLE = """
name: p
turn: {number: 3, active: alice, step: precombat_main}
setup:
  alice: {battlefield: [Grizzled Outrider]}
  bob: {life: 5}
puzzle:
%s
"""


@pytest.mark.parametrize(
    "block, message",
    [
        ("  goal: checkmate\n  solution: [pass]", "puzzle.goal must be one of: win, survive"),
        ("  goal: win", "puzzle.solution must be a list"),
        ("  solution: [{advance: lunch}]", "a solution step is an answer or 'advance: STEP'"),
        ("  solution: [pass]\n  solver: carol", "puzzle.solver must be one of alice, bob"),
        ("  solution: [pass]\n  bound: 0", "puzzle.bound must be a whole number"),
        ("  solution: [pass]\n  colour: red", "unknown puzzle key 'colour'"),
    ],
)
def test_bad_puzzle_block_names_its_line(block, message):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(PUZZLE % block, "p.yaml")
    assert message in str(e.value)
    assert str(e.value).startswith("p.yaml:")


def test_defaults_solver_is_active_player_for_win_and_other_for_survive():
    win = parse_scenario(PUZZLE % "  solution: [pass]", "p.yaml").puzzle
    survive = parse_scenario(PUZZLE % "  goal: survive\n  solution: [pass]", "p.yaml").puzzle
    assert (win.solver, survive.solver) == ("alice", "bob")


def test_best_defence_finds_the_answer_that_beats_the_solution():
    search = Search(load_scenario(HERE / "unsound_power_word_kill.yaml"), bound=50_000)
    line, at, advancing = [], 0, None
    for _ in range(100):
        game = search.game(line)
        d = game.pending
        if d.player == search.solver:
            answer, at, advancing = search._solution_move(game, d, at, advancing)
        else:
            answer = best_defence(search, line)
            if answer != "pass":
                assert d.option(answer).label == "cast Power Word Kill"
                return
        line = [*line, (d.player, answer)]
    raise AssertionError("the rival never cast Power Word Kill")


def test_a_multi_select_solution_in_another_order_is_not_another_line():
    report = check_file(HERE / "solution_blocks_in_another_order.yaml")
    assert report.sound and report.other_wins == []
