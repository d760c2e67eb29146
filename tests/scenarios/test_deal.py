"""`deal: true`: a scenario that starts before the coin flip (docs/scenarios.md, "Extensions")."""

from __future__ import annotations

import pytest

from game.scenario.loader import ScenarioError, parse_scenario
from game.scenario.runner import build_game

DECKS = "setup:\n  alice: {library: [Forest, Forest]}\n  bob: {library: [Island]}\n"


def test_a_dealt_game_starts_with_the_coin_flip_winners_choice_and_its_libraries_as_decks():
    game = build_game(parse_scenario("name: d\ndeal: true\nseed: 0\n" + DECKS))
    d = game.pending
    assert d.kind == "play_or_draw" and [o.label for o in d.options] == ["play", "draw"]
    players = game.state_json()["players"]
    assert sorted(players["alice"]["library"]) == ["Forest", "Forest"]
    assert players["bob"]["library"] == ["Island"]
    assert players["alice"]["hand"] == [] and players["bob"]["hand"] == []


@pytest.mark.parametrize(
    ("text", "line", "wanted"),
    [
        ("name: d\ndeal: yes please\n", 2, "deal must be true or false"),
        ("name: d\ndeal: true\nturn: {number: 2}\n", 3, "leave out 'turn'"),
        (
            "name: d\ndeal: true\nsetup:\n  alice: {library: [Forest], hand: [Island]}\n",
            4,
            "holds only 'library'",
        ),
    ],
)
def test_a_dealt_file_with_anything_but_decks_is_refused_with_its_line(text, line, wanted):
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "f.yaml")
    assert err.value.line == line and wanted in err.value.message
