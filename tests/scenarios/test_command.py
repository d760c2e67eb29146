"""`manage.py scenario run|state`: exit codes and messages that name the line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "scenario", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_run_passes_a_directory(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(
        "name: a land\nsetup:\n  alice:\n    hand: [Forest]\nscript:\n  - alice: play Forest\n"
        "expect:\n  alice: {battlefield: [Forest], hand: []}\n"
    )
    result = _manage("run", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS" in result.stdout


def test_a_failing_expectation_exits_1_with_a_diff(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: wrong life\nexpect:\n  alice: {life: 7}\n")
    result = _manage("run", str(bad))
    assert result.returncode == 1
    assert "alice.life: expected 7, got 20" in result.stdout


def test_an_unknown_card_exits_2_naming_the_line(tmp_path):
    bad = tmp_path / "unknown.yaml"
    bad.write_text(
        "name: typo\nsetup:\n  alice:\n    hand:\n      - Forest\n      - Grizzled Outrder\n"
    )
    for args in (("run", str(bad)), ("state", str(bad))):
        result = _manage(*args)
        assert result.returncode == 2
        out = result.stdout + result.stderr
        assert f"{bad}:6:" in out and "Grizzled Outrder" in out


def test_an_invalid_file_exits_2_naming_the_line(tmp_path):
    bad = tmp_path / "invalid.yaml"
    bad.write_text("name: bad key\nsetup: {}\nexpekt: {}\n")
    result = _manage("state", str(bad))
    assert result.returncode == 2
    assert f"{bad}:3:" in result.stderr and "expekt" in result.stderr


def test_a_script_answer_that_matches_nothing_lists_the_options(tmp_path):
    bad = tmp_path / "answer.yaml"
    bad.write_text("name: bad answer\nscript:\n  - alice: cast Nothing\n")
    result = _manage("run", str(bad))
    assert result.returncode == 1
    assert f"{bad}:3:" in result.stdout and "the options were: pass" in result.stdout


def test_state_prints_the_judge_view(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("name: s\nsetup:\n  bob:\n    hand: [Island]\n")
    result = _manage("state", str(f))
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["players"]["bob"]["hand"] == ["Island"]
    assert state["pending"]["player"] == "alice"
