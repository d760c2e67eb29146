"""A dungeon map drawn as HTML and SVG: the `dungeon_map` macro of
`templates/jinja2/dungeons/_map.html` over a `maplayout.DungeonMap`.

The one drawing of a map: the game's board (its templates import the macro) and the admin's
preview (`templatetags/dungeon_maps.py`) both come here, so dependencies run one way, from the
game to this app. Only the Jinja2 environment Django configured is used (TEMPLATES["jinja2"]),
not the game's modules.
"""

from __future__ import annotations

from typing import Any

from django.template import engines
from markupsafe import Markup

from .maplayout import DungeonMap

MAP_TEMPLATE = "dungeons/_map.html"


def map_macro() -> Any:  # a jinja2 Macro: (DungeonMap, form data or None) -> Markup
    """The macro that draws a map (the environment caches the template)."""
    return engines["jinja2"].env.get_template(MAP_TEMPLATE).module.dungeon_map


def read_only_map(dungeon_map: DungeonMap) -> Markup:
    """A map without any buttons (its rooms and card carry no option ids)."""
    return Markup(map_macro()(dungeon_map, None))
