"""Dependencies run one way (docs/architecture.md, "Layers"): the web layer (views, consumers)
calls the services, the services call the engine, the models and the runtime, and nothing below
reaches back up. Imports under `if TYPE_CHECKING:` are for type hints only and not counted."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package (a folder or a module, as a dotted prefix) -> prefixes it must never import
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "game.engine": (
        "django",
        "game.models",
        "game.services",
        "game.runtime",
        "dungeons",
        "game.ai",
    ),
    # The computer player: pure like the engine, a peer above it (docs/ai.md).
    "game.ai": (
        "django",
        "channels",
        "game.models",
        "game.services",
        "game.runtime",
        "game.board",
        "game.consumers",
        "game.views",
        "game.routing",
        "game.computer_turns",
        "dungeons",
    ),
    "game.scenario": ("django", "game.models", "game.services", "game.board"),
    "game.runtime": (
        "game.services",
        "game.board",
        "game.consumers",
        "game.views",
        "game.computer_turns",
    ),
    "game.services": (
        "game.board",
        "game.consumers",
        "game.views",
        "game.routing",
        "game.computer_turns",
    ),
    "game.board": ("game.consumers", "game.views", "game.routing", "game.computer_turns"),
    "game.views": ("game.consumers", "game.routing"),
    "dungeons": ("game.board", "game.services", "game.consumers", "game.views", "game.runtime"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports (relative imports resolved), outside TYPE_CHECKING blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def _files(prefix: str) -> list[Path]:
    path = ROOT / prefix.replace(".", "/")
    if path.is_dir():
        return sorted(p for p in path.rglob("*.py") if "migrations" not in p.parts)
    return [path.with_suffix(".py")]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_never_imports_the_layers_above_it(layer):
    files = _files(layer)
    assert files, layer
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in _imports(path)
        if any(module == f or module.startswith(f + ".") for f in FORBIDDEN[layer])
    ]
    assert not wrong, "\n".join(wrong)


def test_the_web_layer_uses_only_the_services_public_names():
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for prefix in ("game.views", "game.consumers", "game.board", "game.runtime", "dungeons")
        for path in _files(prefix)
        for line, module in _imports(path)
        if module.startswith("game.services.")
        and (module.count(".") > 2 or module.rsplit(".", 1)[1].startswith("_"))
    ]
    assert not wrong, "\n".join(wrong)


def test_the_websocket_module_reads_no_model_itself():
    source = (ROOT / "game" / "consumers.py").read_text(encoding="utf-8")
    assert ".objects." not in source
