"""One drawing of a dungeon map (dungeons/mapdraw.py, templates/jinja2/dungeons/_map.html) for the
admin's preview and the game's board, and dependencies that run one way: the game uses the
dungeons app, the dungeons app never imports the game's board."""

from __future__ import annotations

import ast
from pathlib import Path

from dungeons.mapdraw import map_macro, read_only_map
from dungeons.maplayout import layout
from dungeons.official import official_dungeons
from game.board import render as board_render

ROOT = Path(__file__).resolve().parents[2]
DUNGEONS = ROOT / "dungeons"
TEMPLATES = ROOT / "templates" / "jinja2"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_the_dungeons_app_never_imports_the_board():
    for path in DUNGEONS.rglob("*.py"):
        assert not any(n.startswith("game.board") for n in _imports(path)), path


def test_the_preview_and_the_board_draw_a_map_with_the_same_macro():
    spec = official_dungeons()["Tomb of Annihilation"]
    m = layout(spec, current=spec.top)
    html = str(read_only_map(m))
    assert html.startswith('<figure class="dungeon-map"') and "venture-marker" in html
    assert str(map_macro()(m, None)) == html
    # The board draws its maps with that macro (`draw_map`; its prompt imports it) and holds no
    # drawing of its own.
    assert board_render.map_macro is map_macro
    for template in TEMPLATES.glob("game/*.html"):
        assert 'class="dungeon-map' not in template.read_text(encoding="utf-8"), template
