"""What the browser tests share: the viewports, a browser signed in as a player, and games made
on the server's side for the browsers to open."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from game import services
from game.decks import GREEN_WHITE_VARIS
from game.models import Game, Player
from tests.web.helpers import make_player, start_position

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def sign_in_as(page, base: str, player: Player) -> None:
    """Give the page's browser context a logged-in session for `player` (no login form: the
    session is written where Django looks for it)."""
    session = SessionStore()
    session[SESSION_KEY] = str(player.user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = player.user.get_session_auth_hash()
    session.create()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": base}]
    )


def sign_in(page, base: str, name: str) -> Player:
    """Give the page's browser context a logged-in session for a new player `name`."""
    player = make_player(name)
    sign_in_as(page, base, player)
    return player


def off_the_loop(fn, *args, **kwargs):
    """Call a service from another thread: Playwright runs an event loop in this one, and a
    service that broadcasts (async_to_sync) refuses to run beside it."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


def game_at(position: str) -> tuple[Player, Player, Game]:
    """Alice and Bob, and their game started at `position` (a file of tests/web/positions/)."""
    alice, bob = make_player("alice"), make_player("bob")
    return alice, bob, off_the_loop(start_position, alice, bob, position)


def waiting_game(host: Player) -> Game:
    """A game `host` made with Varis's deck, waiting for an opponent."""
    return off_the_loop(services.create_game, host, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))
