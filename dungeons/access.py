"""Who may use the dungeon editor, for the pages that offer it outside the admin (the site's
header, "Try it"): the admin's own checks, so the site never offers what the admin refuses."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import DungeonCard


def may_edit_dungeons(request: HttpRequest) -> bool:
    """Whether the admin lets this request's user into the dungeon editor's list of dungeons: an
    active staff account allowed to see or change dungeon cards (a superuser, or a member of the
    "Dungeon designers" group)."""
    if not admin.site.has_permission(request):
        return False
    return admin.site.get_model_admin(DungeonCard).has_view_or_change_permission(request)


def dungeon_editor(request: HttpRequest) -> dict[str, bool]:
    """Template context processor: `may_edit_dungeons`, for the site's header."""
    return {"may_edit_dungeons": may_edit_dungeons(request)}
