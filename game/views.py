"""HTTP views: accounts, the lobby, the game page, profiles.

The game page is server-rendered from the same partials the websocket sends; every in-game form
also posts here (`game_act`), so the game can be played with JavaScript off, one page load per
action. Live updates come over the websocket (game.consumers).
"""

from __future__ import annotations

import uuid
from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Count, Exists, F, OuterRef, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from game.board.memos import card_info
from game.decks import STARTER_DECKS
from game.engine.cards import CARDS, TOKENS

from . import board, services
from .chat_forms import parse_chat
from .forms.accounts import GuestForm, SetPasswordForm, SignUpForm, TurnMailForm
from .forms.actions import BadAction, parse_action
from .forms.new_game import (
    IMPORTED,
    ComputerGameForm,
    CreateGameForm,
    DeckChoiceForm,
    PlayNowForm,
    PlayOnForm,
)
from .models import CompletedDungeon, Game, Player, Seat, Seek
from .services import rate_limits


# helpers ----------------------------------------------------------------------------------------
def current_player(request: HttpRequest) -> Player | None:
    """The request's Player; an account made outside the site (createsuperuser) gets one."""
    user = request.user
    if not user.is_authenticated:
        return None
    player = services.player_for_user(user)
    if player is None:
        player = Player.objects.create(user=user, display_name=user.get_username()[:30])
    return player


def _next_url(request: HttpRequest, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or default
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return default


def _deck_form_initial(player: Player | None) -> dict[str, str]:
    if player is not None and player.last_decklist:
        return {"decklist": player.last_decklist}
    return {}


def _remember_import(player: Player, form: DeckChoiceForm) -> None:
    if form.cleaned_data.get("deck") == IMPORTED:
        player.last_decklist = form.cleaned_data.get("decklist", "")
        player.save(update_fields=["last_decklist"])


# accounts ---------------------------------------------------------------------------------------
@rate_limits.limited("guest")
def guest(request: HttpRequest) -> HttpResponse:
    """Play as a guest: a real user without a password, logged in by this session."""
    form = GuestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = get_user_model().objects.create_user(username=f"guest-{uuid.uuid4().hex[:12]}")
        user.set_unusable_password()
        user.save()
        Player.objects.create(
            user=user, display_name=form.cleaned_data["display_name"], is_guest=True
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, "accounts/guest.html", {"form": form, "next": _next_url(request)})


@rate_limits.limited("guest")
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = get_user_model().objects.create_user(
            username=data["username"], password=data["password"]
        )
        Player.objects.create(user=user, display_name=data["display_name"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


@rate_limits.limited("login")
def login_view(request: HttpRequest) -> HttpResponse:
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.get_user())
        return redirect(_next_url(request))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request)})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("lobby")


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """Set a username and password: a guest becomes an ordinary account, history kept."""
    player = current_player(request)
    assert player is not None
    form = SetPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        user.username = form.cleaned_data["username"]
        user.set_password(form.cleaned_data["password"])
        user.save()
        player.is_guest = False
        player.save(update_fields=["is_guest"])
        update_session_auth_hash(request, user)
        messages.success(request, "Saved: you can now log in with your username and password.")
        return redirect("account")
    if request.method == "GET" and not player.is_guest:
        form = SetPasswordForm(request.user, initial={"username": request.user.get_username()})
    return render(request, "accounts/account.html", _account_context(player, form))


def _account_context(
    player: Player, form: SetPasswordForm, mail_form: TurnMailForm | None = None
) -> dict[str, object]:
    if mail_form is None:
        initial = {"turn_mail": player.turn_mail, "email": player.user.email}
        mail_form = TurnMailForm(initial=initial)
    may_mail = services.turn_mail.may_get_mail(player)
    return {"form": form, "player": player, "mail_form": mail_form, "may_mail": may_mail}


# lobby ------------------------------------------------------------------------------------------
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
        "create_form": CreateGameForm(initial=_deck_form_initial(player)),
        "computer_form": ComputerGameForm(prefix="computer"),
        "play_form": PlayNowForm(prefix="seek", initial=_deck_form_initial(player)),
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
        request.POST or None, request.FILES or None, initial=_deck_form_initial(player)
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
            _remember_import(player, form)
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
        _remember_import(player, form)
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
            _remember_import(player, form)
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


@login_required
@require_POST
def turn_mail_settings(request: HttpRequest) -> HttpResponse:
    """The account page's turn mails: on with an address, or off."""
    player = current_player(request)
    assert player is not None
    form = TurnMailForm(request.POST)
    if not services.turn_mail.may_get_mail(player):
        messages.error(request, "Turn mails are for accounts with a password: set one first.")
        return redirect("account")
    if not form.is_valid():
        return render(
            request,
            "accounts/account.html",
            _account_context(player, SetPasswordForm(request.user), form),
            status=400,
        )
    player.turn_mail = form.cleaned_data["turn_mail"]
    player.save(update_fields=["turn_mail"])
    request.user.email = form.cleaned_data["email"]
    request.user.save(update_fields=["email"])
    messages.success(
        request,
        "Saved: you get a mail when it is your turn in a correspondence game."
        if player.turn_mail
        else "Saved: no turn mails.",
    )
    return redirect("account")


@csrf_exempt  # a mail program's one-click unsubscribe (RFC 8058) posts without a CSRF token
def turn_mail_off(request: HttpRequest, token: str) -> HttpResponse:
    """The link in every turn mail: a page with one button (a link alone changes nothing, as
    mail scanners open links), and the POST that turns the mails off, no login needed: the
    signed token names the player."""
    player = services.turn_mail.player_for_token(token)
    if player is None:
        return render(request, "accounts/turn_mail_off.html", {"invalid": True}, status=404)
    done = False
    if request.method == "POST":
        if player.turn_mail:
            player.turn_mail = False
            player.save(update_fields=["turn_mail"])
        done = True
    return render(
        request, "accounts/turn_mail_off.html", {"target": player, "done": done, "token": token}
    )


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
                "form": DeckChoiceForm(initial=_deck_form_initial(player)),
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
            _remember_import(player, form)
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


# replays ----------------------------------------------------------------------------------------
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


# profiles ---------------------------------------------------------------------------------------
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


# the dungeon editor's "Try it" ------------------------------------------------------------------
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
