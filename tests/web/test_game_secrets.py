"""What a player must not be able to learn or take: the shuffles of a game (seeded with a fresh
secret, even from a scenario file), and an account (its password is asked before a change)."""

from __future__ import annotations

import pytest

from game import services
from game.engine.rng import KeyedStream

from .helpers import make_player, start_position

pytestmark = pytest.mark.django_db


def test_games_from_the_same_scenario_file_shuffle_differently(alice, bob):
    first = start_position(alice, bob, "varis_fork.yaml")
    second = start_position(alice, bob, "varis_fork.yaml")
    seeds = {first.setup["seed"], second.setup["seed"]}
    assert len(seeds) == 2 and all(s.startswith("k256:") for s in seeds)
    draws = []
    for game in (first, second):
        with services.reading(game) as engine:
            assert isinstance(engine.state.rng, KeyedStream)
            cards = list(range(40))
            copy = KeyedStream(bytes.fromhex(game.setup["seed"][5:]))
            copy.shuffle(cards)
            draws.append(cards)
    assert draws[0] != draws[1]
    # The scenario file's own seed (4) is for `manage.py scenario`, not for games between people.
    assert 4 not in seeds


def test_a_rematch_of_a_scenario_game_gets_a_new_secret(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    services.concede(game.pk, bob)
    services.rematch(game.pk, bob)  # an offer; alice accepts
    again = services.rematch(game.pk, alice)
    again.refresh_from_db()
    assert again.setup["seed"] != game.setup["seed"]
    assert again.setup["seed"].startswith("k256:")


def test_the_seed_never_reaches_a_page(client, alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    secret = game.setup["seed"][5:]
    for player in (alice, bob):
        client.force_login(player.user)
        for url in (game.get_absolute_url(), f"/g/{game.code}/watch/", "/"):
            assert secret not in client.get(url).content.decode()


# accounts ---------------------------------------------------------------------------------------
def test_changing_a_password_or_username_asks_for_the_current_password(client):
    player = make_player("Rui")  # has the password "correct horse battery staple"
    client.force_login(player.user)
    page = client.get("/accounts/").content.decode()
    assert 'name="current_password"' in page

    for current in ("", "wrong guess"):
        response = client.post(
            "/accounts/",
            {"current_password": current, "username": "thief", "password": "a new long secret"},
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert "That is not your current password." in html or "This field is required" in html
    player.user.refresh_from_db()
    assert player.user.username == "rui" and player.user.check_password(
        "correct horse battery staple"
    )

    response = client.post(
        "/accounts/",
        {
            "current_password": "correct horse battery staple",
            "username": "rui2",
            "password": "a new long secret phrase",
        },
    )
    assert response.status_code == 302
    player.user.refresh_from_db()
    assert player.user.username == "rui2" and player.user.check_password("a new long secret phrase")


def test_a_guest_sets_a_first_password_without_a_current_one(client):
    guest = make_player("Ivo", guest=True)
    client.force_login(guest.user)
    assert 'name="current_password"' not in client.get("/accounts/").content.decode()
    response = client.post("/accounts/", {"username": "ivo", "password": "a long enough phrase"})
    assert response.status_code == 302
    guest.user.refresh_from_db()
    assert guest.user.check_password("a long enough phrase")
