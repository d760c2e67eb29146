"""The dungeon editor a designer uses: each step's fields are its operation's parameters and
nothing else (held to the registry), the live preview lists every problem at once and each once,
edited official dungeons are named as such in games and restored in one click, official
dungeons are never deleted, the "Dungeon designers" group can do all of this and nothing else,
and "Try it" starts a game about to venture into the dungeon."""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from django.utils.html import escape

from dungeons.models import DungeonCard
from dungeons.storage import save_dungeon
from dungeons.wording import sentence
from game import services
from game.engine import ops
from game.engine.ops import BOOL, WORDS
from game.models import Game
from tests.dungeon_samples import cellar
from tests.web.helpers import answer, make_player, option_id, pending, start_position

from .test_admin import ADD_URL, admin_client, post_data  # noqa: F401 - admin_client: fixture

pytestmark = pytest.mark.django_db

FIELDS_URL = "/admin/dungeons/dungeoncard/step-fields/"
PREVIEW_URL = "/admin/dungeons/dungeoncard/preview/"
LIST_URL = "/admin/dungeons/dungeoncard/"
PREFIX = "rooms-2-steps-1"
LOST_MINE = "Lost Mine of Phandelver"
STEP_FORM_OWN = {"DELETE", "position", "op", "id", "room"}


@pytest.fixture
def designer(client):
    user = User.objects.create_user("dee", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name="Dungeon designers"))
    client.force_login(user)
    return client


def _names(html: str) -> list[str]:
    """The parameter names of the inputs a fragment holds, in order, each once."""
    out: list[str] = []
    for name in re.findall(rf'name="{PREFIX}-(\w+)"', html):
        if name not in out and name not in STEP_FORM_OWN:
            out.append(name)
    return out


# the step's fields are its operation's ----------------------------------------------------------
def test_every_operation_shows_its_parameters_and_nothing_else(designer):
    for name, entry in ops.data_ops().items():
        html = designer.get(FIELDS_URL, {"prefix": PREFIX, "op": name}).content.decode()
        declared = [p.name for p in entry.data_params]
        required = [p.name for p in entry.data_params if p.required]
        shown = _names(html)
        assert sorted(shown) == sorted(declared), name
        assert shown[: len(required)] == required, f"{name}: required fields come first"
        for p in entry.data_params:
            if p.help:  # its help, a list's words ticked rather than typed
                assert escape(p.help.replace(", comma-separated", "")) in html, (name, p.name)
            if p.choices:  # allowed values are offered as a choice, never typed
                for value in p.choices:
                    assert f'value="{value}"' in html, (name, p.name, value)
            if p.type == BOOL or (p.type == WORDS and p.choices):
                assert re.search(rf'type="checkbox" name="{PREFIX}-{p.name}"', html), name
        if entry.does:
            assert escape(entry.does) in html, name


def test_no_operation_no_fields_and_a_bad_prefix_is_refused(designer):
    assert _names(designer.get(FIELDS_URL, {"prefix": PREFIX, "op": ""}).content.decode()) == []
    resp = designer.get(FIELDS_URL, {"prefix": 'rooms-0-x"><script>', "op": "scry"})
    assert resp.status_code == 400


def test_a_step_reads_in_words():
    assert sentence({"op": "lose_life", "who": "each_opponent", "amount": 2}) == (
        "Each opponent loses 2 life."
    )
    assert sentence({"op": "add_counters", "target": "creature", "amount": 2}) == (
        "Put 2 +1/+1 counters on target creature."
    )
    for name in ops.data_ops():  # every operation reads as something
        assert sentence({"op": name}).endswith(".")


def test_a_saved_step_shows_its_fields_filled_in(designer):
    card = save_dungeon(cellar())
    html = designer.get(f"/admin/dungeons/dungeoncard/{card.pk}/change/").content.decode()
    right = re.search(r'id="rooms-2">.*?id="rooms-3">', html, re.S).group(0)
    assert _names(right.replace("rooms-2-steps-0", PREFIX)) == ["target", "counter", "amount"]
    assert "Put a +1/+1 counter on target creature." in right
    # exits are the other rooms, ticked when taken; rooms are headed by their names
    stairs = re.search(r'id="exits-rooms-0".*?</div>\s*</div>', html, re.S).group(0)
    assert re.search(r'value="Left"[^>]*checked', stairs) and 'value="Stairs"' not in stairs
    assert 'Room:</b>&nbsp;<span class="inline_label">Stairs' in html


# the live preview ---------------------------------------------------------------------------------
def _preview(client, dungeon: dict, tweak=None) -> str:
    data = post_data(dungeon)
    if tweak:
        tweak(data)
    resp = client.post(PREVIEW_URL, data)
    assert resp.status_code == 200
    return resp.content.decode()


def test_the_preview_draws_the_unsaved_dungeon(designer):
    html = _preview(designer, cellar())
    assert "No problems" in html
    assert len(re.findall(r'class="arrow[ "]', html)) == 4  # the arrows, not their heads
    assert 'data-room="Vault"' in html
    assert not DungeonCard.objects.filter(name="Test Cellar").exists()  # nothing saved
    # the exits of each room are offered again from the rooms as they are named now
    assert re.search(r'id="exits-rooms-1" hx-swap-oob="true"', html)


def test_every_problem_at_once_each_once_where_it_belongs(designer):
    broken = cellar()
    broken["rooms"][3]["leads_to"] = ["Stairs"]  # a cycle, into the top room
    broken["rooms"].append(
        {"name": "Attic", "text": "", "leads_to": [], "effect": [{"op": "draw"}]}
    )  # nothing leads to it, and it has no text

    def tweak(data):
        data["rooms-1-steps-0-amount"] = "two"  # not a number
        data["rooms-2-steps-0-amount"] = ""  # gain... add counters: fine without

    html = _preview(designer, broken, tweak)
    problems = re.findall(r'<li class="problem"(.*?)</li>', html, re.S)
    text = unescape("\n".join(re.sub(r"<[^>]+>", "", p) for p in problems))
    assert "Rooms form a cycle" in text
    assert "Nothing leads to room" in text and 'data-room="Attic"' in html
    assert "Enter a whole number" in text
    assert "The top room 'Stairs' (the first listed) must have no arrow into it." in text
    assert "This field is required" in text  # Attic's text, reported by its field
    # each once: the missing amount of Left's step (it isn't a number) is not reported again
    # as a missing parameter, nor Attic's text twice in two wordings
    assert "missing parameter" not in text
    assert "has no text" not in text
    assert len(problems) == len(set(problems))
    assert re.search(r'data-room="Left" data-field="amount"', html)
    # each links to its field: Left's step amount, Stairs' exits, Attic's text
    assert 'href="#id_rooms-1-steps-0-amount"' in html
    assert 'href="#id_rooms-0-leads_to"' in html
    assert 'href="#id_rooms-4-text"' in html


def test_saving_lists_every_problem_of_the_dungeon_at_once(designer):
    broken = cellar()
    broken["rooms"][3]["leads_to"] = ["Stairs"]
    broken["rooms"][1]["effect"][0].pop("amount")
    html = designer.post(ADD_URL, post_data(broken)).content.decode()
    assert "gain life needs amount." in html  # on its field
    assert "Rooms form a cycle" in html  # and the dungeon's shape, in the same answer
    assert not DungeonCard.objects.filter(name="Test Cellar").exists()


# official dungeons -------------------------------------------------------------------------------
def _edit_lost_mine() -> DungeonCard:
    card = DungeonCard.objects.get(name=LOST_MINE)
    data = card.to_dict()
    data["rooms"][0]["text"] = "Scry 2."
    data["rooms"][0]["effect"] = [{"op": "scry", "amount": 2}]
    save_dungeon(data, note="a designer's change")
    return card


def test_an_edited_official_dungeon_is_named_as_changed_in_a_new_game(designer):
    card = _edit_lost_mine()
    assert card.is_edited()
    listing = designer.get(LIST_URL).content.decode()
    assert "Official, edited" in listing
    page = designer.get(f"/admin/dungeons/dungeoncard/{card.pk}/change/").content.decode()
    assert "Edited official dungeon" in page and "Restore the printed version" in page

    alice, bob = make_player("Alice"), make_player("Bob")
    game = start_position(alice, bob, "two_dungeon_maps.yaml")
    names = [d["name"] for d in game.dungeons]
    assert f"{LOST_MINE} (edited)" in names and LOST_MINE not in names
    game = answer(game, alice, "activate Dungeon Map: {3}, {T} #1")
    designer.force_login(alice.user)
    board = designer.get(game.get_absolute_url()).content.decode()
    # the choice of dungeon, its map and its name, say so
    assert 'data-dungeon="Lost Mine of Phandelver (edited)"' in board
    assert 'data-dungeon="Lost Mine of Phandelver"' not in board


def test_restoring_makes_it_the_printed_card_again(designer):
    card = _edit_lost_mine()
    resp = designer.post(f"/admin/dungeons/dungeoncard/{card.pk}/restore-printed/")
    assert resp.status_code == 302
    card.refresh_from_db()
    assert not card.is_edited()
    assert card.revisions.first().note == "restored the printed version"
    game = services.create_game(make_player("Carol"), deck_name="Varis", deck=["Forest"] * 40)
    assert LOST_MINE in [d["name"] for d in game.dungeons]
    assert "Official, as printed" in designer.get(LIST_URL).content.decode()


def test_an_official_dungeon_can_not_be_deleted(designer):
    card = DungeonCard.objects.get(name=LOST_MINE)
    custom = save_dungeon(cellar())
    assert designer.post(f"/admin/dungeons/dungeoncard/{card.pk}/delete/").status_code == 403
    page = designer.get(f"/admin/dungeons/dungeoncard/{card.pk}/change/").content.decode()
    assert 'class="deletelink"' not in page
    bulk = {"action": "delete_selected", "_selected_action": [card.pk, custom.pk], "post": "yes"}
    html = designer.post(LIST_URL, bulk).content.decode()
    assert "Official dungeons can't be deleted: Lost Mine of Phandelver" in html
    assert DungeonCard.objects.filter(pk__in=[card.pk, custom.pk]).count() == 2
    # a custom dungeon alone is deleted as usual
    designer.post(LIST_URL, {**bulk, "_selected_action": [custom.pk]})
    assert not DungeonCard.objects.filter(pk=custom.pk).exists()


def test_a_custom_dungeon_may_not_take_the_name_games_give_an_edited_one(designer):
    dungeon = copy.deepcopy(cellar())
    dungeon["name"] = f"{LOST_MINE} (edited)"
    html = designer.post(ADD_URL, post_data(dungeon)).content.decode()
    assert "how games call an edited official dungeon" in html


# the designers' group -----------------------------------------------------------------------------
def test_a_designer_can_do_all_of_it_and_nothing_else(designer):
    user = User.objects.get(username="dee")
    assert user.is_staff and not user.is_superuser
    index = designer.get("/admin/").content.decode()
    assert "Dungeon cards" in index
    for other in ("Users", "Groups", "Games", "Players"):
        assert f">{other}<" not in index, other
    for url in ("/admin/auth/user/", "/admin/auth/group/", "/admin/game/game/"):
        assert designer.get(url).status_code == 403, url
    assert designer.get(ADD_URL).status_code == 200
    resp = designer.post(ADD_URL, post_data(cellar()))
    assert resp.status_code == 302
    card = DungeonCard.objects.get(name="Test Cellar")
    assert designer.get(f"/admin/dungeons/dungeoncard/{card.pk}/export/").status_code == 200
    assert designer.get(FIELDS_URL, {"prefix": PREFIX, "op": "scry"}).status_code == 200


def test_the_group_has_exactly_the_editor_permissions():
    group = Group.objects.get(name="Dungeon designers")
    codenames = set(group.permissions.values_list("codename", flat=True))
    expected = {
        f"{action}_{model}"
        for model in ("dungeoncard", "room", "effectstep")
        for action in ("add", "change", "delete", "view")
    } | {"view_dungeonrevision"}
    assert codenames == expected


# try it ------------------------------------------------------------------------------------------
def test_try_it_starts_a_game_about_to_venture_into_the_dungeon(designer):
    card = save_dungeon(cellar())
    resp = designer.post(f"/dungeons/{card.pk}/try/")
    assert resp.status_code == 302
    game = Game.objects.get(code=resp.url.rstrip("/").rsplit("/", 1)[1])
    assert game.status == Game.ACTIVE
    assert [d["name"] for d in game.dungeons] == ["Test Cellar"]
    d = pending(game)
    assert d.kind == "priority" and d.player == "dee"
    activate = option_id(game, "activate Dungeon Map: {3}, {T} #1")
    services.submit_answer(
        game.pk, game.seats.get(position=0).player, activate, version=game.version
    )
    game.refresh_from_db()
    with services.reading(game) as engine:
        me = engine.state.player("dee")
        assert me.dungeon is not None and me.dungeon.room == "Stairs"
    # the practice partner is the computer at Easy, always at the table: nobody is offered to
    # claim the win from it
    partner = game.seats.get(position=1)
    assert partner.player.is_computer and partner.player.computer_level == "easy"
    assert services.absences(game, list(game.seats.all()), timezone.now())[partner.pk] is None


def test_try_it_is_for_designers_only(client):
    card = save_dungeon(cellar())
    player = make_player("Mallory")
    client.force_login(player.user)
    assert client.post(f"/dungeons/{card.pk}/try/").status_code == 403
    assert not Game.objects.exists()


def test_acererak_does_not_count_an_edited_tomb_of_annihilation():
    """docs/rules-coverage.md: an edited official dungeon is another card in a game."""
    from types import SimpleNamespace

    from game.engine.cards.conditions import havent_completed_tomb

    tomb = DungeonCard.objects.get(name="Tomb of Annihilation")
    data = tomb.to_dict()
    data["rooms"][0]["text"] = "You gain 1 life."
    data["rooms"][0]["effect"] = [{"op": "gain_life", "amount": 1}]
    save_dungeon(data)
    played = tomb.as_played()["name"]
    assert played == "Tomb of Annihilation (edited)"
    player = SimpleNamespace(completed=[(played, 4)])
    game = SimpleNamespace(player=lambda name: player)
    assert havent_completed_tomb(game, "alice")
    player.completed.append(("Tomb of Annihilation", 6))
    assert not havent_completed_tomb(game, "alice")


def test_the_editor_and_try_it_refuse_a_post_without_its_csrf_token(client):
    from django.test import Client

    card = save_dungeon(cellar())
    user = User.objects.create_user("dee", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name="Dungeon designers"))
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    for url in (
        f"/dungeons/{card.pk}/try/",
        PREVIEW_URL,
        f"/admin/dungeons/dungeoncard/{card.pk}/preview/",
        f"/admin/dungeons/dungeoncard/{card.pk}/restore-printed/",
    ):
        assert strict.post(url, post_data(cellar())).status_code == 403, url
    assert not Game.objects.exists()


def test_a_preview_of_nonsense_is_an_answer_not_an_error(designer):
    for data in ({}, {"rooms-TOTAL_FORMS": "x"}, {"rooms-TOTAL_FORMS": "2", "name": "N"}):
        resp = designer.post(PREVIEW_URL, data)
        assert resp.status_code == 200, data
    assert designer.get(PREVIEW_URL).status_code == 405
    assert not DungeonCard.objects.filter(name="N").exists()


def test_a_position_in_an_edited_official_dungeon_is_refused_with_a_reason():
    text = (
        "name: In the mine\n"
        "setup:\n"
        "  alice:\n"
        "    dungeon: {name: Lost Mine of Phandelver, room: Cave Entrance}\n"
    )
    assert services.check_scenario(text).name == "In the mine"  # as printed: fine
    _edit_lost_mine()
    with pytest.raises(services.ActionRefused, match="can't be set up"):
        services.check_scenario(text)
