"""docs/rules-coverage.md maps every seed ruling to scenario files that exist, and leaves no
checklist item unmapped."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")

# The distinct sentences of the seed rulings the project was founded on (docs/rules-coverage.md,
# "The seed rulings"): each must have a row there with the scenario files that prove it.
SEED_RULINGS = [
    "If you somehow venture into the dungeon while a room's ability is on the stack, you will "
    "continue on in the dungeon. If you're already in the last room, complete that dungeon and "
    "start a new one.",
    "Once you resolve the last room ability of a dungeon, that dungeon is now completed and is "
    "removed from the game.",
    "If a player casts a spell that targets multiple permanents their opponent controls with "
    "ward, each of those ward abilities will trigger. If that player doesn't pay for all of them, "
    "the spell will be countered.",
    "A player may only have one dungeon in the command zone at a time.",
    "To venture into the dungeon, a player moves their venture marker into the next room of the "
    "dungeon they are currently in. If they aren't currently in a dungeon, that player instead "
    "chooses a dungeon card from outside the game, puts it into the command zone, and moves "
    "their venture marker onto the first room.",
    "Moving into a dungeon room will cause its room ability to trigger.",
    "Choosing the dungeon or room to venture into is part of resolving the venture into the "
    "dungeon keyword action. Once that choice is made, players may not respond until after the "
    "appropriate room ability has triggered.",
    "You can only move forward (well, downward) in a dungeon, never backwards or sideways.",
    "Dungeon cards are not part of a player's deck or sideboard. In both constructed and limited "
    "formats, players can use any dungeon card when they venture into the dungeon.",
    "Dungeons are removed from the game as a state-based action.",
    "The player venturing into the dungeon chooses which dungeon they will venture into. They "
    "may choose a dungeon that they have already completed this game.",
    "Reach, ward",
    "Whenever you cast a creature or planeswalker spell, venture into the dungeon. This ability "
    "triggers only once each turn.",
    "Whenever you complete a dungeon, create a 2/2 green Wolf creature token.",
]


def _row(sentence: str) -> str:
    for line in DOC.splitlines():
        if line.startswith("|") and sentence in line:
            return line
    raise AssertionError(f"no row for the ruling: {sentence}")


def test_every_seed_ruling_has_a_row_with_scenario_files():
    for sentence in SEED_RULINGS:
        assert ".yaml" in _row(sentence), sentence


def test_every_referenced_scenario_file_exists():
    scenarios = ROOT / "tests" / "scenarios"
    refs = set(re.findall(r"`([\w/*.\-]+\.yaml)`", DOC))
    assert len(refs) > 50
    for ref in refs:
        assert list(scenarios.glob(ref)), f"docs/rules-coverage.md names a missing file: {ref}"


def test_every_checklist_item_is_mapped():
    rows = [line for line in DOC.splitlines() if re.match(r"^\| \d+ \|", line)]
    assert [int(line.split("|")[1]) for line in rows] == list(range(1, 45))
    for line in rows:
        assert ".yaml" in line or "Not expressible" in line, line


def test_the_example_file_in_docs_scenarios_passes():
    """The annotated example that documents the format is itself a passing scenario."""
    from game.scenario.loader import parse_scenario
    from game.scenario.runner import run_scenario

    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text()
    example = re.search(r"```yaml\n(.*?)```", doc, re.S)
    assert example is not None
    result = run_scenario(parse_scenario(example.group(1), "docs/scenarios.md"))
    assert result.passed, result.problems or result.error
