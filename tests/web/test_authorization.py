"""Who may do what: only a seated player acts, and only on their own decision (test_services,
test_hostile_input); anyone may watch through the watch link and sees no hand; a socket of
someone not seated never receives a seat's view; CSRF on every form; the admin is staff-only;
production settings pass `manage.py check --deploy`."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import services

from .helpers import make_player, option_id, passes, start_game, start_position
from .sockets import answer, connect, db, players_and_game

ROOT = Path(__file__).resolve().parents[2]
HANDS = ["Gloom Stalker", "Keen-Eared Sentry", "Power Word Kill", "Acererak the Archlich"]
LIBRARIES = ["Shortcut Seeker", "Clattering Skeletons", "Yuan-Ti Fang-Blade", "Dungeon Crawler"]
POST_FORM = re.compile(r"<form\b[^>]*method=\"post\"[^>]*>(.*?)</form>", re.S | re.I)


# watching ---------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_watch_link_shows_both_boards_and_no_hand_to_anyone(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    player_page = Client()
    player_page.force_login(alice.user)
    assert f"/g/{game.code}/watch/" in player_page.get(game.get_absolute_url()).content.decode()
    for who in (None, make_player("carol"), alice):  # alice too: the link is a spectator's view
        client = Client()
        if who is not None:
            client.force_login(who.user)
        page = client.get(f"/g/{game.code}/watch/").content.decode()
        assert 'ws-connect="/ws/game/' + game.code + '/watch/"' in page
        assert "spectating" in page and "alice has priority" in page
        assert 'id="opponent"' in page and 'id="me"' in page
        for secret in HANDS + LIBRARIES:
            assert secret not in page, (who, secret)
        assert 'name="option"' not in page and 'value="concede"' not in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_of_someone_not_seated_never_receives_a_seats_view():
    """A stranger's socket and a seated player's watch socket follow a game: no frame holds a
    hand, a prompt or a form that could act; what they send is refused."""
    alice, bob, game = await players_and_game()
    carol = await db(make_player)("carol")
    a = await connect(game, alice)
    watchers = [
        await connect(game, carol),
        await connect(game),  # no session at all
        await connect(game, alice, path="watch/"),
        await connect(game, bob, path="watch/"),
    ]
    for label in ("cast Keen-Eared Sentry", "Lost Mine of Phandelver"):
        await answer(a, game, label)
        await a.answered(game)
        await db(passes)(game, bob)  # bob holds cards: asked about what alice put on the stack
        await a.caught_up(game)
        for w in watchers:
            await w.caught_up(game)
    assert "Gloom Stalker" in a.text  # the seat's own view does show its hand
    for w in watchers:
        assert len(w.frames) >= 3  # the board, then the two changes
        for frame in w.frames:
            for secret in HANDS + LIBRARIES:
                if secret != "Keen-Eared Sentry":  # cast: public since
                    assert secret not in frame
            assert 'class="prompt mine' not in frame
            assert 'name="option"' not in frame and 'value="pace"' not in frame
        await db(game.refresh_from_db)()
        await w.send(action="concede", version=str(game.version))
        assert "watching" in await w.reply()
        await w.close()
    await db(game.refresh_from_db)()
    assert game.status == game.ACTIVE
    await a.close()


# CSRF -------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_every_post_endpoint_refuses_a_request_without_its_csrf_token(alice, bob):
    game = start_game(alice, bob)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    code = game.code
    for url in [
        "/accounts/guest/",
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/logout/",
        "/accounts/",
        "/games/new/",
        f"/g/{code}/join/",
        f"/g/{code}/act/",
        f"/g/{code}/chat/",
        f"/g/{code}/rematch/",
        f"/g/{code}/cancel/",
        "/seek/",
        "/seek/status/",
        "/seek/cancel/",
        "/admin/login/",
    ]:
        response = client.post(url, {"action": "concede", "version": "0", "action_id": "x"})
        assert response.status_code == 403, url
    game.refresh_from_db()
    assert game.status == game.ACTIVE


@pytest.mark.django_db
def test_every_form_that_posts_carries_the_csrf_token(alice, bob):
    game = start_position(alice, bob, "lethal_attack.yaml")
    open_game = services.create_game(alice, deck_name="x", deck=["Forest"] * 40)
    alice_client, bob_client, anon = Client(), Client(), Client()
    alice_client.force_login(alice.user)
    bob_client.force_login(bob.user)
    pages = [
        (anon, "/"),
        (anon, "/accounts/login/"),
        (anon, "/accounts/signup/"),
        (anon, "/accounts/guest/"),
        (anon, open_game.get_absolute_url()),  # the join page
        (bob_client, open_game.get_absolute_url()),
        (alice_client, "/"),
        (alice_client, "/games/new/"),
        (alice_client, "/accounts/"),
        (alice_client, open_game.get_absolute_url()),  # waiting: cancel
        (alice_client, game.get_absolute_url()),  # prompt, pace, concede
    ]
    seen = 0
    for client, url in pages:
        html = client.get(url).content.decode()
        for form in POST_FORM.findall(html):
            seen += 1
            assert 'name="csrfmiddlewaretoken"' in form, (url, form[:200])
    services.submit_answer(
        game.pk, alice, [option_id(game, "Varis, Silverymoon Ranger")], version=game.version
    )
    html = alice_client.get(game.get_absolute_url()).content.decode()  # game over: rematch
    assert 'id="rematch"' in html
    for form in POST_FORM.findall(html):
        seen += 1
        assert 'name="csrfmiddlewaretoken"' in form
    assert seen >= 15


# the admin --------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_admin_is_for_staff_only(alice):
    staff = get_user_model().objects.create_user("root", password="x", is_staff=True)
    staff.is_superuser = True
    staff.save()
    urls = [
        "/admin/",
        "/admin/game/game/",
        "/admin/game/actionreceipt/",
        "/admin/game/chatreport/",
        "/admin/game/chatmessage/",
        "/admin/dungeons/dungeoncard/",
        "/admin/auth/user/",
    ]
    anon, player, admin = Client(), Client(), Client()
    player.force_login(alice.user)
    admin.force_login(staff)
    for url in urls:
        for client in (anon, player):
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url
        assert admin.get(url).status_code == 200, url


# deployment -------------------------------------------------------------------------------------
def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "VENTURE_"))}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_from_the_environment_pass_the_deploy_check():
    production = {
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "venture.example",
        "DJANGO_HTTPS": "true",
    }
    done = manage(production, "check", "--deploy", "--fail-level", "DEBUG")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout

    # Without its secret key a production server does not start at all.
    done = manage({**production, "DJANGO_SECRET_KEY": ""}, "check")
    assert done.returncode != 0 and "DJANGO_SECRET_KEY must be set" in done.stderr
    # Plain HTTP is a choice the check names (cookies not secure, no HSTS).
    done = manage({**production, "DJANGO_HTTPS": "false"}, "check", "--deploy")
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stderr + done.stdout
