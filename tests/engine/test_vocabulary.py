"""The effect vocabulary's registry (game/engine/ops.py) is the one declaration of every
operation: the doc's tables are generated from it, every card's steps and every official room's
steps fit it, dungeon validation follows it, and each operation asks only what it declares."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from dungeons.official import official_dungeon_dicts
from game.engine import ops, vocabulary_doc
from game.engine.cards import CARDS
from game.engine.dungeon import validate_dungeon_dict
from game.engine.ops import INT, TEXT, Op, Param, Reading, op, step_problems
from game.scenario import run_file

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def test_the_committed_doc_has_the_generated_tables():
    doc = vocabulary_doc.DOC.read_text(encoding="utf-8")
    assert vocabulary_doc.with_tables(doc) == doc, (
        "docs/dungeons.md's vocabulary differs from the registry: run "
        "`.venv/bin/python -m game.engine.vocabulary_doc`"
    )


def _doc_rows() -> dict[str, list[tuple[str, bool]]]:
    """The operations table as written: name -> [(parameter, required), …]."""
    doc = vocabulary_doc.DOC.read_text(encoding="utf-8")
    table = doc.partition(vocabulary_doc.START)[2].partition("Each parameter means")[0]
    rows = {}
    for line in table.splitlines():
        m = re.match(r"^\| `(\w+)` \| ([^|]*) \|", line)
        if m:
            cell = m.group(2).strip()
            params = [] if cell == "—" else [p.strip() for p in cell.split(",")]
            rows[m.group(1)] = [(p.strip("*"), p.startswith("**")) for p in params]
    return rows


def test_the_doc_table_names_each_data_operation_with_its_parameters_and_required_flags():
    rows = _doc_rows()
    for name, entry in ops.data_ops().items():
        assert rows.get(name) == [(p.name, p.required) for p in entry.data_params], name
    assert set(rows) == set(ops.data_ops())


def test_a_plain_operation_is_a_function_and_an_asking_one_a_generator():
    for entry in ops.load().values():
        assert inspect.isgeneratorfunction(entry.run) == bool(entry.asks), entry.name


def test_the_registry_refuses_a_declaration_whose_asks_and_function_disagree():
    with pytest.raises(TypeError, match="asks"):

        @op("test_never_registered", asks=("yes_no",), data=False)
        def _plain(g, ctx, step) -> None:
            return None

    with pytest.raises(ValueError, match="declared twice"):

        @op("scry", does="again")
        def _again(g, ctx, step) -> None:
            return None

    assert "test_never_registered" not in ops.REGISTRY


def test_every_operation_says_what_it_means_to_the_computer():
    """The computer reads each operation's `Reading` (tests/ai/test_readings.py): an operation
    without one is refused as it is declared, so none in the registry lacks one."""
    with pytest.raises(ValueError, match="needs `reads`"):

        @op("test_never_registered", does="nothing")
        def _unread(g, ctx, step) -> None:
            return None

    assert "test_never_registered" not in ops.REGISTRY
    unread = [name for name, entry in ops.load().items() if not isinstance(entry.reads, Reading)]
    assert unread == []


def _card_steps():
    """(where, steps, divided) for every ability of every card."""
    for card in CARDS.values():
        for face in (card, card.adventure):
            if face is None:
                continue
            divided = any(t.divided for t in face.spell_targets)
            yield f"{face.name} (spell)", face.spell, divided
            for t in face.triggers:
                yield f"{face.name} ({t.text[:30]}…)", t.effect, False
            for a in face.activated:
                yield f"{face.name} ({a.text[:30]}…)", a.effect, False


def test_every_card_step_fits_its_declaration():
    problems = []
    for where, steps, divided in _card_steps():
        for i, step in enumerate(steps):
            found = step_problems(step, f"{where} step {i + 1}", data=False)
            if divided and step["op"] == "damage":
                # Damage divided as its caster chooses (CR 601.2d) takes its amounts from there.
                found = [p for p in found if "missing parameter 'amount'" not in p]
            problems += found
    assert problems == []


def test_every_official_room_fits_the_data_vocabulary():
    for data in official_dungeon_dicts():
        assert validate_dungeon_dict(data) == [], data["name"]


def _cellar(step: dict) -> dict:
    return {
        "name": "Cellar",
        "rooms": [{"name": "Stairs", "text": "Something.", "leads_to": [], "effect": [step]}],
    }


@pytest.mark.parametrize(
    "step, message",
    [
        ({"op": "scry"}, "(scry): missing parameter 'amount'"),
        ({"op": "scry", "amount": "two"}, "amount has the wrong type ('two'); it takes a whole"),
        ({"op": "scry", "amount": True}, "amount has the wrong type (True)"),
        ({"op": "scry", "amount": -1}, "amount can't be negative"),
        ({"op": "teleport"}, "unknown operation 'teleport'; known: add_counters"),
        ({"op": "attach", "target": "creature"}, "unknown operation 'attach'"),
        ({"op": "gain_life", "amount": 1, "who": "everyone"}, "unknown who 'everyone'"),
        ({"op": "modify", "target": "creature", "set_base": [1]}, "set_base takes two whole"),
        ({"op": "modify", "target": "creature", "keywords": ["flyin"]}, "keywords: unknown"),
        ({"op": "modify", "target": "creature", "add_types": ["Bird"]}, "unknown parameter"),
        ({"op": "venture", "undercity": "yes"}, "undercity has the wrong type"),
    ],
)
def test_a_bad_step_gets_a_clear_message_naming_the_room(step, message):
    problems = validate_dungeon_dict(_cellar(step))
    assert any(message in p and "Room 'Stairs', step 1" in p for p in problems), problems


def test_who_may_name_a_numbered_target_phrase():
    step = {"op": "lose_life", "who": "target0", "amount": 1}
    assert not any("who" in p for p in step_problems(step, "here"))


def test_a_newly_declared_operation_is_valid_in_a_room_at_once(monkeypatch):
    entry = Op(
        "test_echo",
        lambda g, c, s: None,
        (Param("amount", INT, required=True, minimum=0), Param("word", TEXT, choices=("a",))),
        does="test",
    )
    monkeypatch.setitem(ops.REGISTRY, "test_echo", entry)
    assert validate_dungeon_dict(_cellar({"op": "test_echo", "amount": 2, "word": "a"})) == []
    assert "missing parameter 'amount'" in "".join(
        validate_dungeon_dict(_cellar({"op": "test_echo"}))
    )
    assert "| `test_echo` | **amount**, word | test |" in vocabulary_doc.operations_table()


def _checking(entry: Op, seen: dict[str, set[str]]) -> Op:
    """The entry with its run wrapped: every decision it yields must be of a declared kind."""

    def run(g, ctx, step):
        inner = entry.run(g, ctx, step)
        try:
            decision = next(inner)
            while True:
                assert decision.kind in entry.asks, (entry.name, decision.kind)
                seen.setdefault(entry.name, set()).add(decision.kind)
                decision = inner.send((yield decision))
        except StopIteration as stop:
            return stop.value

    return dataclasses.replace(entry, run=run) if entry.asks else entry


def test_each_operation_asks_only_what_it_declares(monkeypatch):
    seen: dict[str, set[str]] = {}
    for name, entry in list(ops.load().items()):
        monkeypatch.setitem(ops.REGISTRY, name, _checking(entry, seen))
    files = sorted(SCENARIOS.rglob("*.yaml"))
    assert files
    for path in files:
        outcome = run_file(path)
        assert outcome.passed, (path, outcome.problems)
    assert {"scry", "venture", "lose_life_unless", "throne_of_the_dead_three"} <= set(seen)
