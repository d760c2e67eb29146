"""A player's profile (games, results, ratings, completed dungeons), the leaderboard, and the
link to one's own profile."""

from __future__ import annotations

from collections import Counter

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Exists, F, OuterRef, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from game import board, services
from game.models import CompletedDungeon, Game, Player, Seat

from .viewer import current_player


def profile(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    games = (
        Game.objects.filter(seats__player=player)
        .prefetch_related("seats__player")
        .order_by("-created")
    )
    rows = []
    for game in games[:100]:
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.player_id == player.pk), None)
        other = next((s for s in seats if s.player_id != player.pk), None)
        if game.status == Game.FINISHED:
            if game.winner == "draw":
                result = "draw"
            elif mine is not None and game.winner == mine.engine_name:
                result = "won"
            else:
                result = "lost"
        else:
            result = game.get_status_display()
        rows.append({"game": game, "opponent": other.player if other else None, "result": result})
    # Games against the computer are listed apart from games against people (the computer's
    # own profile lists its games against people, which is all of them).
    against_computer = [r for r in rows if r["opponent"] is not None and r["opponent"].is_computer]
    rows = [r for r in rows if r not in against_computer]
    completed = list(CompletedDungeon.objects.filter(player=player).select_related("game"))
    counts = Counter(c.dungeon for c in completed)
    # Over all the player's finished games, not just the rows listed (the latest 100). A player
    # has at most one seat in a game, so counting seats counts games.
    won = Q(game__winner=F("engine_name")) & ~Q(game__winner="draw")
    computer_game = Exists(
        Seat.objects.filter(game=OuterRef("game"), player__computer_level__gt="")
    )
    stats = (
        Seat.objects.filter(player=player, game__status=Game.FINISHED)
        .annotate(vs_computer=computer_game)
        .aggregate(
            played=Count("pk", filter=Q(vs_computer=False)),
            wins=Count("pk", filter=won & Q(vs_computer=False)),
            computer_played=Count("pk", filter=Q(vs_computer=True)),
            computer_wins=Count("pk", filter=won & Q(vs_computer=True)),
        )
    )
    rating_history = services.history(player)
    return render(
        request,
        "profile.html",
        {
            "profile": player,
            "rating": services.shown(player.rating, player.rating_deviation),
            "provisional": services.is_provisional(player.rating_deviation),
            "rating_history": rating_history,
            "rating_chart": board.rating_chart(
                [(c.at, c.rating_after, c.opponent.display_name) for c in rating_history],
                start=rating_history[0].rating_before if rating_history else None,
            ),
            "by_opponent": services.results_by_opponent(player),
            "rows": rows,
            "computer_rows": against_computer,
            "computer_finished": stats["computer_played"],
            "computer_wins": stats["computer_wins"],
            "completed": completed,
            "dungeon_counts": sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])),
            "finished": stats["played"],
            "wins": stats["wins"],
            "is_me": request.user.is_authenticated and player.user_id == request.user.pk,
        },
    )


def leaderboard(request: HttpRequest) -> HttpResponse:
    """The rated players active lately (a rated game in the last ratings.ACTIVE_DAYS days), best
    first; a provisional rating (deviation above 110) is marked "?", as on Lichess."""
    rows = [
        {
            "player": p,
            "rating": services.shown(p.rating, p.rating_deviation),
            "provisional": services.is_provisional(p.rating_deviation),
        }
        for p in services.leaderboard(timezone.now())
    ]
    return render(
        request,
        "leaderboard.html",
        {"rows": rows, "active_days": services.ACTIVE_DAYS, "player": current_player(request)},
    )


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    player = current_player(request)
    assert player is not None
    return redirect(reverse("profile", args=[player.pk]))
