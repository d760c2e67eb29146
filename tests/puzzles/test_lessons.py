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


def _walk(scenario, game, turn, moves):
    """Play `moves` (labels of the learner's answers, in order): the rival's decisions and the
    learner's other priority decisions pass, a lone option is taken; the status at the end."""
    moves = list(moves)
    for _ in range(300):
        status = lesson_status(scenario, game, turn)
        if status.state != PLAYING:
            return status
        d = game.pending
        labels = {o.label: o.id for o in d.options}
        if d.player == "you" and moves and moves[0] in labels:
            label = moves.pop(0)
            game.answer("you", [labels[label]] if (d.multi or d.ordered) else labels[label])
        elif d.kind == "priority":
            game.answer(d.player, "pass")
        elif d.multi and d.min_count == 0:
            game.answer(d.player, [])
        else:
            game.answer(d.player, [d.options[0].id] if (d.multi or d.ordered) else d.options[0].id)
    raise AssertionError("the lesson never ended")


GOOD_AND_BAD = {
    "02_fork": (
        ["activate Dungeon Map: {3}, {T}", "Goblin Lair"],
        ["activate Dungeon Map: {3}, {T}", "Mine Tunnels"],
    ),
    "03_complete": (["cast Keen-Eared Sentry"], []),
    "04_initiative": (["Grizzled Outrider"], []),
    "05_ward": (
        ["cast Power Word Kill", "Varis, Silverymoon Ranger", "Pay {1}"],
        [
            "cast Power Word Kill",
            "Varis, Silverymoon Ranger",
            "Don't pay: Power Word Kill is countered",
        ],
    ),
    "06_divide": (
        ["1 to Yuan-Ti Fang-Blade, 4 to Undermountain Adventurer"],
        ["2 to Yuan-Ti Fang-Blade, 3 to Undermountain Adventurer"],
    ),
}


@pytest.mark.parametrize("stem", sorted(GOOD_AND_BAD))
def test_lesson_goal_is_met_by_its_moves_and_a_mistake_is_explained(stem):
    path = next(p for p in LESSONS if p.stem == stem)
    good, bad = GOOD_AND_BAD[stem]
    scenario, game, turn = _start(path)
    status = _walk(scenario, game, turn, good)
    assert status.state == SOLVED, status
    if bad:
        scenario, game, turn = _start(path)
        status = _walk(scenario, game, turn, bad)
        assert status.state == FAILED, status
        assert status.message == next(m.say for m in scenario.lesson.mistakes)


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
