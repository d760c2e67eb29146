"""Scenario files (docs/scenarios.md): set up a position, play a script of answers, check the
result.

Pure Python: reading YAML, running the engine, comparing. The `scenario` management command and
the test suite are thin wrappers around `run_file` and `final_state`.
"""

from .loader import Scenario, ScenarioError, load_scenario
from .runner import Outcome, final_state, reached, run_file, run_scenario

__all__ = [
    "Outcome",
    "Scenario",
    "ScenarioError",
    "final_state",
    "load_scenario",
    "reached",
    "run_file",
    "run_scenario",
]
