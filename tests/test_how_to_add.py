"""docs/how-to-add.md stays true: every path it names exists, every module that declares an
operation, a card set or a rule of the computer is one it names, and every card of the pool is
named by a scenario file (the page's first list asks for one)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from game.engine import kinds, ops
from game.engine.cards import CARDS

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "how-to-add.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text of the page's `## title` section."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DOC, re.M | re.S)
    assert match, f"docs/how-to-add.md has no section {title!r}"
    return match.group(1)


def _paths(text: str) -> set[str]:
    """The repository paths written in backquotes (`game/engine/ops.py`, `tests/scenarios/`),
    placeholders such as `<dungeon>` left out."""
    quoted = re.findall(r"`([^`\s]+)`", text)
    return {q for q in quoted if "/" in q and "<" not in q and not q.startswith(("/", "."))}


def _named(path: Path, text: str) -> bool:
    """Whether `text` names the file or one of the folders it is in."""
    rel = path.relative_to(ROOT).as_posix()
    names = _paths(text)
    return rel in names or any(n.endswith("/") and rel.startswith(n) for n in names)


def test_every_path_the_page_names_exists() -> None:
    missing = sorted(p for p in _paths(DOC) if not (ROOT / p).exists())
    assert not missing, f"docs/how-to-add.md names paths that do not exist: {missing}"


def test_every_module_that_declares_an_operation_is_where_the_page_says() -> None:
    section = _section("A room operation")
    modules = {Path(inspect.getfile(entry.run)) for entry in ops.load().values()}
    assert len(modules) > 3
    unnamed = sorted(m.relative_to(ROOT).as_posix() for m in modules if not _named(m, section))
    assert not unnamed, f"operations are declared in modules the page does not name: {unnamed}"


def test_what_a_card_is_and_every_set_of_the_pool_are_where_the_page_says() -> None:
    section = _section("A card")
    card_module = Path(inspect.getfile(next(iter(CARDS.values())).__class__))
    sets = [
        p
        for p in (ROOT / "game" / "engine" / "cards").glob("*.py")
        if re.search(r"^CARDS\b", p.read_text(encoding="utf-8"), re.M)
    ]
    assert len(sets) > 2
    for path in [card_module, *sets]:
        assert _named(path, section), f"{path.relative_to(ROOT)} is not named under 'A card'"


def test_every_card_of_the_pool_is_named_by_a_scenario_file() -> None:
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "scenarios").rglob("*.yaml")
    )
    unproven = sorted(name for name in CARDS if name not in text)
    assert not unproven, f"cards no scenario file names: {unproven}"


def test_every_module_of_the_computers_rules_is_named() -> None:
    section = _section("A rule of the computer")
    from game.ai import policy

    rules = {spec.computer for spec in kinds.KINDS.values()}
    modules = set()
    for rule in rules:
        method = getattr(policy.Policy, rule)
        modules.add(Path(inspect.getfile(method)))
    assert len(modules) > 1
    unnamed = sorted(m.relative_to(ROOT).as_posix() for m in modules if not _named(m, section))
    assert not unnamed, f"the computer's rules live in modules the page does not name: {unnamed}"


def test_the_kind_sections_files_are_the_registrys() -> None:
    """The section on kinds names the registry, the panel's template and the layout test that
    the registry's declarations point to."""
    section = _section("A kind of decision")
    for path in (
        "game/engine/kinds.py",
        "templates/jinja2/game/_macros.html",
        "tests/web/test_decision_layouts.py",
        "tests/engine/test_kinds.py",
    ):
        assert path in _paths(section), path
    for name in kinds.LAYOUTS:
        assert f'prompt.layout == "{name}"' in (
            ROOT / "templates" / "jinja2" / "game" / "_macros.html"
        ).read_text(encoding="utf-8"), name
