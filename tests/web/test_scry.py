"""A scry answered in one prompt: the page places each looked-at card on top at a position or
on the bottom, and the service gives the engine its two answers (`scry`, then `scry_order`
when two or more stay on top) in one transaction. Through the plain form (Django's test
client, as without JavaScript) and the websocket, as a player and as the other seat."""

from __future__ import annotations

import html
import re

import pytest

from game import services
from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine
from game.forms.actions import BadAction, parse_action
from game.models import ActionReceipt, GameAction

from .helpers import answer, make_player, pending, position_text, start_from_text, start_position
from .sockets import connect, db, players_and_game

pytestmark = pytest.mark.django_db

ACTIVATE = "activate Dungeon Map: {3}, {T}"
FORM = re.compile(r'<form class="placement-form".*?</form>', re.S)


def scrying(alice, bob, room: str = "Goblin Bazaar"):
    """Alice's Dungeon Map ventures into the room after `room` of the Dungeon of the Mad Mage:
    Lost Level (scry 2) after Goblin Bazaar, Dungeon Level (scry 1) after Yawning Portal, Deep
    Mines (scry 3) after Muiral's Graveyard. Her library: Island, Forest, Swamp, Plains."""
    text = position_text("scry_two.yaml").replace("room: Goblin Bazaar", f'room: "{room}"')
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, ACTIVATE)
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "scry"), (d.player, d.kind)
    return game, {o.label: o.id for o in d.options}


def login(client, player):
    client.force_login(player.user)
    return client


def page(client, game) -> str:
    return client.get(game.get_absolute_url()).content.decode()


def post(client, game, fields: dict, action_id: str = "scry-1") -> None:
    base = {"action": "answer", "version": game.version, "action_id": action_id}
    response = client.post(f"/g/{game.code}/act/", {**base, **fields})
    assert response.status_code == 302


def library(game) -> list[str]:
    game.refresh_from_db()
    with services.reading(game) as engine:
        return [o.name for o in engine.state.player("alice").library]


def logged(game) -> list[tuple[str, object]]:
    return [
        (a.seat.engine_name, a.answer)
        for a in GameAction.objects.filter(game=game).order_by("index").select_related("seat")
    ]


# the page ---------------------------------------------------------------------------------------
def test_the_scry_is_one_form_that_places_each_card_on_top_or_at_the_bottom(client, alice, bob):
    game, ids = scrying(alice, bob)
    text = page(login(client, alice), game)
    assert 'data-kind="scry"' in text
    form = FORM.search(text).group(0)
    assert 'name="placement" value="1"' in form
    # A radio button per place for each card: 1st, 2nd, Bottom; each named in full.
    for card, oid in ids.items():
        radios = re.findall(rf'<input type="radio" name="pos:{oid}" value="(\w)"', form)
        assert radios == ["1", "2", "b"], radios
        assert f"{card} 1st from the top" in form and f"{card} on the bottom" in form
    # As the library has them, until the player moves one.
    assert f'name="pos:{ids["Island"]}" value="1" checked' in form
    assert f'name="pos:{ids["Forest"]}" value="2" checked' in form
    assert 'id="confirm"' in form and "checkbox" not in form and "<select" not in form
    # A reload mid-scry shows the one prompt again.
    assert FORM.search(page(client, game)).group(0).count('type="radio"') == 6


def test_a_scry_1_is_top_or_bottom(client, alice, bob):
    game, ids = scrying(alice, bob, "Yawning Portal")
    assert list(ids) == ["Island"]
    form = FORM.search(page(login(client, alice), game)).group(0)
    assert re.findall(r'type="radio" name="pos:\w+" value="(\w)"', form) == ["1", "b"]
    assert ">Top<" in form and ">Bottom<" in form
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "b"})
    assert library(game) == ["Forest", "Swamp", "Plains", "Island"]
    assert logged(game)[-1] == ("alice", [ids["Island"]])


def test_the_other_seat_sees_that_alice_scries_and_no_card(client, alice, bob):
    game, _ = scrying(alice, bob)
    text = page(login(client, bob), game)
    assert "alice is scrying" in text
    assert "placement-form" not in text and "Forest" not in text


# valid answers ----------------------------------------------------------------------------------
def test_both_kept_on_top_in_a_new_order_is_the_engines_two_answers(client, alice, bob):
    game, ids = scrying(alice, bob)
    before = game.version
    login(client, alice)
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "2", f"pos:{ids['Forest']}": "1"})
    assert library(game) == ["Forest", "Island", "Swamp", "Plains"]
    # The answer log holds the scry (nothing to the bottom) and its order, as one by one.
    assert game.version == before + 2
    assert logged(game)[before:] == [("alice", []), ("alice", [ids["Forest"], ids["Island"]])]
    actions = GameAction.objects.filter(game=game, index__gte=before).order_by("index")
    assert [a.auto for a in actions] == [False, False]
    assert [a.client_action_id for a in actions] == ["scry-1", ""]
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "priority")
    # A replay from the log is the same game.
    assert [o.name for o in services.replay_game(game).state.player("alice").library] == [
        "Forest",
        "Island",
        "Swamp",
        "Plains",
    ]
    # Bob is told what the log says, no more.
    text = html.unescape(page(login(client, bob), game))
    assert "alice scries 2: 2 on top, 0 on the bottom" in text
    assert "Forest" not in text


def test_one_on_top_one_at_the_bottom_asks_no_order(client, alice, bob):
    game, ids = scrying(alice, bob)
    before = game.version
    login(client, alice)
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "b", f"pos:{ids['Forest']}": "1"})
    assert library(game) == ["Forest", "Swamp", "Plains", "Island"]
    assert logged(game)[before:] == [("alice", [ids["Island"]])]


def test_all_to_the_bottom_asks_no_order_and_keeps_the_pages_order(client, alice, bob):
    game, ids = scrying(alice, bob)
    before = game.version
    login(client, alice)
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "b", f"pos:{ids['Forest']}": "b"})
    assert library(game) == ["Swamp", "Plains", "Island", "Forest"]
    assert logged(game)[before:] == [("alice", [ids["Island"], ids["Forest"]])]
    text = html.unescape(page(client, game))
    assert "alice scries 2: 0 on top, 2 on the bottom" in text


def test_a_scry_3_with_one_at_the_bottom_and_two_reordered(client, alice, bob):
    game, ids = scrying(alice, bob, "Muiral's Graveyard")
    assert list(ids) == ["Island", "Forest", "Swamp"]
    before = game.version
    login(client, alice)
    fields = {f"pos:{ids['Island']}": "2", f"pos:{ids['Forest']}": "b", f"pos:{ids['Swamp']}": "1"}
    post(client, game, {"placement": "1", **fields})
    assert library(game) == ["Swamp", "Island", "Plains", "Forest"]
    assert logged(game)[before:] == [
        ("alice", [ids["Forest"]]),
        ("alice", [ids["Swamp"], ids["Island"]]),
    ]


def test_the_engines_two_prompts_still_take_their_answers(alice, bob):
    """The computer, an older page or a script answers the `scry` and then the `scry_order`
    decision apart, as ever."""
    game, ids = scrying(alice, bob)
    game = answer(game, alice, [])
    assert pending(game).kind == "scry_order"
    game = answer(game, alice, ["Forest", "Island"])
    assert library(game) == ["Forest", "Island", "Swamp", "Plains"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_over_the_websocket_the_placement_is_one_action():
    alice, bob, game = await players_and_game("scry_two.yaml")
    a = await connect(game, alice)
    b = await connect(game, bob)
    game = await db(answer)(game, alice, ACTIVATE)
    await a.caught_up(game)
    await b.caught_up(game)
    assert "placement-form" in a.text and "alice is scrying" in b.text
    d = await db(pending)(game)
    ids = {o.label: o.id for o in d.options}
    before = game.version
    await a.send(
        action="answer",
        placement="1",
        version=str(game.version),
        **{f"pos:{ids['Island']}": "2", f"pos:{ids['Forest']}": "1"},
    )
    await a.answered(game)
    await b.caught_up(game)
    assert game.version == before + 2
    assert (await db(library)(game))[:2] == ["Forest", "Island"]
    # Bob is told that alice scries, never which cards.
    assert "Forest" not in b.text
    await a.close()
    await b.close()


# inconsistent forms change nothing --------------------------------------------------------------
def _refused(client, game, fields: dict, message: str, action_id: str = "bad-1") -> None:
    version = game.version
    actions = GameAction.objects.filter(game=game).count()
    receipts = ActionReceipt.objects.filter(game=game).count()
    post(client, game, fields, action_id)
    game.refresh_from_db()
    assert game.version == version
    assert GameAction.objects.filter(game=game).count() == actions
    assert ActionReceipt.objects.filter(game=game).count() == receipts
    assert library(game) == ["Island", "Forest", "Swamp", "Plains"]
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "scry")
    text = html.unescape(page(client, game))
    assert message in text, message
    assert "placement-form" in text  # the one prompt again


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ({"Island": "1", "Forest": "1"}, "Give each card kept on top a different position."),
        ({"Island": "1", "Forest": "3"}, "from 1 (the top) to 2, without a gap"),
        ({"Island": "b", "Forest": "2"}, "from 1 (the top) to 1, without a gap"),
        ({"Island": "0", "Forest": "1"}, "from 1 (the top) to 2, without a gap"),
        ({"Island": "top", "Forest": "1"}, "a position on top (1, 2, …) or b (the bottom)"),
        ({"Island": "12345", "Forest": "1"}, "a position on top (1, 2, …) or b (the bottom)"),
        ({"Island": "1"}, "Place each of the 2 cards once"),
        ({"Island": "1", "Forest": "2", "o999": "b"}, "'o999' is not one of the cards"),
        ({"Island": "1", "o999": "2"}, "'o999' is not one of the cards"),
    ],
)
def test_an_inconsistent_placement_is_refused_and_changes_nothing(
    client, alice, bob, places, message
):
    game, ids = scrying(alice, bob)
    login(client, alice)
    fields = {f"pos:{ids.get(card, card)}": value for card, value in places.items()}
    _refused(client, game, {"placement": "1", **fields}, message)
    # Then the right form goes through.
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "b", f"pos:{ids['Forest']}": "1"})
    assert library(game) == ["Forest", "Swamp", "Plains", "Island"]


def test_a_placement_mixed_with_options_or_of_another_kind_is_refused(client, alice, bob):
    game, ids = scrying(alice, bob)
    login(client, alice)
    island, forest = f"pos:{ids['Island']}", f"pos:{ids['Forest']}"
    _refused(
        client,
        game,
        {"placement": "1", island: "1", forest: "2", "multi": "1", "option": ids["Island"]},
        "A placement sends a place for each card",
    )
    _refused(client, game, {"placement": "yes", island: "1", forest: "2"}, "placement is 1")
    _refused(client, game, {"placement": "1"}, "Place each card", action_id="bad-2")


def test_a_placement_at_another_decision_is_refused(client, alice, bob):
    game, ids = scrying(alice, bob)
    login(client, alice)
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "1", f"pos:{ids['Forest']}": "2"})
    game.refresh_from_db()
    version = game.version
    assert pending(game).kind == "priority"
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "1"}, "late-1")
    game.refresh_from_db()
    assert game.version == version
    assert "That form places the cards of a scry; the decision now is another (priority)" in (
        html.unescape(page(client, game))
    )


def test_bob_cannot_place_alices_scry(client, alice, bob):
    game, ids = scrying(alice, bob)
    login(client, bob)
    version = game.version
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "b", f"pos:{ids['Forest']}": "1"})
    game.refresh_from_db()
    assert game.version == version
    assert "It is alice's decision (scry), not yours." in html.unescape(page(client, game))


def test_a_refusal_of_the_order_after_the_scry_undoes_both(alice, bob, monkeypatch):
    """Should the engine refuse the order once the scry is applied, neither answer is kept: the
    transaction rolls back and the changed engine is not kept (the game is rebuilt from its
    log)."""
    game, ids = scrying(alice, bob)
    version = game.version
    real = Engine.answer

    def refusing(engine, player, choice):
        if engine.pending is not None and engine.pending.kind == "scry_order":
            raise IllegalAnswer("refused for the test")
        return real(engine, player, choice)

    monkeypatch.setattr(Engine, "answer", refusing)
    with pytest.raises(services.ActionRefused, match="refused for the test"):
        services.submit_scry(
            game.pk, alice, [], [ids["Forest"], ids["Island"]], version=version, action_id="x1"
        )
    monkeypatch.setattr(Engine, "answer", real)
    game.refresh_from_db()
    assert game.version == version
    assert not ActionReceipt.objects.filter(game=game, action_id="x1").exists()
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "scry")
    assert library(game) == ["Island", "Forest", "Swamp", "Plains"]
    services.submit_scry(game.pk, alice, [ids["Island"]], [ids["Forest"]], version=version)
    assert library(game) == ["Forest", "Swamp", "Plains", "Island"]


# the parser -------------------------------------------------------------------------------------
def test_the_parser_turns_a_placement_into_bottom_and_top():
    action = parse_action(
        {
            "action": "answer",
            "version": "7",
            "action_id": "a1",
            "placement": "1",
            "pos:o3": "b",
            "pos:o1": "2",
            "pos:o5": "b",
            "pos:o2": 1,
        }
    )
    assert action.answer is None and action.placement is not None
    assert action.placement.bottom == ["o3", "o5"]  # in the form's order
    assert action.placement.top == ["o2", "o1"]


def test_the_parser_refuses_more_cards_than_a_placement_holds():
    fields = {f"pos:o{i}": "b" for i in range(101)}
    with pytest.raises(BadAction, match="at most 100 cards"):
        parse_action(
            {"action": "answer", "version": "1", "action_id": "a", "placement": "1", **fields}
        )


def test_a_scry_larger_than_a_placement_shows_as_the_engines_two_prompts():
    from game.board.prompt import prompt_of
    from game.engine.decisions import Decision, Option

    def prompt(n: int):
        options = [Option(f"o{i}", f"Card {i}", (i,)) for i in range(n)]
        d = Decision("alice", "scry", "Scry", options, multi=True, min_count=0, max_count=n)
        return prompt_of(d, {})

    assert prompt(100).layout == "placement" and len(prompt(100).places) == 101
    assert prompt(101).layout == "checkboxes" and prompt(101).places == ()


def test_a_player_may_scry_in_a_game_of_their_own_only(client, alice, bob):
    game, ids = scrying(alice, bob)
    carol = make_player("carol")
    login(client, carol)
    version = game.version
    post(client, game, {"placement": "1", f"pos:{ids['Island']}": "b", f"pos:{ids['Forest']}": "b"})
    game.refresh_from_db()
    assert game.version == version


def test_the_position_file_is_a_scry_2(alice, bob):
    game = start_position(alice, bob, "scry_two.yaml")
    game = answer(game, alice, ACTIVATE)
    d = pending(game)
    assert [o.label for o in d.options] == ["Island", "Forest"]
