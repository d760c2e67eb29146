"""The Learn section and the Puzzles pages (docs/puzzles.md, "At the table"): the lessons in
order with the viewer's marks, the puzzles with their ratings and the viewer's results, the daily
puzzle, a puzzle's page; starting, giving up and trying again a training game (each a plain POST
that leads to the game page, where the table shows the lesson or the puzzle)."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from game import services
from game.models import Game
from game.puzzles.catalog import lesson
from game.views.viewer import current_player

from .models import Puzzle


def learn(request: HttpRequest) -> HttpResponse:
    player = current_player(request)
    rows = services.lesson_list(player)
    return render(
        request,
        "learn/learn.html",
        {
            "rows": rows,
            "done": sum(1 for _, done in rows if done),
            "player": player,
        },
    )


@login_required
@require_POST
def lesson_start(request: HttpRequest, slug: str) -> HttpResponse:
    if lesson(slug) is None:
        raise Http404("No such lesson.")
    player = current_player(request)
    assert player is not None
    try:
        game = services.start_lesson(player, slug)
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect("learn")
    return redirect(game)


def puzzles(request: HttpRequest) -> HttpResponse:
    player = current_player(request)
    return render(
        request,
        "learn/puzzles.html",
        {
            "rows": services.puzzle_rows(player),
            "daily": services.daily_puzzle(timezone.localdate()),
            "player": player,
            "rating": round(services.rating_of(player).rating) if player else None,
        },
    )


def puzzle_daily(request: HttpRequest) -> HttpResponse:
    puzzle = services.daily_puzzle(timezone.localdate())
    if puzzle is None:
        raise Http404("There are no puzzles yet.")
    return _puzzle_page(request, puzzle, daily=timezone.localdate())


def puzzle(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Puzzle, slug=slug)
    return _puzzle_page(request, found)


def _visible(request: HttpRequest, found: Puzzle) -> bool:
    return found.published or request.user.is_staff


def _puzzle_page(
    request: HttpRequest, found: Puzzle, daily: datetime.date | None = None
) -> HttpResponse:
    if not _visible(request, found):
        raise Http404("No such puzzle.")
    player = current_player(request)
    attempts = list(found.attempts.filter(player=player)) if player is not None else []
    return render(
        request,
        "learn/puzzle.html",
        {
            "puzzle": found,
            "daily": daily,
            "rating": round(found.rating),
            "attempts": attempts,
            "running": services.running_game_code(player, found),
            "player": player,
        },
    )


@login_required
@require_POST
def puzzle_start(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Puzzle, slug=slug)
    if not _visible(request, found):
        raise Http404("No such puzzle.")
    player = current_player(request)
    assert player is not None
    try:
        game = services.start_puzzle(player, found)
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(found)
    return redirect(game)


@login_required
@require_POST
def training_give_up(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    try:
        services.give_up(game.pk, current_player(request))
    except services.ActionRefused as e:
        messages.error(request, e.message)
    return redirect(game)


@login_required
@require_POST
def training_again(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    try:
        new = services.try_again(game.pk, current_player(request))
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(game)
    return redirect(new)


@login_required
@require_POST
def puzzle_draft(request: HttpRequest, code: str) -> HttpResponse:
    """Staff: a point of a finished game's replay as an unpublished puzzle, opened in the admin
    to write its solution."""
    game = get_object_or_404(Game, code=code)
    player = current_player(request)
    if not request.user.is_staff:
        return HttpResponseForbidden("Only staff make puzzles from games.")
    back = reverse("replay", args=[code]) + f"?at={request.POST.get('at', '')}"
    try:
        draft = services.draft_from_replay(
            game.pk, player, request.POST.get("at"), request.POST.get("goal", "win")
        )
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(back)
    messages.success(request, "A puzzle draft: write its solution, then publish it.")
    return redirect(reverse("admin:learn_puzzle_change", args=[draft.pk]))
