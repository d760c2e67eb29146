"""The other player's habits, read from the public log (game/ai/habits.py): what the engine
writes when a player attacks, blocks, or declines either, and Medium's attack against a player
who has never blocked (Easy doesn't read habits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai import decide
from game.ai.habits import habits
from game.ai.opponents import STYLES, NeverAttacks, NeverBlocks, rollout_players
from game.ai.policy import Policy
from game.engine.game import Engine
from game.scenario.loader import load_scenario
from game.scenario.runner import build_game, play_script

from .expected_moves import _labels

# Not under positions/: a position there is judged as it stands, and these need a history.
FILE = Path(__file__).resolve().parent / "habits" / "attacks_a_player_who_never_blocks.yaml"


def position(file: Path) -> Engine:
    scenario = load_scenario(file)
    game = build_game(scenario)
    play_script(scenario, game)
    return game


def test_the_log_says_who_attacks_and_who_blocks() -> None:
    game = position(FILE)
    g = game.state
    assert habits(g, "alice").never_blocks is False  # not asked yet
    for _ in range(2):
        g.note("alice declares no blockers")
    g.note("bob attacks alice with Grizzled Outrider", "CR 508.1")
    for _ in range(3):
        g.note("alice declares no attackers")
    read = habits(g, "alice")
    assert read.never_blocks and read.never_attacks
    assert not habits(g, "bob").never_blocks and habits(g, "bob").attacked == 1
    g.note("alice blocks: Purple Worm blocks Dungeon Crawler", "CR 509.1")
    assert not habits(g, "alice").never_blocks


def attacks_before_and_after(game: Engine, line: str, times: int) -> tuple[list, list]:
    """Medium's attackers (labels, for three seeds) before and after the log gains `line`
    `times` over: the habit read from the log is all that changes."""
    before = [_labels(game, decide("medium", game, "bob", seed)) for seed in range(3)]
    for _ in range(times):
        game.state.note(line)
    after = [_labels(game, decide("medium", game, "bob", seed)) for seed in range(3)]
    return before, after


def test_medium_attacks_a_player_who_never_blocks() -> None:
    before, after = attacks_before_and_after(position(FILE), "alice declares no blockers", 2)
    assert before == [["Dungeon Crawler"]] * 3, f"the Outrider ran into a trade down: {before}"
    assert after == [["Dungeon Crawler", "Grizzled Outrider"]] * 3, after


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_free_kill_is_feared_from_a_player_who_never_blocks(level: str) -> None:
    """Declined blocks don't say a player would decline a block that kills and lives: no
    attacker goes into the Worm, however many blocks were declined."""
    game = position(FILE.parent / "a_free_kill_is_feared_from_a_player_who_never_blocks.yaml")
    for _ in range(4):
        game.state.note("alice declares no blockers")
    assert habits(game.state, "alice").never_blocks
    for seed in range(3):
        assert _labels(game, decide(level, game, "bob", seed)) == [], seed


@pytest.mark.parametrize("world", range(len(STYLES)))
def test_hards_sampled_opponent_keeps_the_habits_it_has_shown(world: int) -> None:
    """Hard's sampled games replay the answer log, so the habit lines there come from real
    answers; here they are written as the engine writes them, and every style keeps them."""
    g = position(FILE).state
    assert not isinstance(rollout_players(g, "bob", world, 0)["alice"], NeverBlocks)
    for _ in range(2):
        g.note("alice declares no blockers")
    for _ in range(3):
        g.note("alice declares no attackers")
    players = rollout_players(g, "bob", world, 0)
    assert isinstance(players["alice"], NeverBlocks)
    assert isinstance(players["alice"], NeverAttacks)
    assert isinstance(players["alice"], STYLES[world])
    assert type(players["bob"]) is Policy


def test_medium_presses_a_player_who_sits_on_the_initiative() -> None:
    game = position(FILE.parent / "presses_a_player_who_sits_on_the_initiative.yaml")
    before, after = attacks_before_and_after(game, "alice declares no attackers", 3)
    assert before == [[]] * 3, f"a Crawler ran into the Dungeoneer unread: {before}"
    assert after == [["Dungeon Crawler #1", "Dungeon Crawler #2"]] * 3, after


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_one_declined_block_is_a_choice_not_a_habit(level: str) -> None:
    """A player who let one attacker through rather than trade (seen against Hard: it then sent
    its only creature into two untapped 3/3s) is not yet read as never blocking."""
    game = position(FILE.parent / "one_declined_block_is_no_habit.yaml")
    game.state.note("alice declares no blockers")
    assert not habits(game.state, "alice").never_blocks
    for seed in range(3):
        assert _labels(game, decide(level, game, "bob", seed)) == [], seed
