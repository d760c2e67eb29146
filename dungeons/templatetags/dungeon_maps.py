"""Template tags that draw dungeon maps with the game's own map drawing (dungeons/mapdraw.py),
so the admin's preview is the map players see."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from dungeons.mapdraw import read_only_map
from dungeons.maplayout import layout
from game.engine.dungeon import DungeonError

register = template.Library()


@register.simple_tag
def dungeon_map_for_card(card) -> SafeString:
    """The map of a saved DungeonCard (the admin preview)."""
    try:
        spec = card.to_spec()
    except DungeonError as e:
        return render_to_string("dungeons/_map_invalid.html", {"problems": e.problems})
    return mark_safe(read_only_map(layout(spec)))
