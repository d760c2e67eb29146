"""The accounts' pages: playing as a guest, signing up, logging in and out, the account page
(a guest's username and password) and its turn mails, and the turn mails' unsubscribe link."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from game import services
from game.forms.accounts import GuestForm, SetPasswordForm, SignUpForm, TurnMailForm
from game.models import Player
from game.services import rate_limits

from .viewer import current_player


def _next_url(request: HttpRequest, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or default
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return default


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
