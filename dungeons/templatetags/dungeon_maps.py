"""Template tags that draw dungeon maps with the game's map template (`game/_map.html`)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from dungeons.maplayout import layout
from game.engine.dungeon import DungeonError

register = template.Library()


@register.simple_tag
def dungeon_map_for_card(card) -> SafeString:  # noqa: ANN001
    """The map of a saved DungeonCard (the admin preview)."""
    try:
        spec = card.to_spec()
    except DungeonError as e:
        return render_to_string("dungeons/_map_invalid.html", {"problems": e.problems})
    return render_to_string("game/_map.html", {"map": layout(spec)})
