"""Every kind of decision the engine asks is answered legally by every level, the computer
never changes the game it is shown, and its answer is a function of the position and the seed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.ai import LEVELS, decide, policy, search
from game.engine.game import Engine
from game.engine.kinds import KINDS
from game.scenario import run_file
from tests.sizes import sized

from .helpers import COMPUTER, OTHER, play, setup_for

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# The kinds the preset decks and the official dungeons ask for in ordinary play; rarer ones
# (scry_order, divide, pay_ward, cast_free, …) are answered by the same code and the safe
# fallback, and are counted when they come up.
COMMON_KINDS = {
    "mulligan",
    "priority",
    "declare_attackers",
    "declare_blockers",
    "choose_targets",
    "choose_room",
    "choose_dungeon",
}


@pytest.fixture
def strict(monkeypatch):
    """A rule of thumb that raises is a bug, not a case for the safe answer."""
    monkeypatch.setattr(policy, "STRICT", True)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_every_decision_is_answered_legally_against_random_and_itself(level, strict):
    kinds: set[str] = set()
    finished = 0
    for seed in range(24):
        players = {OTHER: "random" if seed % 2 else level, COMPUTER: level}
        game = Engine(setup_for(seed))
        for g in play(game, seed, players):
            # Engine.answer validates each answer; an illegal one raises and fails the test.
            if g.pending is not None and g.pending.player == COMPUTER:
                kinds.add(g.pending.kind)
        finished += game.over
    assert finished == 24
    assert kinds >= COMMON_KINDS, COMMON_KINDS - kinds


@pytest.mark.timeout(240)
def test_hard_answers_legally_through_whole_games(strict, monkeypatch):
    monkeypatch.setattr(search, "BUDGET", 2500)
    monkeypatch.setattr(search, "ROLLOUT_DECISIONS", 60)
    for seed in sized(small=(8,), full=(3, 8)):  # seed 8 is the shorter game
        game = Engine(setup_for(seed))
        for _ in play(game, seed, {OTHER: "medium", COMPUTER: "hard"}):
            pass
        assert game.over


def test_the_computer_leaves_the_game_unchanged_and_answers_the_same_twice():
    seed = 5
    game = Engine(setup_for(seed))
    rng = random.Random(seed)
    checked = 0
    for g in play(game, seed, {OTHER: "random", COMPUTER: "medium"}, max_decisions=600):
        if g.pending is None or g.pending.player != COMPUTER or rng.random() > 0.2:
            continue
        before = (g.state_json(), len(g.answers), g.state.rng.getstate())
        for level in LEVELS:
            first = decide(level, g, COMPUTER, 77)
            assert decide(level, g, COMPUTER, 77) == first
        assert (g.state_json(), len(g.answers), g.state.rng.getstate()) == before
        checked += 1
    assert checked >= 10


def test_a_wrong_seat_or_level_is_refused():
    game = Engine(setup_for(0))
    other = game.state.opponent(game.pending.player)
    with pytest.raises(ValueError, match="no pending decision"):
        decide("easy", game, other, 1)
    with pytest.raises(ValueError, match="unknown level"):
        decide("grandmaster", game, game.pending.player, 1)


def test_every_kind_of_decision_has_its_rule():
    """Each kind names the computer's rule for it in the registry (game/engine/kinds.py), a
    method of Policy; tests/engine/test_kinds.py holds the engine to the registry."""
    missing = [
        f"{k.name}: {k.computer}"
        for k in KINDS.values()
        if not callable(getattr(policy.Policy, k.computer, None))
    ]
    assert not missing, missing


def test_each_kinds_rule_answers_legally_where_the_scenario_files_ask_it(strict, monkeypatch):
    """At the decisions of the scenario files (nearly every kind), before the file's own
    answer, the computer's rule for the kind gives a legal answer."""
    answered: dict[str, int] = {}
    file_answer = Engine.answer

    def answer(game, player, choice):
        d = game.pending
        if d is not None and d.player == player and answered.get(d.kind, 0) < 20:
            policy.Policy(player, random.Random(len(game.answers))).answer(game)  # validates
            answered[d.kind] = answered.get(d.kind, 0) + 1
        return file_answer(game, player, choice)

    monkeypatch.setattr(Engine, "answer", answer)
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        run_file(path)
    # Not in the files: a division of more than 60 ways (the shared safe rule); the cards put on
    # the bottom after a mulligan, asked only in a dealt game (the shared rule of discard).
    assert set(KINDS) - set(answered) <= {"assign_combat_damage_part", "mulligan_bottom"}


def test_a_computer_game_replays_exactly_from_its_answer_log():
    from game.engine.game import replay

    for seed in (2, 9):
        game = Engine(setup_for(seed))
        for _ in play(game, seed, {OTHER: "easy", COMPUTER: "medium"}):
            pass
        assert game.over
        again = replay(game.setup, game.answers)
        assert again.state_json() == game.state_json()
