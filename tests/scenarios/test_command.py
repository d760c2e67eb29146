"""`manage.py scenario run|state|ask`: exit codes and messages that name the line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

from django.core.management import call_command

from game.ai import decide as checked_decide

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


# ask: an AI bug report is a file -----------------------------------------------------------
REMOVAL = """\
name: Power Word Kill's target
turn: {number: 5, active: bob, step: precombat_main}
setup:
  alice:
    battlefield: [Swamp, Grizzled Outrider]
  bob:
    hand: [Power Word Kill]
    battlefield: [Swamp, Swamp, Cloister Gargoyle]
script:
  - bob: cast Power Word Kill
"""


def test_ask_prints_the_decision_the_script_reaches_and_the_levels_answer(tmp_path):
    f = tmp_path / "removal.yaml"
    f.write_text(REMOVAL)
    for level in ("easy", "medium", "hard"):
        result = _manage("ask", str(f), "--level", level, "--seed", "7")
        assert result.returncode == 0, result.stderr
        asked = json.loads(result.stdout)
        assert (asked["level"], asked["seed"]) == (level, 7)
        decision = asked["decision"]
        assert decision["player"] == "bob" and decision["kind"] == "choose_targets"
        assert set(asked["answer"]) <= set(decision["options"]) and len(asked["answer"]) == 1
        assert "Outrider" in asked["answer"][0], f"{level} aimed Power Word Kill at its own"
        again = _manage("ask", str(f), "--level", level, "--seed", "7")
        assert json.loads(again.stdout) == asked  # a report reproduces


def test_ask_searches_in_full_unless_given_the_servers_deadline(tmp_path):
    """Hard's answer to a report must not depend on the machine's speed: no deadline unless
    asked for."""
    f = tmp_path / "removal.yaml"
    f.write_text(REMOVAL)
    with mock.patch("game.ai.checked.decide", wraps=checked_decide) as decide:
        call_command("scenario", "ask", str(f), "--level", "hard", stdout=io.StringIO())
        assert decide.call_args.kwargs["deadline"] is None
        call_command(
            "scenario", "ask", str(f), "--level", "hard", "--think-ms", "750", stdout=io.StringIO()
        )
        assert decide.call_args.kwargs["deadline"] is not None


def test_ask_refuses_a_bad_file_an_ended_game_or_an_unknown_level_with_exit_2(tmp_path):
    typo = tmp_path / "typo.yaml"
    typo.write_text(REMOVAL.replace("Power Word Kill]", "Power Word Kil]"))
    result = _manage("ask", str(typo), "--level", "medium")
    assert result.returncode == 2 and f"{typo}:7:" in result.stderr and not result.stdout

    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(REMOVAL.replace("bob: cast", "alice: cast"))
    result = _manage("ask", str(wrong), "--level", "medium")
    assert result.returncode == 2 and f"{wrong}:10:" in result.stderr

    over = tmp_path / "over.yaml"
    over.write_text("name: over\nscript:\n  - concede: alice\n")
    result = _manage("ask", str(over), "--level", "hard")
    assert result.returncode == 2 and "there is no decision to ask about" in result.stderr

    missing = tmp_path / "nothing-here.yaml"
    result = _manage("ask", str(missing), "--level", "easy")
    assert result.returncode == 2 and "can't read the file" in result.stderr

    result = _manage("ask", str(typo), "--level", "grandmaster")
    assert result.returncode == 2 and "invalid choice: 'grandmaster'" in result.stderr
