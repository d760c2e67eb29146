"""Accounts, guests, the lobby, deck import, scenario upload, joining by link, playing without
JavaScript, rematch and the profile page, through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from game import services
from game.decks import STARTER_DECKS
from game.models import CompletedDungeon, Game, Player

from .helpers import (
    answer,
    make_player,
    option_id,
    pending,
    position_text,
    seat_name,
    start_from_text,
    start_game,
    start_position,
)

pytestmark = pytest.mark.django_db

VARIS = "Varis (green-white)"


def login(client, player):
    client.force_login(player.user)
    return client


# accounts ---------------------------------------------------------------------------------------
def test_play_as_guest_then_set_a_password(client):
    response = client.post("/accounts/guest/", {"display_name": "Mira", "next": "/"})
    assert response.status_code == 302
    player = Player.objects.get(display_name="Mira")
    assert player.is_guest and not player.user.has_usable_password()
    assert client.get("/").context["player"] == player  # the session keeps the guest

    response = client.post(
        "/accounts/", {"username": "mira", "password": "a long enough passphrase"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert not player.is_guest
    assert player.user.username == "mira"
    assert client.get("/").context["player"] == player  # still logged in after the change
    fresh = type(client)()
    assert fresh.login(username="mira", password="a long enough passphrase")


def test_a_guest_name_needs_a_letter(client):
    response = client.post("/accounts/guest/", {"display_name": "  ...  "})
    assert response.status_code == 200
    assert not Player.objects.exists()


def test_sign_up_log_out_log_in(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "sam", "display_name": "Sam", "password": "another fine passphrase"},
    )
    assert response.status_code == 302
    assert Player.objects.get(display_name="Sam").user.username == "sam"
    client.post("/accounts/logout/")
    assert client.get("/").context["player"] is None
    response = client.post(
        "/accounts/login/", {"username": "sam", "password": "another fine passphrase"}
    )
    assert response.status_code == 302
    assert client.get("/").context["player"].display_name == "Sam"


def test_a_user_made_outside_the_site_gets_a_player(client):
    user = get_user_model().objects.create_user("admin", password="x")
    client.force_login(user)
    assert client.get("/").context["player"].display_name == "admin"


# lobby ------------------------------------------------------------------------------------------
def test_create_a_game_with_a_preset_and_get_an_invite_link(client, alice):
    login(client, alice)
    response = client.post("/games/new/", {"deck": VARIS})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert game.seats.get().deck == list(STARTER_DECKS[VARIS])

    page = client.get(response["Location"]).content.decode()
    assert "Waiting for an opponent" in page
    assert f"http://testserver/g/{game.code}/" in page  # the invite link to send


def test_deck_import_lists_every_unknown_card_and_breach(client, alice):
    login(client, alice)
    text = "4 Varis, Silverymoon Rangr\n3 Black Lotus\n6 Keen-Eared Sentry\n10 Forest\n"
    response = client.post("/games/new/", {"deck": "__imported__", "decklist": text})
    assert response.status_code == 200
    html = response.content.decode()
    assert "This deck can't be used" in html
    assert "unknown card &#x27;Varis, Silverymoon Rangr&#x27;" in html
    assert "Did you mean &#x27;Varis, Silverymoon Ranger&#x27;?" in html
    assert "unknown card &#x27;Black Lotus&#x27;" in html
    assert "6 copies of Keen-Eared Sentry" in html
    assert "The deck has 16 cards; it needs at least 40." in html
    assert not Game.objects.exists()


def test_an_imported_deck_is_used_and_remembered(client, alice):
    login(client, alice)
    text = "Deck\n4 Keen-Eared Sentry\n4 Gloom Stalker\n32 Plains\nSideboard\n2 Bar the Gate\n"
    client.post("/games/new/", {"deck": "__imported__", "decklist": text})
    seat = Game.objects.get().seats.get()
    assert len(seat.deck) == 40 and seat.deck.count("Gloom Stalker") == 4
    alice.refresh_from_db()
    assert alice.last_decklist == text.strip()
    assert "32 Plains" in client.get("/").content.decode()  # offered again


def test_start_from_an_uploaded_position(client, alice, bob):
    login(client, alice)
    upload = SimpleUploadedFile("fork.yaml", position_text("varis_fork.yaml").encode())
    response = client.post("/games/new/", {"scenario": upload})
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.is_scenario and game.scenario_name.startswith("Varis ventures")

    login(client, bob)
    join_page = client.get(f"/g/{game.code}/").content.decode()
    assert "starts from a position" in join_page
    client.post(f"/g/{game.code}/join/")
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert game.setup["players"] == ["alice", "bob"]
    # The file holds both hands and libraries: only its uploader may have it while the game
    # runs (bob, a stranger and an anonymous visitor are refused, and see no link to it).
    url = f"/g/{game.code}/scenario.yaml"
    assert client.get(url).status_code == 403
    assert "position file" not in client.get(f"/g/{game.code}/").content.decode()
    assert type(client)().get(url).status_code == 403
    login(client, make_player("carol"))
    assert client.get(url).status_code == 403
    login(client, alice)
    assert client.get(url).content.decode() == position_text("varis_fork.yaml")
    assert "position file" in client.get(f"/g/{game.code}/").content.decode()
    # Once the game is over, anyone may.
    services.concede(game.pk, alice)
    anonymous = type(client)()
    assert anonymous.get(url).content.decode() == position_text("varis_fork.yaml")
    login(client, bob)
    assert "position file" in client.get(f"/g/{game.code}/").content.decode()


def test_a_bad_position_shows_the_line(client, alice):
    login(client, alice)
    text = position_text("varis_fork.yaml").replace("Zombie Ogre", "Zombie Oger")
    upload = SimpleUploadedFile("report.yaml", text.encode())
    response = client.post("/games/new/", {"scenario": upload})
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r"report\.yaml:\d+: unknown card name &#x27;Zombie Oger&#x27;", html)
    assert not Game.objects.exists()


def test_join_by_link(client, alice, bob):
    game = services.create_game(alice, deck_name=VARIS, deck=list(STARTER_DECKS[VARIS]))
    anonymous = client.get(f"/g/{game.code}/").content.decode()
    assert "alice invites you" in anonymous and "Play as guest" in anonymous

    login(client, bob)
    page = client.get(f"/g/{game.code}/").content.decode()
    assert 'id="join-game"' in page
    response = client.post(f"/g/{game.code}/join/", {"deck": "Crawlers (black-red)"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    board = client.get(f"/g/{game.code}/").content.decode()
    assert 'id="hand"' in board and 'ws-connect="/ws/game/' in board


def test_the_lobby_lists_open_games_and_my_games(client, alice, bob):
    carol = make_player("carol")
    open_game = services.create_game(carol, deck_name=VARIS, deck=list(STARTER_DECKS[VARIS]))
    playing = start_game(alice, bob)
    done = start_game(alice, bob)
    services.concede(done.pk, bob)
    login(client, alice)
    html = client.get("/").content.decode()
    open_list = html[html.index('id="open-games"') : html.index('id="my-games"')]
    assert open_game.get_absolute_url() in open_list
    assert playing.get_absolute_url() not in open_list
    mine = html[html.index('id="my-games"') :]
    assert playing.get_absolute_url() in mine and done.get_absolute_url() in mine
    assert "alice won" in mine
    playing.refresh_from_db()
    assert ("your move" in mine) == (playing.deciding == "alice")


# the game without JavaScript -------------------------------------------------------------------
def test_the_game_page_shows_the_prompt_and_posting_an_option_plays_it(client, alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    login(client, alice)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'data-kind="priority"' in page and "Gloom Stalker" in page
    assert "Power Word Kill" not in page

    response = client.post(
        f"/g/{game.code}/act/",
        {
            "action": "answer",
            "option": option_id(game, "cast Keen-Eared Sentry"),
            "version": game.version,
            "action_id": "post-1",
        },
    )
    assert response.status_code == 302
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'data-kind="choose_dungeon"' in page
    assert page.count('class="map-button"') == 3

    client.post(
        f"/g/{game.code}/act/",
        {"action": "answer", "option": "pass", "version": 0, "action_id": "post-2"},
    )
    page = client.get(game.get_absolute_url()).content.decode()
    assert "You already answered that decision" in page  # the refusal, shown as a message


def test_bob_sees_alice_choosing_and_no_hand(client, alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    login(client, bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "alice has priority" in page
    assert "Gloom Stalker" not in page and "Keen-Eared Sentry" not in page
    assert "Power Word Kill" in page


def test_game_over_offers_a_rematch_the_opponent_accepts(client, alice, bob):
    game = start_position(alice, bob, "lethal_attack.yaml")
    login(client, alice)
    client.post(
        f"/g/{game.code}/act/",
        {
            "action": "answer",
            "multi": "1",
            "option": option_id(game, "Varis, Silverymoon Ranger"),
            "version": game.version,
            "action_id": "attack-1",
        },
    )
    page = client.get(game.get_absolute_url()).content.decode()
    assert "alice wins" in page and "life total 0 or less" in page and 'id="rematch"' in page

    # A rematch is an offer: alice stays on the finished game until bob accepts.
    response = client.post(f"/g/{game.code}/rematch/")
    assert response["Location"] == game.get_absolute_url()
    assert not Game.objects.filter(rematch_of=game).exists()
    login(client, bob)
    response = client.post(f"/g/{game.code}/rematch/")
    new = Game.objects.get(rematch_of=game)
    assert response["Location"] == new.get_absolute_url()
    login(client, alice)
    assert new.get_absolute_url() in client.get(game.get_absolute_url()).content.decode()


def test_the_host_can_cancel_an_open_game(client, alice):
    game = services.create_game(alice, deck_name=VARIS, deck=list(STARTER_DECKS[VARIS]))
    login(client, alice)
    client.post(f"/g/{game.code}/cancel/")
    assert not Game.objects.exists()


# profile ----------------------------------------------------------------------------------------
def test_the_profile_lists_games_and_completed_dungeons(client, alice, bob):
    game = start_game(alice, bob)
    services.concede(game.pk, bob)
    for dungeon, turn in [("Lost Mine of Phandelver", 4), ("Lost Mine of Phandelver", 9)]:
        CompletedDungeon.objects.create(player=alice, game=game, dungeon=dungeon, turn=turn)
    CompletedDungeon.objects.create(player=alice, game=game, dungeon="Undercity", turn=12)

    html = client.get(f"/players/{alice.pk}/").content.decode()
    counts = html[html.index('id="dungeon-counts"') : html.index('id="games"')]
    assert re.search(r"Lost Mine of Phandelver</td><td class=\"num\">2<", counts)
    assert re.search(r"Undercity</td><td class=\"num\">1<", counts)
    assert "on turn 9" in counts
    games = html[html.index('id="games"') :]
    assert "bob" in games and "won" in games


def test_the_profile_counts_wins_over_all_finished_games_not_the_latest_listed(client, alice, bob):
    # The page lists the latest 100 games; the totals are over every finished game: alice won
    # her first 101 games (the oldest is not listed), then lost one and drew one.
    from game.models import Seat

    def finished(winner: str) -> None:
        game = Game.objects.create(created_by=alice, status=Game.FINISHED, winner=winner)
        Seat.objects.create(game=game, player=alice, position=0, engine_name="alice")
        Seat.objects.create(game=game, player=bob, position=1, engine_name="bob")

    for winner in ["alice"] * 101 + ["bob", "draw"]:
        finished(winner)
    context = client.get(f"/players/{alice.pk}/").context
    assert len(context["rows"]) == 100
    assert (context["finished"], context["wins"]) == (103, 101)
    assert client.get(f"/players/{bob.pk}/").context["wins"] == 1


def test_without_javascript_every_form_carries_its_csrf_token(alice, bob):
    from django.test import Client

    game = start_position(alice, bob, "varis_fork.yaml")
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    page = client.get(game.get_absolute_url()).content.decode()
    form = re.search(r'<form class="option-form".*?</form>', page, re.S).group(0)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', form))
    fields["csrfmiddlewaretoken"] = token
    response = client.post(f"/g/{game.code}/act/", fields)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version > 0


def test_the_blocks_prompt_says_what_no_blocks_would_cost(client, alice, bob):
    """Unblocked, a double striker counts twice (CR 702.4b): Gloom Stalker (2/3, double strike
    once a dungeon is completed) and a Veteran Dungeoneer (3/4) deal 7, lethal at 7 life."""
    text = position_text("lethal_unblocked.yaml")
    text = text.replace(
        "battlefield: [Veteran Dungeoneer, Veteran Dungeoneer, Forest]",
        "battlefield: [Gloom Stalker, Veteran Dungeoneer, Forest]\n"
        "    completed: [Lost Mine of Phandelver]",
    ).replace("life: 6", "life: 7")
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, ["Gloom Stalker", "Veteran Dungeoneer"])
    assert pending(game).kind == "declare_blockers"
    login(client, bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert (
        "The attackers left unblocked deal 7 damage; you are at 7 life: <strong>lethal</strong>."
        in page
    )
    assert 'data-lethal="7"' in page
    # Each attacker's share, for the page to follow the blocks chosen: the Stalker twice.
    ids = {o.label.split(" blocks ")[1].split(" #")[0]: o.objs[1] for o in pending(game).options}
    stalker, dungeoneer = ids["Gloom Stalker"], ids["Veteran Dungeoneer"]
    shares = sorted([(stalker, 4), (dungeoneer, 3)])
    assert 'data-coming="{}"'.format(" ".join(f"o{i}:{n}" for i, n in shares)) in page
    # Alice sees no blocks prompt, and so nothing of it.
    login(client, alice)
    assert "left unblocked" not in client.get(game.get_absolute_url()).content.decode()


def test_the_stack_says_each_targets_share_of_divided_damage(client, alice, bob):
    """Announced as the spell is cast (CR 601.2d): bob sees the split while he may respond."""
    text = """
name: Magic Missile on the stack
turn: {number: 3, active: alice, step: precombat_main}
setup:
  alice:
    library: [Mountain, Mountain]
    hand: [Magic Missile]
    battlefield: [Mountain, Mountain, Mountain]
  bob:
    library: [Forest, Forest]
    hand: [Rally Maneuver]
    battlefield: [Grizzled Outrider, Plains, Plains, Plains]
"""
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, "cast Magic Missile")
    game = answer(game, alice, ["Grizzled Outrider", "bob"])
    game = answer(game, alice, "1 to Grizzled Outrider, 2 to bob")
    assert pending(game).player == seat_name(game, bob)
    login(client, bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "targets: Grizzled Outrider (1 damage), bob (2 damage)" in page


def test_a_stop_in_the_other_players_attack_says_what_it_will_deal(client, alice, bob):
    """Bob, holding an instant, is stopped once alice attacks: the prompt says what the attack
    deals him (lethal here, with nothing of his able to block), and after blocks only what the
    attackers left unblocked deal."""
    text = position_text("lethal_unblocked.yaml").replace(
        "battlefield: [Yuan-Ti Malison, Yuan-Ti Malison, Swamp]",
        "hand: [Rally Maneuver]\n    battlefield: [Yuan-Ti Malison, Plains, Plains, Plains]",
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, ["Veteran Dungeoneer #1", "Veteran Dungeoneer #2"])
    login(client, bob)
    d = pending(game)
    assert (d.player, d.kind) == (seat_name(game, bob), "priority")
    page = client.get(game.get_absolute_url()).content.decode()
    assert (
        "The attackers left unblocked deal 6 damage; you are at 6 life: <strong>lethal</strong>."
        in page
    )
    game = answer(game, bob, "pass")
    game = answer(game, bob, "Yuan-Ti Malison blocks Veteran Dungeoneer #1")
    d = pending(game)
    assert (d.player, d.kind) == (seat_name(game, bob), "priority")
    page = client.get(game.get_absolute_url()).content.decode()
    assert "The attackers left unblocked deal 3 damage; you are at 6 life." in page
    # Once the damage is dealt, the life total says it: the line is gone (bob, in full control,
    # is stopped in the combat damage step).
    game.seats.filter(player=bob).update(full_control=True)
    game = answer(game, bob, "pass")
    d = pending(game)
    assert (d.player, d.kind, game_step(game)) == (
        seat_name(game, bob),
        "priority",
        "combat_damage",
    )
    page = client.get(game.get_absolute_url()).content.decode()
    assert "left unblocked" not in page


def game_step(game: Game) -> str:
    with services.reading(game) as engine:
        return engine.state.step


def test_the_attack_line_counts_trample_over_blockers(client, alice, bob):
    """A blocked trampler still deals what is left after lethal damage to its blockers
    (CR 702.19b): at bob's stop after blocks, the line says so."""
    game = start_from_text(alice, bob, position_text("trample_blocks.yaml"))
    game = answer(game, alice, ["Caves of Chaos Adventurer", "Veteran Dungeoneer"])
    while pending(game).player == seat_name(game, alice):
        game = answer(game, alice, "pass")
    login(client, bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert (
        "The attackers left unblocked deal 8 damage; you are at 5 life: <strong>lethal</strong>."
        in page
    )
    while pending(game).kind != "declare_blockers":
        game = answer(
            game, alice if pending(game).player == seat_name(game, alice) else bob, "pass"
        )
    game = answer(game, bob, "Veteran Dungeoneer blocks Caves of Chaos Adventurer")
    d = pending(game)
    assert (d.player, d.kind) == (seat_name(game, bob), "priority")
    page = client.get(game.get_absolute_url()).content.decode()
    assert (
        "The attackers left unblocked deal 3 damage, trample 1 more over blockers; "
        "you are at 5 life." in page
    )
