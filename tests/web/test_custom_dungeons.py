"""Custom dungeons in play: the host chooses which may be entered; a game keeps the dungeon
definitions it copied when it was created, whatever the admin edits later."""

from __future__ import annotations

import copy

import pytest

from dungeons.models import DungeonCard
from dungeons.storage import save_dungeon
from game import services
from game.engine import dungeon
from game.models import Game

from .helpers import answer, pending, position_text

pytestmark = pytest.mark.django_db

CELLAR = {
    "name": "Test Cellar",
    "rooms": [
        {
            "name": "Stairs",
            "text": "You gain 2 life.",
            "leads_to": ["Left", "Right"],
            "effect": [{"op": "gain_life", "who": "you", "amount": 2}],
        },
        {
            "name": "Left",
            "text": "Scry 1.",
            "leads_to": [],
            "effect": [{"op": "scry", "amount": 1}],
        },
        {
            "name": "Right",
            "text": "Draw a card.",
            "leads_to": [],
            "effect": [{"op": "draw", "amount": 1}],
        },
    ],
}


def _position_game(host, guest, **kwargs) -> Game:
    scenario = services.check_scenario(position_text("dungeon_map_venture.yaml"), "p.yaml")
    game = services.create_game(host, scenario=scenario, **kwargs)
    services.join_game(game.pk, guest)
    game.refresh_from_db()
    return game


def _venture(game: Game, alice) -> Game:
    return answer(game, alice, "activate Dungeon Map: {3}, {T}")


def test_by_default_only_the_official_dungeons_can_be_entered(alice, bob):
    save_dungeon(CELLAR, official=False)
    game = _venture(_position_game(alice, bob), alice)
    assert [o.label for o in pending(game).options] == [
        "Tomb of Annihilation",
        "Lost Mine of Phandelver",
        "Dungeon of the Mad Mage",
    ]


def test_an_allowed_custom_dungeon_is_offered_and_played(alice, bob):
    save_dungeon(CELLAR, official=False)
    game = _position_game(alice, bob, custom_dungeons=["Test Cellar"])
    game = _venture(game, alice)
    d = pending(game)
    assert d.kind == "choose_dungeon"
    assert "Test Cellar" in [o.label for o in d.options]
    game = answer(game, alice, "Test Cellar")
    with services.reading(game) as engine:
        me = engine.state.player("alice")
        assert me.dungeon.name == "Test Cellar" and me.dungeon.room == "Stairs"
        assert me.life == 22


def test_a_running_game_keeps_the_dungeon_it_copied_and_a_later_game_gets_the_edit(alice, bob):
    before = _position_game(alice, bob)
    edited = copy.deepcopy(DungeonCard.objects.get(name="Dungeon of the Mad Mage").to_dict())
    edited["rooms"][0]["text"] = "You gain 5 life."
    edited["rooms"][0]["effect"] = [{"op": "gain_life", "who": "you", "amount": 5}]
    save_dungeon(edited)
    after = _position_game(alice, bob)
    # The later game names the edited card as such (DungeonCard.as_played).
    mad_mage = "Dungeon of the Mad Mage"
    for game, name, life, text in (
        (before, mad_mage, 21, "You gain 1 life."),
        (after, f"{mad_mage} (edited)", 25, "You gain 5 life."),
    ):
        game = answer(_venture(game, alice), alice, name)
        with services.reading(game) as engine:
            state = engine.state
            assert state.player("alice").life == life
            assert state.dungeons[name].rooms["Yawning Portal"].text == text


def test_a_game_never_checks_its_dungeons_again_they_were_checked_when_saved(
    alice, bob, monkeypatch
):
    save_dungeon(CELLAR, official=False)

    def check(data):
        raise AssertionError(f"{data.get('name')} is checked again")

    monkeypatch.setattr(dungeon, "validate_dungeon_dict", check)
    game = _position_game(alice, bob, custom_dungeons=["Test Cellar"])  # created and started
    services.clear_engine_cache()
    game = answer(_venture(game, alice), alice, "Test Cellar")  # built again from its setup
    with services.reading(game) as engine:
        assert engine.state.player("alice").dungeon.name == "Test Cellar"


def test_the_lobby_form_lists_custom_dungeons(client, alice):
    save_dungeon(CELLAR, official=False)
    client.force_login(alice.user)
    html = client.get("/games/new/").content.decode()
    assert 'id="custom-dungeons"' in html and "Test Cellar" in html
    assert "A custom dungeon is one a dungeon designer made in the dungeon editor" in html


def test_the_lobby_form_explains_the_custom_dungeon_choice_before_any_exists(client, alice):
    client.force_login(alice.user)
    html = client.get("/games/new/").content.decode()
    assert 'id="custom-dungeons"' in html and "No custom dungeons yet." in html
    assert "docs/dungeons.md" in html
