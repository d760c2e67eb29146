"""Template tags that draw dungeon maps with the game's map macro (`dungeon_map` in
templates/jinja2/game/_macros.html), so the admin's preview is the map players see."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from dungeons.maplayout import layout
from game import board
from game.engine.dungeon import DungeonError

register = template.Library()


@register.simple_tag
def dungeon_map_for_card(card) -> SafeString:  # noqa: ANN001
    """The map of a saved DungeonCard (the admin preview)."""
    try:
        spec = card.to_spec()
    except DungeonError as e:
        return render_to_string("dungeons/_map_invalid.html", {"problems": e.problems})
    html = board.read_only_map(layout(spec))
    return mark_safe(html)  # noqa: S308 - the macro's own autoescaped output
