"""The HTTP rate limits (game/services/rate_limits.py, docs/security.md "Rate limits"): each
limited action answers 429 with the site's page and a Retry-After past its limit, per browser
session and per client address, and changes nothing; a person's ordinary evening stays under
the deployed figures. The limits are lowered here with override_settings; the counts start
empty in every test (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from game import services
from game.models import Game, Player
from game.services import rate_limits

from .helpers import make_player, position_text, start_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
VARIS = "Varis (green-white)"
ROOMY = "1000/minute"


def limits(action: str, *, session: str = ROOMY, address: str = ROOMY):
    """The deployed limits with `action`'s replaced."""
    return override_settings(
        VENTURE_RATE_LIMITS={
            **settings.VENTURE_RATE_LIMITS,
            action: {"session": session, "address": address},
        }
    )


def logged_in(player: Player, **extra) -> Client:
    client = Client(**extra)
    client.force_login(player.user)
    return client


def assert_429(response, what: str, who: str) -> None:
    """The refusal as a person sees it: the site's page (its header, the lobby link), what was
    limited, for whom and when to try again, in the page and in Retry-After."""
    assert response.status_code == 429
    seconds = int(response["Retry-After"])
    assert 1 <= seconds <= 60
    html = response.content.decode()
    assert 'class="site-header"' in html and 'id="rate-limited"' in html
    sentence = re.search(r"Too many (.+?) from (.+?): try again in (\d+) seconds?\.", html)
    assert sentence is not None, html
    assert sentence.group(1) == what and sentence.group(2) == who
    assert int(sentence.group(3)) == seconds
    assert "Content-Security-Policy" in response.headers


# Each action, through its form --------------------------------------------------------------------
def post_guest(client: Client, n: int, **extra):
    return client.post("/accounts/guest/", {"display_name": f"Mira {n}", "next": "/"}, **extra)


def post_signup(client: Client, n: int, **extra):
    fields = {"username": f"mira{n}", "display_name": f"Mira {n}", "password": "a long passphrase"}
    return client.post("/accounts/signup/", fields, **extra)


def post_new_game(client: Client, n: int, **extra):
    return client.post("/games/new/", {"deck": VARIS}, **extra)


def post_position(client: Client, n: int, **extra):
    upload = SimpleUploadedFile("fork.yaml", position_text("varis_fork.yaml").encode())
    return client.post("/games/new/", {"scenario": upload}, **extra)


def post_computer(client: Client, n: int, **extra):
    fields = {
        "computer-deck": VARIS,
        "computer-computer_deck": "__random__",
        "computer-level": "easy",
    }
    return client.post("/games/computer/", fields, **extra)


def accounts() -> int:
    return get_user_model().objects.count()


def games() -> int:
    return Game.objects.count()


# form -> (its action, a post of it, what it makes, what the 429 page says is limited)
FORMS = {
    "guest": ("guest", post_guest, accounts, "new accounts"),
    "signup": ("guest", post_signup, accounts, "new accounts"),
    "new game": ("game", post_new_game, games, "new games"),
    "position file": ("game", post_position, games, "new games"),
    "computer": ("game", post_computer, games, "new games"),
}
GAME_FORMS = [name for name, (action, *_) in FORMS.items() if action == "game"]


@pytest.mark.parametrize("form", GAME_FORMS)
def test_each_game_form_is_refused_per_session_past_its_limit_and_makes_nothing(form):
    action, post, count, what = FORMS[form]
    client = logged_in(make_player("alice"))
    with limits(action, session="2/minute"):
        assert post(client, 0).status_code == 302
        assert post(client, 1).status_code == 302
        before = count()
        assert_429(post(client, 2), what, "this browser")
        # From another address the same browser is still over.
        assert_429(post(client, 3, REMOTE_ADDR="198.51.100.7"), what, "this browser")
        assert count() == before
        # Another person's browser at the same address is not.
        assert post(logged_in(make_player("bob")), 4).status_code == 302
        assert count() == before + 1


@pytest.mark.parametrize("form", FORMS)
def test_each_limited_form_is_refused_per_address_past_its_limit_and_makes_nothing(form):
    """An account made logs its browser in under a new session key (Django's login), so what
    holds back someone making accounts is the address's limit: tested here for every form."""
    action, post, count, what = FORMS[form]
    people = [make_player(name) for name in ("alice", "bob", "carol")]
    with limits(action, address="2/minute"):
        assert post(logged_in(people[0]), 0).status_code == 302
        assert post(logged_in(people[1]), 1).status_code == 302
        before = count()
        # A third person behind the same address, in a browser of their own: refused; and a
        # browser with no session at all (no cookie kept) too.
        assert_429(post(logged_in(people[2]), 2), what, "your network address")
        if action == "guest":
            assert_429(post(Client(), 3), what, "your network address")
        assert count() == before
        # The same person from another address is not.
        assert post(logged_in(people[2]), 4, REMOTE_ADDR="198.51.100.7").status_code == 302
        assert count() == before + 1


def test_log_in_attempts_are_limited_even_with_the_right_password():
    make_player("alice")
    client = Client()
    with limits("login", address="3/minute"):
        for _ in range(3):
            response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
            assert response.status_code == 200 and "correct username and password" in (
                response.content.decode()
            )
        right = {"username": "alice", "password": "correct horse battery staple"}
        assert_429(
            client.post("/accounts/login/", right), "log-in attempts", "your network address"
        )
        assert "_auth_user_id" not in client.session
        assert Client(REMOTE_ADDR="198.51.100.7").post("/accounts/login/", right).status_code == 302


def test_a_rematch_and_playing_on_count_as_new_games(alice, bob):
    game = start_game(alice, bob)
    services.concede(game.pk, bob)
    a, b = logged_in(alice), logged_in(bob)
    with limits("game", session="1/minute"):
        assert a.post(f"/g/{game.code}/rematch/").status_code == 302  # the offer
        assert_429(a.post(f"/g/{game.code}/rematch/"), "new games", "this browser")
        response = a.post(f"/g/{game.code}/replay/play-on/", {"at": "0", "side": "alice"})
        assert_429(response, "new games", "this browser")
        assert not Game.objects.filter(rematch_of=game).exists() and games() == 1
        # bob's own browser accepts: the rematch starts.
        assert b.post(f"/g/{game.code}/rematch/").status_code == 302
        assert Game.objects.filter(rematch_of=game).count() == 1


def test_every_post_counts_against_the_post_limit_before_its_view_or_csrf_check(alice, bob):
    game = start_game(alice, bob)
    version = Game.objects.get(pk=game.pk).version
    client = logged_in(alice)
    with limits("post", session="3/minute"):
        for _ in range(3):
            client.post(f"/g/{game.code}/act/", {"action": "concede", "version": "0"})
        assert Game.objects.get(pk=game.pk).version == version  # refused as stale, not applied
        response = client.post(
            f"/g/{game.code}/act/", {"action": "concede", "version": str(version), "aid": "x1"}
        )
        assert_429(response, "forms sent", "this browser")
        assert Game.objects.get(pk=game.pk).status == Game.ACTIVE
        # Counted before Django's CSRF check: a flood without tokens is limited as well.
        strict = Client(enforce_csrf_checks=True, REMOTE_ADDR="198.51.100.7")
        strict.cookies = client.cookies  # the same browser session, no CSRF token
        response = strict.post("/accounts/logout/")
        assert_429(response, "forms sent", "this browser")
        # A GET is never counted.
        assert client.get("/").status_code == 200


def test_an_evening_of_play_stays_under_the_deployed_limits():
    """A person at the deployed figures: a guest, a game made and cancelled, a position, three
    games against the computer, each conceded and started again, a friend's game played without
    JavaScript at machine speed (every answer a POST), a log-out and a log-in. Nothing is 429."""
    client = Client()
    statuses = [post_guest(client, 0).status_code]
    me = Player.objects.get()
    statuses.append(post_new_game(client, 0).status_code)
    waiting = Game.objects.latest("pk")
    statuses.append(client.post(f"/g/{waiting.code}/cancel/").status_code)
    statuses.append(post_position(client, 0).status_code)
    for _ in range(5):
        statuses.append(post_computer(client, 0).status_code)
        services.concede(Game.objects.filter(status=Game.ACTIVE).latest("pk").pk, me)
    friend = make_player("bob")
    game = start_game(me, friend, seed=7)
    for _ in range(60):
        game.refresh_from_db()
        with services.reading(game) as engine:
            d = engine.pending
        if d is None:
            break
        seat = game.seats.get(engine_name=d.player)
        browser = client if seat.player_id == me.pk else logged_in(friend)
        fields = {"action": "answer", "version": str(game.version), "option": d.options[0].id}
        statuses.append(browser.post(f"/g/{game.code}/act/", fields).status_code)
    statuses.append(client.post("/accounts/logout/").status_code)
    assert 429 not in statuses, statuses
    assert len(statuses) > 40


# The interface the websocket features call (chat, "Play now") ----------------------------------
def test_allow_counts_each_key_and_a_refusal_counts_nothing():
    keys = ("session:abc", "address:10.0.0.1")
    with limits("chat", session="2/minute", address="3/minute"):
        assert rate_limits.allow("chat", *keys) and rate_limits.allow("chat", *keys)
        refusal = rate_limits.check("chat", *keys)
        assert refusal is not None and refusal.key == "session:abc" and refusal.scope == "session"
        assert 1 <= rate_limits.retry_after("chat", *keys) <= 60
        assert refusal.message.startswith("Too many chat messages from this browser")
        # Nothing was counted for the address while the session was refused: its third is left.
        assert rate_limits.allow("chat", "session:other", "address:10.0.0.1")
        assert not rate_limits.allow("chat", "session:third", "address:10.0.0.1")
        # Each action counts apart.
        assert rate_limits.allow("seek", *keys)


def test_retry_after_is_zero_until_a_key_is_over():
    with limits("seek", session="1/minute"):
        assert rate_limits.retry_after("seek", "session:s", "address:a") == 0
        assert rate_limits.allow("seek", "session:s", "address:a")
        assert 1 <= rate_limits.retry_after("seek", "session:s", "address:a") <= 60
        assert rate_limits.retry_after("seek", "session:t", "address:a") == 0


def test_an_unknown_action_or_key_is_a_clear_error():
    with pytest.raises(ValueError, match="No rate limit is named 'shout'"):
        rate_limits.allow("shout", "address:a")
    with pytest.raises(ValueError, match="No 'player' limit for 'game'"):
        rate_limits.allow("game", "player:7")


def test_a_consumer_checks_from_async_code_with_its_scopes_keys():
    class Session:
        session_key = "k1"

    scope = {"client": ("192.0.2.4", 5555), "session": Session(), "headers": []}
    keys = rate_limits.scope_keys(scope)
    assert keys == ("session:k1", "address:192.0.2.4")
    with limits("chat", session="1/minute"):
        assert asyncio.run(rate_limits.acheck("chat", *keys)) is None
        refusal = asyncio.run(rate_limits.acheck("chat", *keys))
        assert refusal is not None and refusal.scope == "session"


# The client address -------------------------------------------------------------------------------
def test_the_address_is_remote_addr_unless_a_trusted_proxy_names_the_client():
    forwarded = "10.9.9.9, 203.0.113.5"
    assert rate_limits.client_address("192.0.2.1", forwarded) == "192.0.2.1"
    with override_settings(VENTURE_TRUSTED_PROXIES=["192.0.2.0/24", "10.0.0.1"]):
        # The proxy appended the address it was reached from; what is left of it was written by
        # the client and is not believed, unless it too came through a trusted proxy.
        assert rate_limits.client_address("192.0.2.1", forwarded) == "203.0.113.5"
        assert rate_limits.client_address("192.0.2.1", "203.0.113.5, 10.0.0.1") == "203.0.113.5"
        assert rate_limits.client_address("198.51.100.1", forwarded) == "198.51.100.1"
        assert rate_limits.client_address("192.0.2.1", None) == "192.0.2.1"
        scope = {"client": ("192.0.2.1", 1), "headers": [(b"x-forwarded-for", b"203.0.113.5")]}
        assert rate_limits.scope_keys(scope) == ("address:203.0.113.5",)


def test_behind_a_trusted_proxy_each_client_has_its_own_limit_and_a_forged_header_is_ignored():
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    with limits("guest", address="1/minute"):
        with override_settings(VENTURE_TRUSTED_PROXIES=["10.0.0.1"]):
            first = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.5")
            second = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.6")
            assert post_guest(first, 0).status_code == 302
            assert post_guest(second, 1).status_code == 302
            again = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.5")
            assert_429(post_guest(again, 2), "new accounts", "your network address")
        # Not trusted: a header the client wrote does not make it someone else.
        direct = Client(REMOTE_ADDR="198.51.100.3", HTTP_X_FORWARDED_FOR="203.0.113.77")
        assert post_guest(direct, 3).status_code == 302
        forged = Client(REMOTE_ADDR="198.51.100.3", HTTP_X_FORWARDED_FOR="203.0.113.78")
        assert_429(post_guest(forged, 4), "new accounts", "your network address")
    assert Player.objects.count() == 3


# The setting from the environment -------------------------------------------------------------
def settings_from(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Load game/settings.py with `env` and print its rate limits (a fresh interpreter)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "VENTURE_"))}
    script = "import json, game.settings as s; print(json.dumps(s.VENTURE_RATE_LIMITS))"
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_environment_changes_single_entries_and_a_bad_value_stops_the_server():
    done = settings_from({"VENTURE_RATE_LIMITS": '{"game": {"address": "7/minute"}}'})
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded["game"] == {"session": "10/minute;120/hour", "address": "7/minute"}
    assert loaded["guest"] == settings.VENTURE_RATE_LIMITS["guest"]
    for bad in (
        '{"game": {"address": "7 a fortnight"}}',
        '{"game": {"browser": "1/minute"}}',
        "[1]",
    ):
        done = settings_from({"VENTURE_RATE_LIMITS": bad})
        assert done.returncode != 0 and "VENTURE_RATE_LIMITS: give a JSON object" in done.stderr
    done = settings_from({"VENTURE_TRUSTED_PROXIES": "10.0.0.1, nginx"})
    assert done.returncode != 0 and "'nginx' is not an address or a network" in done.stderr


# A new process's first requests -----------------------------------------------------------------
FIRST_CHECKS = """
import sys, threading
import django
django.setup()
assert "redis" not in sys.modules, "redis was imported before the first check"
from game.services import rate_limits
barrier, made, errors = threading.Barrier(32), [], []
def first_check():
    barrier.wait()
    try:
        made.append(id(rate_limits._the_limiter()))
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=first_check) for _ in range(32)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(set(made)), len(made), errors[:1])
"""


def test_a_new_processs_first_checks_at_once_all_get_the_one_redis_limiter():
    # A server's first requests come at once, each in a thread, and the first checks import the
    # Redis client: every one gets the one limiter, none an error (a 500 page). The race shows
    # in some processes only, so in several, side by side. (Making the limiter connects to
    # nothing: no Redis server is needed.)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "VENTURE_"))}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "game.settings", "REDIS_URL": "redis://127.0.0.1:1/0"}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", FIRST_CHECKS],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for run in runs:
        out, err = run.communicate(timeout=60)
        assert run.returncode == 0, err
        assert out.strip() == "1 32 []", out
