"""Lessons (docs/puzzles.md, "Lessons"): every shipped lesson loads, its goal can be met by the
moves its text asks for, and a mistake is told as the file says."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.puzzles.progress import FAILED, PLAYING, SOLVED, lesson_status
from game.scenario import ScenarioError
from game.scenario.loader import load_scenario, parse_scenario
from game.scenario.runner import build_game, play_script

LESSONS = sorted((Path(__file__).parents[2] / "game" / "puzzles" / "lessons").glob("*.yaml"))


def _start(path):
    scenario = load_scenario(path)
    game = build_game(scenario)
    play_script(scenario, game, checks=False)
    return scenario, game, game.state.turn


def _play(game, player, label):
    game.answer_labels(player, label)


def _pass_to(game, kind):
    while game.pending is not None and game.pending.kind != kind:
        d = game.pending
        game.answer(d.player, "pass" if d.kind == "priority" else d.options[0].id)


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_shipped_lesson_loads_and_starts_playing(path):
    scenario, game, turn = _start(path)
    assert scenario.lesson is not None and scenario.lesson.title
    assert lesson_status(scenario, game, turn).state == PLAYING


def test_venture_lesson_done_and_mistake():
    path = next(p for p in LESSONS if p.stem == "01_venture")
    for dungeon, state in (("Lost Mine of Phandelver", SOLVED), ("Tomb of Annihilation", FAILED)):
        scenario, game, turn = _start(path)
        _play(game, "you", "cast Kick in the Door")
        _play(game, "you", "Grizzled Outrider")
        _pass_to(game, "choose_dungeon")
        _play(game, "you", dungeon)
        status = lesson_status(scenario, game, turn)
        assert status.state == state
        if state == FAILED:
            assert "Tomb of Annihilation is a fine dungeon" in status.message


LESSON = """
name: l
turn: {number: 3, active: alice, step: precombat_main}
lesson:
%s
"""


@pytest.mark.parametrize(
    "block, message",
    [
        ("  title: t\n  goal_text: g\n  goal: {alice: {lief: 3}}", "unknown expectation 'lief'"),
        ("  title: t\n  goal_text: g", "lesson.goal is a mapping"),
        ("  title: t\n  goal_text: g\n  goal: {winner: alice}\n  opponent: god", "lesson.opponent"),
        ("  goal: {winner: alice}", "a lesson needs a title and a goal_text"),
        (
            "  title: t\n  goal_text: g\n  goal: {winner: alice}\n  mistakes: [{when: {}}]",
            "a mistake is {when: {expect keys}, say: text}",
        ),
    ],
)
def test_bad_lesson_block_is_refused(block, message):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(LESSON % block, "l.yaml")
    assert message in str(e.value)
