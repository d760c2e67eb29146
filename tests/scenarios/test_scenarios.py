"""Every scenario file under tests/scenarios passes (docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.scenario import run_file

HERE = Path(__file__).parent
FILES = sorted(HERE.rglob("*.yaml"))


def test_there_are_scenarios():
    assert len(FILES) >= 1


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_scenario(path):
    outcome = run_file(path)
    assert outcome.passed, "\n".join(outcome.problems)
