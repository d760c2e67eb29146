"""A game's replay: a point of it as the viewer may see it, that point as a scenario file, and
a new game played on from it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from game import board, services
from game.forms.new_game import PlayOnForm
from game.models import Game
from game.services import rate_limits

from .viewer import current_player


def replay(request: HttpRequest, code: str) -> HttpResponse:
    """A game's replay at one point (`?at=N`: after N answers; the last one by default), as the
    viewer may see it (services.replays). Asked for by static/js/replay.js (the header
    `X-Replay-Point`), only the part that changes from point to point."""
    # The setup is read only to build the replay, once (a step reads the process's timeline).
    game = get_object_or_404(Game.objects.defer(*Game.BULKY), code=code)
    player = current_player(request)
    try:
        tl = services.timeline(game, player)
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(game)
    at = services.point(tl, request.GET.get("at"))
    rv = board.replay_view(game, player, tl, at)
    if request.headers.get("X-Replay-Point"):
        return HttpResponse(board.render_point(rv, get_token(request)))
    sv = board.summary_view(game, tl, at)
    html = board.render_replay(rv, sv, get_token(request))
    ctx = {"game": game, "title": rv.title, "title_players": rv.title.split(" · ")[0]}
    return render(request, "game/replay.html", {**ctx, "replay_html": html})


def replay_scenario(request: HttpRequest, code: str) -> HttpResponse:
    """A point of a finished game's replay as a scenario file (docs/scenarios.md)."""
    game = get_object_or_404(Game, code=code)
    try:
        tl = services.timeline(game, current_player(request))
        at = services.point(tl, request.GET.get("at"))
        text = services.scenario_at(game, tl, at)
    except services.ActionRefused as e:
        return HttpResponse(e.message, status=400, content_type="text/plain; charset=utf-8")
    response = HttpResponse(text, content_type="text/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="venture-{game.code}-{at}.yaml"'
    return response


@login_required
@require_POST
@rate_limits.limited("game")
def replay_play_on(request: HttpRequest, code: str) -> HttpResponse:
    """A new game from a point of a finished game's replay, hosted by the viewer, against a
    friend or the computer."""
    game = get_object_or_404(Game, code=code)
    player = current_player(request)
    assert player is not None
    form = PlayOnForm(request.POST)
    valid = form.is_valid()
    at = form.cleaned_data.get("at")
    back = reverse("replay", args=[code]) + ("" if at is None else f"?at={at}")
    if not valid:
        problems = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())
        messages.error(request, f"This new game can't start: {problems}")
        return redirect(back)
    try:
        new = services.play_on(
            game.pk,
            player,
            form.cleaned_data["at"],
            side=form.cleaned_data["side"],
            level=form.level,
        )
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(back)
    return redirect(new)
