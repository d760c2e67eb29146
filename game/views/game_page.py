"""A game's page (for a player, or joining an open game) and its watch link, the plain POSTs of
its forms (an action, a chat line), the rematch, cancelling, the scenario file it started from,
and the cards' texts for the zoom panel."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from game import board, services
from game.board.memos import card_info
from game.decks import STARTER_DECKS
from game.engine.cards import CARDS, TOKENS
from game.forms.accounts import GuestForm
from game.forms.actions import BadAction, parse_action
from game.forms.chat import parse_chat
from game.forms.new_game import DeckChoiceForm
from game.models import Game, Player
from game.services import rate_limits

from .viewer import current_player, deck_form_initial, remember_import


def game_page(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    player = current_player(request)
    seat = services.seat_of(game, player)
    if seat is not None:
        services.arrived(game, player)  # a seek paired into this game is done with
    if game.status == Game.OPEN and seat is None:
        return render(
            request,
            "join.html",
            {
                "game": game,
                "player": player,
                "form": DeckChoiceForm(initial=deck_form_initial(player)),
                "guest_form": GuestForm(),
            },
        )
    ctx = board.board_context(game, player, base_url=request.build_absolute_uri("/")[:-1])
    _with_chat(ctx, request, game, player)
    ctx["board_html"] = board.render_page_board(ctx, get_token(request))
    return render(request, "game/game.html", ctx)


def _with_chat(ctx: dict, request: HttpRequest, game: Game, player: Player | None) -> None:
    """The page's chat, for its viewer whatever the page (on the watch link too: a seated
    player reads the players' room there, never the spectators' during the game)."""
    if game.status != Game.OPEN:
        panel = services.chat.panel(game.pk, player)
        ctx["chat_html"] = board.chat.render_page_panel(
            panel, code=game.code, csrf_token=get_token(request)
        )


def card_texts(request: HttpRequest) -> HttpResponse:
    """Every card and token of the pool with its printed face, for the zoom panel
    (static/js/zoom.js): public, the same for every game, so cached by the browser."""
    cards = {}
    for name in [*TOKENS, *CARDS]:
        info = card_info(name)
        pt = f"{info.power}/{info.toughness}" if info.power is not None else None
        cards[name] = {
            "cost": list(info.cost),
            "type": info.type_line,
            "text": info.text,
            "pt": pt,
            "colors": info.colors,
        }
    response = JsonResponse(cards)
    response["Cache-Control"] = "public, max-age=3600"
    return response


def watch_game(request: HttpRequest, code: str) -> HttpResponse:
    """The watch link: anyone may follow a game as a spectator (both boards, no hand, no
    prompt), whoever they are logged in as; its websocket serves the spectator's view only."""
    game = get_object_or_404(Game, code=code)
    ctx = board.board_context(game, None, base_url=request.build_absolute_uri("/")[:-1])
    ctx["ws_url"] = f"/ws/game/{game.code}/watch/"
    _with_chat(ctx, request, game, current_player(request))
    ctx["board_html"] = board.render_page_board(ctx, get_token(request))
    return render(request, "game/game.html", ctx)


@login_required
@require_POST
def join_game(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    player = current_player(request)
    assert player is not None
    form = DeckChoiceForm(request.POST)
    if game.is_scenario:
        form = DeckChoiceForm({"deck": next(iter(STARTER_DECKS))})
    if not form.is_valid():
        return render(request, "join.html", {"game": game, "player": player, "form": form})
    try:
        if not game.is_scenario:
            remember_import(player, form)
        services.join_game(
            game.pk,
            player,
            deck_name=form.cleaned_data["deck_name"],
            deck=form.cleaned_data["cards"],
        )
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect("lobby")
    return redirect(game)


@require_POST
def game_act(request: HttpRequest, code: str) -> HttpResponse:
    """An in-game form posted without JavaScript: the same action as over the websocket."""
    game = get_object_or_404(Game, code=code)
    try:
        services.perform(game.pk, current_player(request), parse_action(request.POST))
    except (BadAction, services.ActionRefused) as e:
        messages.error(request, getattr(e, "message", str(e)))
    return redirect(game)


@require_POST
def game_chat(request: HttpRequest, code: str) -> HttpResponse:
    """A chat form posted without JavaScript: the same as over the websocket (a visitor who is
    not logged in is told to log in, like on the socket)."""
    game = get_object_or_404(Game, code=code)
    try:
        said = services.chat.perform(
            game.pk,
            current_player(request),
            parse_chat(request.POST),
            address=request.META.get("REMOTE_ADDR", ""),
        )
    except (BadAction, services.ActionRefused) as e:
        messages.error(request, getattr(e, "message", str(e)))
    else:
        if said:
            messages.info(request, said)
    return redirect(game)


@login_required
@require_POST
@rate_limits.limited("game")
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    try:
        new = services.rematch(game.pk, current_player(request))
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(game)
    return redirect(new)


@login_required
@require_POST
def cancel_game(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    try:
        services.cancel_game(game.pk, current_player(request))
    except services.ActionRefused as e:
        messages.error(request, e.message)
        return redirect(game)
    messages.success(request, "The game was cancelled.")
    return redirect("lobby")


def scenario_file(request: HttpRequest, code: str) -> HttpResponse:
    """The scenario a game started from, to attach to a bug report: for its uploader while the
    game runs, for anyone once it is over (`Game.position_file_open_to`)."""
    game = get_object_or_404(Game, code=code)
    if not game.is_scenario:
        raise Http404("This game did not start from a scenario.")
    if not game.position_file_open_to(current_player(request)):
        return HttpResponseForbidden(
            "The position file holds both hands and both libraries: while the game runs only "
            "the player who uploaded it may download it. Everyone may once the game is over.",
            content_type="text/plain; charset=utf-8",
        )
    response = HttpResponse(game.scenario_text, content_type="text/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="venture-{game.code}.yaml"'
    return response
