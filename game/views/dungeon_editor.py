"""The dungeon editor's "Try it": a practice game about to venture into the dungeon being
designed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from game import services
from game.services import rate_limits

from .viewer import current_player


@login_required
@require_POST
@rate_limits.limited("game")
def try_dungeon(request: HttpRequest, card_id: int) -> HttpResponse:
    """A practice game about to venture into dungeon `card_id`, for a designer (whom the admin
    lets into the dungeon editor); the dungeon as saved now, named as a game would name it."""
    from dungeons.access import may_edit_dungeons
    from dungeons.models import DungeonCard

    if not may_edit_dungeons(request):
        return HttpResponseForbidden("Only dungeon designers can try a dungeon.")
    card = get_object_or_404(DungeonCard, pk=card_id)
    player = current_player(request)
    assert player is not None
    try:
        game = services.start_practice(player, card.as_played())
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(reverse("admin:dungeons_dungeoncard_change", args=[card.pk]))
    return redirect(game)
