"""A creature's power and toughness on the board are marked against the printed card: the state
JSON's `base_power` is the base after effects that set it (layer 7b), which is not what a player
compares with."""

from __future__ import annotations

from game.board.sides import _permanent
from game.scenario import final_state

BIRD = """\
name: Eccentric Apprentice makes a 5/5 with a +1/+1 counter a 1/1 Bird
setup:
  alice:
    completed: [Tomb of Annihilation]
    battlefield: [Eccentric Apprentice]
  bob:
    battlefield: [{card: Grizzled Outrider, counters: {"+1/+1": 1}, as: outrider}]
script:
  - advance: beginning_of_combat
  - alice: [outrider]
  - resolve
"""


def test_a_bird_made_of_a_five_five_is_marked_down_against_its_printed_five_five(tmp_path):
    path = tmp_path / "bird.yaml"
    path.write_text(BIRD, encoding="utf-8")
    (outrider,) = final_state(path)["players"]["bob"]["battlefield"]
    assert (outrider["base_power"], outrider["power"]) == (1, 2)
    shown = _permanent(outrider, (), None)
    assert (shown.power, shown.toughness) == (2, 2)
    assert (shown.printed_power, shown.printed_toughness) == (5, 5)
    assert (shown.power_mark, shown.toughness_mark) == ("down", "down")
    assert shown.pt_changed
