"""The lobby and the ways into a game from it: a new game with a friend, a game against the
computer, Play now (quick pairing: a seek, its waiting panel, the list of seeks) and the
"Your turn" list, with the notifications' JSON of the same turns."""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from game import services
from game.decks import STARTER_DECKS
from game.forms.accounts import GuestForm
from game.forms.new_game import ComputerGameForm, CreateGameForm, PlayNowForm
from game.models import Game, Player, Seek
from game.services import rate_limits

from .viewer import current_player, deck_form_initial, remember_import


def lobby(request: HttpRequest) -> HttpResponse:
    player = current_player(request)
    seek = None
    if player is not None:
        # A waiting player's page (without JavaScript, reloading itself) is sent to the game
        # once the seek is paired, as the poll does with it.
        found = services.check_seek(player)
        if isinstance(found, Game):
            return redirect(found)
        seek = found
    extra = {"seek": seek, **_seek_view(seek)} if seek is not None else {}
    return render(request, "lobby.html", _lobby_context(player, **extra))


def _lobby_context(player: Player | None, **overrides: object) -> dict[str, object]:
    open_games = (
        Game.objects.filter(status=Game.OPEN).select_related("created_by").order_by("-created")[:30]
    )
    mine_active = mine_finished = []
    if player is not None:
        mine = Game.objects.filter(seats__player=player).prefetch_related("seats__player")
        mine_active = list(mine.exclude(status=Game.FINISHED).order_by("-created")[:30])
        for game in mine_active:
            seat = next((s for s in game.seats.all() if s.player_id == player.pk), None)
            game.my_move = seat is not None and game.deciding == seat.engine_name
        mine_finished = list(mine.filter(status=Game.FINISHED).order_by("-finished")[:15])
    return {
        "player": player,
        "open_games": open_games,
        "mine_active": mine_active,
        "mine_finished": mine_finished,
        "create_form": CreateGameForm(initial=deck_form_initial(player)),
        "computer_form": ComputerGameForm(prefix="computer"),
        "play_form": PlayNowForm(prefix="seek", initial=deck_form_initial(player)),
        "may_play_rated": player is not None and services.may_play_rated(player),
        "seek": None,
        **_seek_list_context(player),
        **_your_turns_context(player),
        "guest_form": GuestForm(),
        "deck_summaries": deck_summaries(),
        **overrides,
    }


def deck_summaries() -> list[dict[str, object]]:
    return [
        {"name": name, "size": len(cards), "lines": [(n, c) for c, n in Counter(cards).items()]}
        for name, cards in STARTER_DECKS.items()
    ]


@login_required
@rate_limits.limited("game")
def create_game(request: HttpRequest) -> HttpResponse:
    player = current_player(request)
    assert player is not None
    form = CreateGameForm(
        request.POST or None, request.FILES or None, initial=deck_form_initial(player)
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data.get("scenario_text") is not None:
            try:
                scenario = services.check_scenario(
                    data["scenario_text"], data.get("scenario_filename") or "scenario.yaml"
                )
            except services.ActionRefused as e:
                form.add_error("scenario", e.message)
            else:
                game = services.create_game(
                    player,
                    scenario=scenario,
                    custom_dungeons=data.get("custom_dungeons", []),
                    **form.time_fields(),
                )
                return redirect(game)
        else:
            remember_import(player, form)
            game = services.create_game(
                player,
                deck_name=data["deck_name"],
                deck=data["cards"],
                custom_dungeons=data.get("custom_dungeons", []),
                **form.time_fields(),
            )
            return redirect(game)
    return render(request, "create.html", {"form": form, "player": player, "decks": STARTER_DECKS})


@login_required
@rate_limits.limited("game")
def play_computer(request: HttpRequest) -> HttpResponse:
    """Play the computer: the game starts at once (game/computer_turns.py runs its turns)."""
    player = current_player(request)
    assert player is not None
    form = ComputerGameForm(request.POST or None, prefix="computer")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        remember_import(player, form)
        try:
            game = services.create_computer_game(
                player,
                deck_name=data["deck_name"],
                deck=data["cards"],
                level=data["level"],
                computer_deck_name=data["computer_deck_name"],
                computer_deck=data["computer_cards"],
            )
        except services.ActionRefused as e:  # too many games against it already
            form.add_error(None, e.message)
        else:
            return redirect(game)
    return render(request, "computer.html", {"computer_form": form, "player": player})


# quick pairing ----------------------------------------------------------------------------------
@login_required
@require_POST
@rate_limits.limited("seek")
def play_now(request: HttpRequest) -> HttpResponse:
    """Play now: paired at once with a matching seek (to the game), or waiting in the lobby."""
    player = current_player(request)
    assert player is not None
    form = PlayNowForm(request.POST, prefix="seek")
    if form.is_valid():
        data = form.cleaned_data
        try:
            found = services.play_now(
                player,
                deck_name=data["deck_name"],
                deck=data["cards"],
                time_control=data["tc"],
                rated=data["rated"],
            )
        except services.ActionRefused as e:
            form.add_error(None, e.message)
        else:
            remember_import(player, form)
            return redirect(found if isinstance(found, Game) else "lobby")
    context = _lobby_context(player, play_form=form)
    return render(request, "lobby.html", context, status=400)


@login_required
@require_POST
def seek_status(request: HttpRequest) -> HttpResponse:
    """The waiting panel's poll (htmx, every SEEK_POLL_SECONDS): keeps the seek alive and tries
    to pair it again; once paired, the page is sent to the game."""
    player = current_player(request)
    assert player is not None
    found = services.check_seek(player)
    if isinstance(found, Game):
        return _go(request, found.get_absolute_url())
    if found is None:  # cancelled in another tab, or expired: the lobby shows the form again
        return _go(request, reverse("lobby"))
    return render(request, "_seek_status.html", {"seek": found, **_seek_view(found)})


@login_required
@require_POST
def cancel_seek(request: HttpRequest) -> HttpResponse:
    game = services.cancel_seek(current_player(request))
    if game is not None:
        messages.info(request, "An opponent had already been found: here is your game.")
        return redirect(game)
    return redirect("lobby")


def seek_list(request: HttpRequest) -> HttpResponse:
    """The lobby's list of waiting seeks, polled by every lobby page (LIST_POLL_SECONDS)."""
    return render(request, "_seek_list.html", _seek_list_context(current_player(request)))


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """Send the page to `url`: htmx follows HX-Redirect; a plain POST is redirected."""
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _seek_list_context(player: Player | None) -> dict[str, object]:
    seeks = services.open_seeks()
    return {
        "seeks": [
            {
                "player": s.player,
                "rating": services.shown(s.player.rating, s.player.rating_deviation),
                "guest": s.player.is_guest,
                "time_control": services.TimeControl.from_key(s.time_control).label,
                "rated": s.rated,
                "mine": player is not None and s.player_id == player.pk,
            }
            for s in seeks
        ],
        "list_poll_seconds": services.LIST_POLL_SECONDS,
    }


def _seek_view(seek: Seek) -> dict[str, object]:
    """What the waiting panel says of a seek: its settings and the ratings it accepts now."""
    waited = (timezone.now() - seek.created).total_seconds()
    window = services.rating_window(waited)
    low, high = round(seek.rating - window), round(seek.rating + window)
    return {
        "seek_time_control": services.TimeControl.from_key(seek.time_control).label,
        "seek_waited": int(waited),
        "seek_range": None if window == float("inf") else (low, high),
        "seek_poll_seconds": services.SEEK_POLL_SECONDS,
        "seek_stays": services.is_correspondence(seek.time_control),
    }


# your turn ----------------------------------------------------------------------------------------
def your_turns(request: HttpRequest) -> HttpResponse:
    """The lobby's "Your turn" list, polled by the lobby page."""
    return render(request, "_your_turns.html", _your_turns_context(current_player(request)))


def _your_turns_context(player: Player | None) -> dict[str, object]:
    turns = services.correspondence.turns_of(player, timezone.now()) if player else []
    return {"turns": turns, "turns_poll_seconds": settings.VENTURE_TURNS_POLL_SECONDS}


def turns_json(request: HttpRequest) -> JsonResponse:
    """The games in which the player must decide now, for the notifications (static/js/turns.js):
    each one's link, opponent and since when it has been their decision (a new `since` is a new
    turn to tell about). Nobody's but the asking player's own games; nothing for a stranger."""
    player = current_player(request)
    turns = services.correspondence.turns_of(player, timezone.now()) if player else []
    return JsonResponse(
        {
            "poll_seconds": settings.VENTURE_TURNS_POLL_SECONDS,
            "turns": [
                {
                    "url": t.game.get_absolute_url(),
                    "opponent": t.opponent,
                    "turn": t.game.turn,
                    "since": t.game.clock_since.isoformat() if t.game.clock_since else "",
                    "version": t.game.version,
                    "left": t.time_text,
                }
                for t in turns
            ],
        }
    )
