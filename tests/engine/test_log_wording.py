"""The log's lines read as sentences: a token is named once as a token, plural for several;
counters are counted in words; an ability is not its source."""

from __future__ import annotations

from pathlib import Path

from game.engine.effects_permanents import _tokens
from game.scenario.runner import final_state

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _log(scenario: str) -> list[str]:
    return final_state(SCENARIOS / scenario)["log"]


def test_a_token_whose_description_says_token_is_not_a_token_token():
    assert "alice creates 1 4/1 black Skeleton creature token with menace" in _log(
        "undercity/undercity__catacombs.yaml"
    )


def test_several_tokens_are_tokens_wherever_the_description_says_token():
    described = "4/1 black Skeleton creature token with menace"
    assert _tokens(described, 2) == "4/1 black Skeleton creature tokens with menace"
    assert _tokens("1/1 red Goblin creature", 3) == "1/1 red Goblin creature tokens"
    assert _tokens("Treasure", 1) == "Treasure token"


def test_counters_are_counted_in_words():
    forge = _log("undercity/undercity__forge.yaml")
    assert "alice's Seasoned Dungeoneer gets 2 +1/+1 counters" in forge
    passageway = _log("cards/passageway_seer.yaml")
    assert any(line.endswith("gets a +1/+1 counter") for line in passageway), passageway


def test_until_next_turn_says_whose_turn():
    """The log is one text for both players: "until your next turn" would read as the reader's
    turn, so the effect's line names the player whose turn ends it (the room's own text, quoted
    in the venture's line, keeps its words)."""
    lines = _log("engine/continuous_until_your_next_turn.yaml")
    assert "bob's Grizzled Outrider gets -4/-0 until alice's next turn" in lines, lines
