"""The registry of decision kinds (game/engine/kinds.py) is the one declaration of every kind:
each decision the engine asks is of a registered kind and of its declared shape, every kind an
operation or a rules module names is registered, a declaration lacking any part is refused, and
the doc's table of option labels is generated from it. (The page's part of each kind is held
by tests/web/test_decision_layouts.py, the computer's by tests/ai/test_decisions.py.)"""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest

from game.decks import STARTER_DECKS
from game.engine import kinds, kinds_doc, ops
from game.engine.bot import random_answer
from game.engine.decisions import Decision
from game.scenario import run_file

from .helpers import new_game

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "game" / "engine"
SCENARIOS = ROOT / "tests" / "scenarios"

# What a decision's flags must be for each shape.
FLAGS = {
    kinds.ONE: lambda d: not d.multi and not d.ordered,
    kinds.SOME: lambda d: d.multi and not d.ordered,
    kinds.ONE_OR_SOME: lambda d: not d.ordered,
    kinds.ORDER: lambda d: d.ordered and not d.multi,
}


def test_the_committed_doc_has_the_generated_table():
    doc = kinds_doc.DOC.read_text(encoding="utf-8")
    assert kinds_doc.with_table(doc) == doc, (
        "docs/scenarios.md's option labels differ from the registry: run "
        "`.venv/bin/python -m game.engine.kinds_doc`"
    )


def test_every_shape_has_its_flags_and_its_answer_form():
    assert set(FLAGS) == set(kinds.ANSWER_FORMS)


def _recording(monkeypatch) -> list[Decision]:
    """Every decision built from now on, kept for a look afterwards."""
    made: list[Decision] = []
    built = Decision.__post_init__

    def post_init(self: Decision) -> None:
        built(self)
        made.append(self)

    monkeypatch.setattr(Decision, "__post_init__", post_init)
    return made


def test_every_decision_asked_is_of_a_registered_kind_and_its_shape(monkeypatch):
    made = _recording(monkeypatch)
    files = sorted(SCENARIOS.rglob("*.yaml"))
    assert files
    for path in files:
        run_file(path)  # (a failing file is test_scenarios' business; its decisions count here)
    pairings = list(itertools.permutations(STARTER_DECKS.values(), 2))
    for seed in range(6):
        alice, bob = pairings[seed % len(pairings)]
        game = new_game(seed, {"alice": alice, "bob": bob})
        rng = random.Random(seed)
        while (d := game.pending) is not None:
            game.answer(d.player, random_answer(d, rng))
    seen: set[str] = set()
    for d in made:
        assert d.kind in kinds.KINDS, f"{d.kind!r} ({d.prompt}) is not in game/engine/kinds.py"
        shape = kinds.KINDS[d.kind].shape
        assert FLAGS[shape](d), (d.kind, shape, d.multi, d.ordered)
        seen.add(d.kind)
    # Every kind is asked by a scenario file or a random game, so its labels and shape are
    # exercised; a new kind comes with a scenario file that asks it (docs/how-to-add.md,
    # "A kind of decision").
    assert set(kinds.KINDS) - seen == NOT_IN_SCENARIOS, sorted(set(kinds.KINDS) - seen)


# Kinds no scenario file asks: a division of more than 60 ways needs a creature of power 12 or
# so blocked by several (tests/engine/test_combat.py asks it).
NOT_IN_SCENARIOS = {kinds.ASSIGN_COMBAT_DAMAGE_PART}


# Where each asking helper takes its kind: (positional index, keyword).
ASKING = {"Decision": (1, "kind"), "choose_objects": (5, "kind"), "order_items": (4, "kind")}


def _kinds_named(tree: ast.Module, constants: dict[str, str]) -> list[tuple[int, str]]:
    """(line, kind) for every kind a module names where a decision is built or an operation
    declared, as a literal or as a constant of kinds.py; a helper's parameter (choose_objects
    passes its own `kind` on) is checked where the helper is called."""
    found: list[tuple[int, ast.expr]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name in ASKING:
            index, keyword = ASKING[name]
            args = [a for a in node.args if not isinstance(a, ast.Starred)]
            if len(args) > index:
                found.append((node.lineno, args[index]))
            found += [(node.lineno, k.value) for k in node.keywords if k.arg == keyword]
        elif name == "op":
            for k in node.keywords:
                if k.arg == "asks" and isinstance(k.value, ast.Tuple):
                    found += [(node.lineno, e) for e in k.value.elts]
    out = []
    for line, expr in found:
        exprs = [expr.body, expr.orelse] if isinstance(expr, ast.IfExp) else [expr]
        for e in exprs:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                out.append((line, e.value))
            elif isinstance(e, ast.Attribute) and e.attr in constants:
                out.append((line, constants[e.attr]))
            elif isinstance(e, ast.Name) and e.id in constants:
                out.append((line, constants[e.id]))
    return out


def test_every_kind_the_engine_source_names_is_registered():
    constants = {
        name: value
        for name, value in vars(kinds).items()
        if name.isupper() and isinstance(value, str) and value in kinds.KINDS
    }
    named = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named += [(path.relative_to(ROOT), line, k) for line, k in _kinds_named(tree, constants)]
    assert len(named) > 40  # the scan finds the engine's decisions
    unknown = [f"{path}:{line}: {k!r}" for path, line, k in named if k not in kinds.KINDS]
    assert not unknown, "kinds not in game/engine/kinds.py:\n" + "\n".join(unknown)


def test_every_kind_an_operation_asks_is_registered():
    asked = {k for entry in ops.load().values() for k in entry.asks}
    assert asked <= set(kinds.KINDS), sorted(asked - set(kinds.KINDS))


def test_every_kind_has_each_part():
    for k in kinds.KINDS.values():
        assert k.asks and k.answer and k.computer and k.waiting, k.name
        assert k.shape in kinds.ANSWER_FORMS and k.layout in kinds.LAYOUTS, k.name


WHOLE = dict(
    asks="something",
    shape=kinds.ONE,
    layout="buttons",
    answer="a label",
    computer="choose_safely",
    waiting="is choosing",
)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"shape": "a few"}, "unknown shape"),
        ({"layout": "carousel"}, "unknown layout"),
        ({"shape": kinds.ORDER}, "shows as 'order'"),
        ({"shape": kinds.SOME}, "shows as 'checkboxes'"),
        ({"shape": kinds.SOME, "layout": kinds.PLACEMENT}, "the placement is the scry's"),
        ({"answer": ""}, "needs asks, answer, computer and waiting"),
        ({"computer": ""}, "needs asks, answer, computer and waiting"),
        ({"waiting": ""}, "needs asks, answer, computer and waiting"),
    ],
)
def test_a_declaration_lacking_a_part_is_refused(monkeypatch, change, message):
    monkeypatch.setattr(kinds, "KINDS", dict(kinds.KINDS))
    with pytest.raises(ValueError, match=message):
        kinds.kind("test_never_registered", **{**WHOLE, **change})


def test_a_kind_is_declared_once(monkeypatch):
    monkeypatch.setattr(kinds, "KINDS", dict(kinds.KINDS))
    with pytest.raises(ValueError, match="declared twice"):
        kinds.kind(kinds.PRIORITY, **WHOLE)
