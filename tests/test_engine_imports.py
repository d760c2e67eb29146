"""The engine's modules import each other at module top, and never in a circle.

An import written inside a function hides a dependency from the reader, and is almost always
there to dodge a cycle that a module-level import would break on. So every
`import` in game/engine is a module-level statement, and the modules those statements connect
form no cycle.

Read with ast, relative imports resolved. Not counted as edges:
- imports under `if TYPE_CHECKING:`: that block never runs (`typing.TYPE_CHECKING` is False at
  run time) and the hints it serves are strings (`from __future__ import annotations`), so it
  cannot take part in loading a module;
- a package a module lies in: Python runs the package's `__init__` before the module, so naming
  it costs nothing (a name taken from it, `from . import NAME`, does count).
A package whose `__init__` calls `importlib.import_module` at its top loads its own modules
(`rooms/`): it counts as importing every module in it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "game" / "engine"

# (file, function) pairs allowed to import when called. The effect registry's loader imports
# every module that declares an operation; those modules import `ops` to declare them, so `ops`
# cannot import them at its top. The engine's entry point (`game.py`) calls it as it is imported,
# and so does any reader of the whole vocabulary.
CALL_TIME_LOADERS = {("game/engine/ops.py", "load")}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package(path: Path, root: Path) -> list[str]:
    parts = _module_name(path, root).split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def _is_dynamic_import(node: ast.AST) -> bool:
    """`importlib.import_module(…)` or `__import__(…)`."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in {"import_module", "__import__"}
    )


def imports_inside_functions(engine: Path, root: Path) -> list[str]:
    """Every import made in a function or class body, as "file:line in NAME" (the innermost)."""
    problems = []

    def visit(node: ast.AST, where: str, scope: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = node.name
        elif scope is not None and (
            isinstance(node, ast.Import | ast.ImportFrom)
            or (_is_dynamic_import(node) and (where, scope) not in CALL_TIME_LOADERS)
        ):
            problems.append(f"{where}:{node.lineno} in {scope}")
        for child in ast.iter_child_nodes(node):
            visit(child, where, scope)

    for path in sorted(engine.rglob("*.py")):
        visit(ast.parse(path.read_text(encoding="utf-8")), path.relative_to(root).as_posix(), None)
    return problems


def import_graph(engine: Path, root: Path) -> dict[str, set[str]]:
    """Module name -> the engine modules it loads when imported."""
    files = {_module_name(p, root): p for p in sorted(engine.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = _package(path, root)
        hints_only = {
            id(n)
            for node in tree.body
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }
        runs_on_import = {id(n) for n in _top(tree)}
        named: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in hints_only:
                continue
            if isinstance(node, ast.Import):
                named |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                submodules = {f"{module}.{alias.name}" for alias in node.names} & files.keys()
                named |= submodules
                if len(submodules) < len(node.names):  # a name defined in `module` itself
                    named.add(module)
            elif (
                _is_dynamic_import(node)
                and path.name == "__init__.py"
                and id(node) in runs_on_import
            ):
                named |= {m for m in files if m.startswith(name + ".")}
        loaded = set()
        for module in named:
            loaded |= {module} & files.keys()
            # Importing a.b.c runs a and a.b first, except the packages `name` itself lies in.
            parts = module.split(".")
            for i in range(1, len(parts)):
                outer = ".".join(parts[:i])
                if outer in files and not name.startswith(outer + "."):
                    loaded.add(outer)
        graph[name] = loaded - {name}
    return graph


def _top(tree: ast.Module) -> list[ast.AST]:
    """The nodes that run when the module is imported: everything outside functions."""
    inner = {
        id(n)
        for scope in ast.walk(tree)
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for n in ast.walk(scope)
    }
    return [n for n in ast.walk(tree) if id(n) not in inner]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle, as a path back to its start, per strongly connected group of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while v not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)

    found = []
    for group in groups:
        start = min(group)
        paths = {start: [start]}
        queue = [start]
        while queue:
            v = queue.pop(0)
            for w in sorted(graph[v] & group):
                if w == start:
                    found.append([*paths[v], start])
                    queue = []
                    break
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    queue.append(w)
    return found


def test_no_import_inside_a_function_in_the_engine():
    assert imports_inside_functions(ENGINE, ROOT) == []


def test_the_engine_modules_import_each_other_in_no_cycle():
    graph = import_graph(ENGINE, ROOT)
    assert "game.engine.cards" in graph and "game.engine.carddef" in graph
    assert cycles(graph) == []


def test_the_card_pool_is_above_what_a_card_is():
    """The pool (`cards/`) loads every set and the sets run effects, so what a card is, the
    tokens, the state and the effects must not need the pool, even through another module."""
    graph = import_graph(ENGINE, ROOT)
    for name in ("carddef", "tokens", "state", "effects"):
        reached, todo = set(), [f"game.engine.{name}"]
        while todo:
            for module in graph[todo.pop()] - reached:
                reached.add(module)
                todo.append(module)
        assert "game.engine.cards" not in reached, name


def test_importing_the_engine_loads_every_operation():
    """Nothing above `ops` may import the declaring modules, so the entry point loads them; a
    fresh process shows it (in this one, other tests have loaded them already)."""
    script = (
        "from game.engine import game, ops\n"
        "known = set(ops.REGISTRY)\n"
        "print(sorted(set(ops.load()) - known))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def _write(root: Path, files: dict[str, str]) -> Path:
    engine = root / "game" / "engine"
    for name, source in files.items():
        path = engine / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return engine


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("def f():\n    from .zones import move\n", "2 in f"),
        ("def f():\n    import json\n", "2 in f"),
        ("class A:\n    def f(self):\n        from game.engine import zones\n", "3 in f"),
        ("class A:\n    from .zones import move\n", "2 in A"),
        ("async def f():\n    from . import zones\n", "2 in f"),
        ("import importlib\n\ndef f():\n    importlib.import_module('game.engine.z')\n", "4 in f"),
        ("def f():\n    return __import__('game.engine.zones')\n", "2 in f"),
    ],
)
def test_the_checker_finds_an_import_inside_a_function(tmp_path, source, found):
    engine = _write(tmp_path, {"rules.py": source})
    problems = imports_inside_functions(engine, tmp_path)
    assert f"game/engine/rules.py:{found}" in problems


@pytest.mark.parametrize(
    "files",
    [
        {"a.py": "from .b import x\n", "b.py": "from .a import y\n"},
        {"a.py": "from . import b\n", "b.py": "from game.engine import a\n"},
        {
            "a.py": "from .b import x\n",
            "b.py": "from .c import y\n",
            "c.py": "import game.engine.a\n",
        },
        # A set imports the rules; the rules import a card type from the package that loads the set.
        {
            "cards/__init__.py": "from . import afr\n",
            "cards/afr.py": "from ..effects import run\n",
            "cards/base.py": "x = 1\n",
            "effects.py": "from .cards.base import x\n",
        },
        # A module takes a name its own package defines after importing the module.
        {"pkg/__init__.py": "from .m import x\nY = 1\n", "pkg/m.py": "from . import Y\n"},
        # A package that loads its modules by name, one of which needs what imports the package.
        {
            "rooms/__init__.py": "import importlib\nimportlib.import_module(f'{__name__}.r')\n",
            "rooms/r.py": "from ..casting import cast\n",
            "casting.py": "from . import rooms\n",
        },
    ],
)
def test_the_checker_finds_a_cycle(tmp_path, files):
    engine = _write(tmp_path, files)
    assert cycles(import_graph(engine, tmp_path)) != []


@pytest.mark.parametrize(
    "files",
    [
        {"a.py": "from .b import x\n", "b.py": "import json\n"},
        # Hints only: never run.
        {
            "a.py": "from .b import x\n",
            "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n",
        },
        # A package's module naming a sibling: the package runs first, not again.
        {
            "cards/__init__.py": "from . import afr\nfrom .base import x\n",
            "cards/afr.py": "from .base import x\nfrom .conditions import c\n",
            "cards/base.py": "x = 1\n",
            "cards/conditions.py": "c = 1\n",
        },
    ],
)
def test_the_checker_accepts_a_graph_without_cycles(tmp_path, files):
    engine = _write(tmp_path, files)
    assert cycles(import_graph(engine, tmp_path)) == []


def test_the_registry_loader_is_the_one_call_time_import(tmp_path):
    engine = _write(
        tmp_path,
        {"ops.py": "import importlib\n\ndef load():\n    importlib.import_module('x')\n"},
    )
    assert imports_inside_functions(engine, tmp_path) == []
