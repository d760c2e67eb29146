"""The rules engine (game/engine) is pure Python: nothing below it may import Django or the ORM.

The imports are read with ast, so a guarded or indented import counts too, and relative
imports are resolved against the file's package (`from ..models import Game` is game.models).
"""

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = REPO_ROOT / "game" / "engine"
AI_DIR = REPO_ROOT / "game" / "ai"  # the computer player runs where the engine runs

# A module is forbidden if it is one of these or lies below one of them.
FORBIDDEN_MODULES = (
    "django",
    "channels",
    "channels_redis",
    "daphne",
    "django_htmx",
    "game.models",
    "dungeons.models",
)


def is_forbidden(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in FORBIDDEN_MODULES)


def package_of(path: Path, root: Path) -> list[str]:
    """The dotted package a file belongs to, as parts: root/game/engine/x.py -> [game, engine]."""
    return list(path.relative_to(root).parent.parts)


def imported_modules(source: str, package: list[str]) -> list[tuple[int, str]]:
    """(line, absolute module name) for every module an import statement names."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package[: len(package) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.append((node.lineno, base))
            # `from game import models` imports game.models itself.
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def forbidden_imports(engine_dir: Path, root: Path) -> list[str]:
    problems = []
    for path in sorted(engine_dir.rglob("*.py")):
        package = package_of(path, root)
        source = path.read_text(encoding="utf-8")
        for line, module in imported_modules(source, package):
            if is_forbidden(module):
                problems.append(f"{path.relative_to(root)}:{line} imports {module}")
    return problems


def test_engine_imports_no_django_channels_or_models():
    if not ENGINE_DIR.is_dir():
        pytest.skip(f"{ENGINE_DIR.relative_to(REPO_ROOT)} does not exist yet")

    assert forbidden_imports(ENGINE_DIR, REPO_ROOT) == []


def test_the_computer_player_imports_no_django_channels_or_models():
    assert forbidden_imports(AI_DIR, REPO_ROOT) == []


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import django", "django"),
        ("from django.db import models", "django.db"),
        ("import channels.layers", "channels.layers"),
        ("from game.models import Game", "game.models"),
        ("from game import models", "game.models"),
        ("from dungeons.models import DungeonCard", "dungeons.models"),
        ("from ..models import Game", "game.models"),
        ("from .. import models", "game.models"),
        ("def f():\n    from django.conf import settings\n", "django.conf"),
    ],
)
def test_checker_catches_forbidden_import(tmp_path, source, module):
    engine = tmp_path / "game" / "engine"
    engine.mkdir(parents=True)
    (engine / "rules.py").write_text(source, encoding="utf-8")

    problems = forbidden_imports(engine, tmp_path)

    assert any(problem.endswith(f"imports {module}") for problem in problems), problems


@pytest.mark.parametrize(
    "source",
    [
        "import dataclasses\nfrom typing import Protocol",
        "from game.engine import mana",
        "from . import decisions",
        "from .cards import varis",
        "import djangoish",
        "from game import engine",
    ],
)
def test_checker_allows_pure_imports(tmp_path, source):
    engine = tmp_path / "game" / "engine"
    engine.mkdir(parents=True)
    (engine / "rules.py").write_text(source, encoding="utf-8")

    assert forbidden_imports(engine, tmp_path) == []
