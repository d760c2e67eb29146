"""The game use-cases: starting, answering, refusing, pace, persistence by replay, history."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from dungeons.models import DungeonCard, Room
from game import services
from game.engine.game import replay
from game.engine.stops import DEFAULT_STOPS, THEIR_TRIGGERS
from game.models import CompletedDungeon, Game, GameAction, Seat

from .helpers import (
    answer,
    make_player,
    option_id,
    passes,
    pending,
    position_text,
    start_from_text,
    start_game,
    start_position,
)
from .test_computer import END_STEP_POSITION

pytestmark = pytest.mark.django_db


def test_joining_starts_the_game_with_a_stored_setup(alice, bob):
    game = services.create_game(alice, deck_name="Varis", deck=["Forest"] * 40)
    assert game.status == Game.OPEN and game.setup is None

    services.join_game(game.pk, bob, deck_name="Swamps", deck=["Swamp"] * 40)
    game.refresh_from_db()

    assert game.status == Game.ACTIVE
    assert game.setup["players"] == ["alice", "bob"]
    assert game.setup["decks"] == {"alice": ["Forest"] * 40, "bob": ["Swamp"] * 40}
    names = [d["name"] for d in game.setup["dungeons"]]
    assert names[:3] == [
        "Tomb of Annihilation",
        "Lost Mine of Phandelver",
        "Dungeon of the Mad Mage",
    ]
    assert "Undercity" in names
    d = pending(game)
    # The coin flip's winner decides first (CR 103.1: play or draw); nothing passed yet.
    assert d.kind == "play_or_draw"
    assert game.version == 0
    assert game.setup["play_or_draw"] == "chosen" and services.engine_setup(game).play_or_draw
    # A game stored before the choice existed replays without it, as it was played.
    game.setup.pop("play_or_draw")
    assert not services.engine_setup(game).play_or_draw


def test_equal_display_names_get_unique_engine_names(alice):
    other = make_player("Alice2")
    other.display_name = "alice"
    other.save()
    game = start_game(alice, other)
    assert [s.engine_name for s in game.seats.all()] == ["alice", "alice (2)"]


def test_a_started_game_keeps_the_dungeons_it_copied(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    room = Room.objects.get(dungeon__name="Lost Mine of Phandelver", name="Cave Entrance")
    room.text = "Edited by an admin after the game started."
    room.save()

    stored = next(d for d in game.setup["dungeons"] if d["name"] == "Lost Mine of Phandelver")
    assert stored["rooms"][0]["text"] == "Scry 1."
    services.clear_engine_cache()
    with services.reading(game) as engine:
        assert engine.state.dungeons["Lost Mine of Phandelver"].rooms["Cave Entrance"].text == (
            "Scry 1."
        )
    # A new game copies the dungeon as it is now.
    assert (
        DungeonCard.objects.get(name="Lost Mine of Phandelver")
        .to_dict()["rooms"][0]["text"]
        .startswith("Edited")
    )


def test_a_scenario_position_maps_the_host_to_its_first_player(bob):
    host = make_player("Hostess")
    game = start_position(host, bob, "varis_fork.yaml")
    assert game.setup["players"] == ["Hostess", "bob"]
    # A game between people gets a fresh secret, a scenario-started one too (the file's
    # `seed: 4` is for `manage.py scenario`).
    assert game.setup["seed"].startswith("k256:") and game.setup["seed"] != 4
    with services.reading(game) as engine:
        view = engine.view_for("Hostess")
    assert view["turn"]["active"] == "Hostess"
    me = view["players"]["Hostess"]
    assert sorted(me["hand"]) == ["Gloom Stalker", "Keen-Eared Sentry"]
    assert "Varis, Silverymoon Ranger" in [p["name"] for p in me["battlefield"]]
    assert view["players"]["bob"]["hand"] is None
    assert view["players"]["bob"]["hand_count"] == 3


def test_a_bad_scenario_is_refused_with_its_line_number():
    text = position_text("varis_fork.yaml").replace("Gloom Stalker", "Gloom Stalkr")
    with pytest.raises(services.ActionRefused) as e:
        services.check_scenario(text, "report.yaml")
    assert "report.yaml:" in e.value.message
    assert "Gloom Stalkr" in e.value.message


def test_an_answer_is_applied_logged_and_replayable(alice, bob):
    bob.stops = sorted(DEFAULT_STOPS | {THEIR_TRIGGERS})  # Varis's trigger is a stop for him
    bob.save(update_fields=["stops"])
    game = start_position(alice, bob, "varis_fork.yaml")
    answer(game, alice, "cast Keen-Eared Sentry")

    # Varis's trigger resolved after both auto-passed (bob has no mana to spend): alice now
    # chooses a dungeon.
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "choose_dungeon")
    actions = list(game.actions.order_by("index"))
    assert actions[0].answer.startswith("cast:") and not actions[0].auto
    assert all(a.auto and a.answer == "pass" for a in actions[1:])
    assert game.version == len(actions)

    # Bob's pass on Varis's trigger is explained in the game's log (he has no mana to spend),
    # and a replay from the stored log writes the same line.
    with services.reading(game) as cached:
        cached_state = cached.state_json()
        answers = list(cached.answers)
    assert (
        "bob's priority is passed on Varis, Silverymoon Ranger's triggered ability: "
        "no untapped mana source (every card costs mana)"
    ) in cached_state["log"]
    services.clear_engine_cache()
    with services.reading(game) as replayed:
        assert replayed.state_json() == cached_state
    # The engine alone replays the same game from the answers; only the explanations, which
    # the answer rows carry (GameAction.note), are the services' to write.
    bare = replay(services.engine_setup(game), answers).state_json()
    assert [line for line in cached_state["log"] if "priority is passed" not in line] == bare["log"]
    assert {**bare, "log": None} == {**cached_state, "log": None}


# The computer's end-step position, with bob's mana tapped: nobody can do anything there.
NOTHING_TO_DO = END_STEP_POSITION.replace(
    "battlefield: [Mountain, Mountain, Mountain]", "battlefield: [{card: Mountain, tapped: true}]"
)
assert NOTHING_TO_DO != END_STEP_POSITION


@pytest.mark.parametrize("computer", [False, True], ids=["a person", "the computer"])
def test_a_pass_is_explained_in_the_log_for_a_person_not_for_the_computer(alice, bob, computer):
    """The line explaining an automatic pass is for a person wondering why they were not
    asked; the computer's were one line in six of a game's log (a playtest). Bob is stopped at
    Alice's end step (the computer's own stops; a person's, turned on here) with no mana to
    cast his Magic Missile: passed for him."""
    other = services.computer_player("medium") if computer else bob
    if not computer:
        bob.stops = sorted(DEFAULT_STOPS | {"theirs:end"})
        bob.save(update_fields=["stops"])
    game = start_from_text(alice, other, NOTHING_TO_DO, "nothing.yaml")
    with services.reading(game) as engine:
        assert engine.state.turn == 5  # alice's turn passed without a question
        log = list(engine.state.log)
    name = other.display_name
    explained = [line for line in log if line.startswith(f"{name}'s priority is passed")]
    if computer:
        assert explained == [], log
    else:
        assert explained == [
            f"{name}'s priority is passed in alice's end step: no untapped mana "
            "source (every card costs mana)"
        ], log


def test_refusals_change_nothing(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    cast = option_id(game, "cast Keen-Eared Sentry")
    v = game.version

    def refused(player, ans, version, code, action_id=""):
        with pytest.raises(services.ActionRefused) as e:
            services.submit_answer(game.pk, player, ans, version=version, action_id=action_id)
        assert e.value.code == code, e.value.message
        return e.value.message

    assert "alice's decision" in refused(bob, "pass", v, "not_yours")
    assert "newer than the game" in refused(alice, cast, v + 3, "stale")
    message = refused(alice, "cast:9999", v, "illegal")
    assert "Legal options:" in message and "cast Keen-Eared Sentry" in message
    stranger = make_player("carol")
    assert "watching" in refused(stranger, cast, v, "no_seat")
    game.refresh_from_db()
    assert game.version == v and not game.actions.exists()

    services.submit_answer(game.pk, alice, cast, version=v, action_id="click-1")
    game.refresh_from_db()
    after = game.version
    assert "already received" in refused(alice, cast, v, "repeat", action_id="click-1")
    # The same decision answered from another tab (its own action id, the same version).
    assert "You already answered" in refused(alice, cast, v, "already_answered", "tab-2")
    # The other player, acting on a view from before alice's answer.
    assert "already answered" in refused(bob, "pass", v, "already_answered", "bob-1")
    game.refresh_from_db()
    assert game.version == after
    assert GameAction.objects.filter(client_action_id="click-1").count() == 1


def test_the_group_hears_the_new_version_after_commit(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_position(alice, bob, "varis_fork.yaml")
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(game.group_name, channel)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        answer(game, alice, "cast Keen-Eared Sentry")
    assert layer.channels.get(channel) is None or layer.channels[channel].empty()  # not yet

    for callback in callbacks:
        callback()
    message = async_to_sync(layer.receive)(channel)
    game.refresh_from_db()
    assert message["type"] == "game.changed" and message["version"] == game.version
    # With the answers that made that version (the other process catches up from them).
    assert message["from"] + len(message["answers"]) == game.version
    assert message["answers"][0][0] == "alice"


def test_default_pace_passes_for_a_player_without_mana_to_spend(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    # Bob has no lands (public): nothing in a hand can be paid for, so every priority he gets
    # while alice's spell and trigger are on the stack is passed for him.
    answer(game, alice, "cast Keen-Eared Sentry")
    assert (pending(game).player, pending(game).kind) == ("alice", "choose_dungeon")
    auto = list(game.actions.filter(auto=True).select_related("seat"))
    assert any(a.seat.engine_name == "bob" for a in auto)


def start_with_a_swamp_for_bob(alice, bob):
    text = position_text("varis_fork.yaml").replace(
        "    library: [Shortcut Seeker,", "    battlefield: [Swamp]\n    library: [Shortcut Seeker,"
    )
    return start_from_text(alice, bob, text, "bob_has_a_swamp.yaml")


def test_default_pace_stops_a_player_with_cards_and_mana_whatever_the_cards(alice, bob):
    game = start_with_a_swamp_for_bob(alice, bob)
    game = answer(game, alice, "cast Keen-Eared Sentry")
    # Varis's trigger and the room's ability are alice's triggered abilities: not a stop for bob
    # by default (THEIR_TRIGGERS), so they resolve without asking him.
    assert (pending(game).player, pending(game).kind) == ("alice", "choose_dungeon")
    game = answer(game, alice, "Dungeon of the Mad Mage")
    # One Swamp casts none of bob's cards, but he holds cards and has mana: he is asked about
    # alice's spell all the same (stopping only when he could act would tell alice so).
    d = pending(game)
    assert (d.player, d.kind) == ("bob", "priority")
    assert [o.label for o in d.options if o.data != "mana"] == ["pass"]
    with services.reading(game) as engine:
        assert [s.label for s in engine.state.stack] == ["Keen-Eared Sentry"]
    # Alice's own priorities with her spell or triggers on top were passed for her.
    auto = list(game.actions.filter(auto=True).select_related("seat"))
    assert "alice" in {a.seat.engine_name for a in auto}
    game = passes(game, bob)
    assert pending(game).player == "alice"


def test_the_stop_on_the_opponents_triggers_is_the_players_setting_and_applies_at_once(alice, bob):
    game = start_with_a_swamp_for_bob(alice, bob)
    assert THEIR_TRIGGERS not in services.stops_of(game.seats.get(player=bob))
    services.set_stop(game.pk, bob, THEIR_TRIGGERS, True, action_id="t-1")
    bob.refresh_from_db()
    assert set(bob.stops) == DEFAULT_STOPS | {THEIR_TRIGGERS}  # the other defaults kept
    game = answer(game, alice, "cast Keen-Eared Sentry")
    # Varis's trigger (alice's) on top: bob, with cards and mana, is asked, and the pass button
    # says what passing does.
    d = pending(game)
    assert (d.player, d.kind) == ("bob", "priority")
    seat = game.seats.select_related("player").get(player=bob)
    with services.reading(game) as engine:
        where = services.pass_destination(engine, seat)
    assert where == "Resolve Varis, Silverymoon Ranger's triggered ability"
    # Turned off while he is asked there: passing goes on at once.
    services.set_stop(game.pk, bob, THEIR_TRIGGERS, False, action_id="t-2")
    assert (pending(game).player, pending(game).kind) == ("alice", "choose_dungeon")


def test_a_player_with_an_empty_hand_and_nothing_to_activate_is_passed_for(alice, bob):
    text = position_text("varis_fork.yaml").replace(
        "    hand: [Power Word Kill, Acererak the Archlich, Zombie Ogre]\n", "    hand: []\n"
    )
    game = start_from_text(alice, bob, text, "empty_hand.yaml")
    game = answer(game, alice, "cast Keen-Eared Sentry")
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "choose_dungeon")
    assert any(a.auto for a in game.actions.filter(seat__player=bob))


def test_full_control_stops_automatic_passes(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    services.set_pace(game.pk, bob, full_control=True)
    answer(game, alice, "cast Keen-Eared Sentry")
    d = pending(game)
    # With the trigger on the stack alice could only make mana, so she passed automatically;
    # bob, in full control, is asked even though passing is all he can do.
    assert (d.player, d.kind) == ("bob", "priority")
    assert [o.label for o in d.options] == ["pass"]
    assert Seat.objects.get(game=game, player=bob).full_control


def test_pass_until_my_next_turn(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    services.set_pace(game.pk, alice, pass_until=Seat.PASS_MY_TURN)
    game.refresh_from_db()
    d = pending(game)
    # Alice passes the rest of turn 3 (bob, without mana, is passed for); in his own turn 4
    # bob holds cards, so he is asked in his main phase.
    with services.reading(game) as engine:
        assert (engine.state.turn, engine.state.step) == (4, "precombat_main")
    assert (d.player, d.kind) == ("bob", "priority")
    assert Seat.objects.get(game=game, player=alice).pass_until == Seat.PASS_MY_TURN
    # Bob passes the turn away and alice is asked again in her own turn 5, where she can play.
    services.set_pace(game.pk, bob, pass_until=Seat.PASS_MY_TURN)
    game.refresh_from_db()
    with services.reading(game) as engine:
        assert engine.state.turn == 5 and engine.state.active == "alice"
    assert pending(game).player == "alice"
    assert Seat.objects.get(game=game, player=alice).pass_until == ""


def test_pass_until_something_happens_stops_when_a_spell_is_cast(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    services.set_pace(game.pk, bob, full_control=True, pass_until=Seat.PASS_SOMETHING)
    answer(game, alice, "cast Keen-Eared Sentry")
    d = pending(game)
    # The spell and Varis's trigger went on the stack: that is something, bob is asked.
    assert (d.player, d.kind) == ("bob", "priority")
    assert Seat.objects.get(game=game, player=bob).pass_until == ""


def test_pass_until_my_next_turn_passes_over_spells(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    services.set_pace(game.pk, bob, full_control=True, pass_until=Seat.PASS_MY_TURN)
    answer(game, alice, "cast Keen-Eared Sentry")
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "choose_dungeon")


def test_an_attack_for_lethal_ends_the_game(alice, bob):
    game = start_position(alice, bob, "lethal_attack.yaml")
    # Alice could only make mana in her main phase, so the pace feature went on to combat.
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "declare_attackers")
    answer(game, alice, ["Varis, Silverymoon Ranger"])
    assert game.status == Game.FINISHED
    assert (game.winner, game.end_reason) == ("alice", "life total 0 or less")


def test_completing_a_dungeon_is_recorded(alice, bob):
    text = position_text("varis_fork.yaml").replace(
        "    hand: [Keen-Eared Sentry, Gloom Stalker]\n",
        "    hand: [Keen-Eared Sentry, Gloom Stalker]\n"
        "    dungeon: {name: Lost Mine of Phandelver, room: Dark Pool}\n",
    )
    game = start_from_text(alice, bob, text, "almost_done.yaml")
    answer(game, alice, "cast Keen-Eared Sentry")
    # Venture: Dark Pool leads only to the Temple, so nothing is asked; the Temple's ability
    # resolves after both pass and the dungeon is completed (CR 704.5t).
    for _ in range(10):
        if CompletedDungeon.objects.exists():
            break
        d = pending(game)
        assert d.kind == "priority", d
        answer(game, alice if d.player == "alice" else bob, "pass")
    done = CompletedDungeon.objects.get()
    assert (done.player, done.game, done.dungeon, done.turn) == (
        alice,
        game,
        "Lost Mine of Phandelver",
        3,
    )


def test_concede_ends_the_game_and_rematch_is_an_offer_the_opponent_accepts(alice, bob):
    game = start_game(alice, bob)
    services.concede(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert game.winner == "alice" and game.end_reason
    assert game.actions.last().answer == "!concede"
    with pytest.raises(services.ActionRefused):
        services.concede(game.pk, alice)

    # Bob offers: nobody is seated anywhere yet; offering again changes nothing.
    assert services.rematch(game.pk, bob) == game
    assert services.rematch(game.pk, bob) == game
    assert not Game.objects.filter(rematch_of=game).exists()
    assert [s.rematch_offered for s in game.seats.order_by("position")] == [False, True]
    # Alice accepts: the rematch starts, and both are sent to the same one.
    first = services.rematch(game.pk, alice)
    second = services.rematch(game.pk, bob)
    assert first == second and first.rematch_of == game
    assert first.status == Game.ACTIVE and first.created_by == bob
    seats = list(first.seats.order_by("position"))
    assert [s.player for s in seats] == [alice, bob]
    assert seats[0].deck == list(game.seats.get(position=0).deck)


def test_a_rematch_offer_can_be_declined_or_withdrawn(alice, bob):
    carol = make_player("carol")
    game = start_game(alice, bob)
    with pytest.raises(services.ActionRefused) as e:
        services.rematch(game.pk, alice)
    assert e.value.code == "not_over"
    services.concede(game.pk, bob)
    services.rematch(game.pk, alice)
    with pytest.raises(services.ActionRefused):
        services.rematch(game.pk, carol)  # not seated: no offer, no acceptance
    services.decline_rematch(game.pk, bob)
    assert not any(s.rematch_offered for s in game.seats.all())
    # Declined: bob asking now is a new offer, not an acceptance.
    assert services.rematch(game.pk, bob) == game
    services.decline_rematch(game.pk, bob)  # and he may withdraw it
    assert not any(s.rematch_offered for s in game.seats.all())
    assert not Game.objects.filter(rematch_of=game).exists()


def test_joining_a_full_game_is_refused(alice, bob):
    game = start_game(alice, bob)
    with pytest.raises(services.ActionRefused) as e:
        services.join_game(game.pk, make_player("carol"), deck_name="x", deck=["Forest"] * 40)
    assert e.value.code == "full"
    assert services.join_game(game.pk, bob) == game  # a seated player re-joining is a no-op


def test_a_whole_game_through_the_services_replays_exactly(alice, bob):
    """Two random players answer through submit_answer (the pace feature passing for them)
    until the game ends; the stored log replays to the same final state."""
    import random

    from game.engine.bot import random_answer

    game = start_game(alice, bob, seed=7)  # the same game every run
    by_name = {s.engine_name: s.player for s in game.seats.all()}
    rng = random.Random(7)
    for step in range(3000):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        if step % 50 == 0:
            services.clear_engine_cache()  # some actions start from a replay
        d = pending(game)
        for _ in range(20):
            try:
                services.submit_answer(
                    game.pk, by_name[d.player], random_answer(d, rng), version=game.version
                )
                break
            except services.ActionRefused as e:
                assert e.code == "illegal", e.message
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner
    auto = game.actions.filter(auto=True).count()
    assert auto > game.actions.filter(auto=False).count()  # most passes were made for them
    with services.reading(game) as engine:
        final = engine.state_json()
    services.clear_engine_cache()
    with services.reading(game) as engine:
        assert engine.state_json() == final


def test_a_new_game_is_marked_as_numbering_its_position_in_seat_order(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    assert game.setup["position_ids"] == "seat"
    assert services.engine_setup(game).position_in_mapping_order is False
    # A game stored before the mark replays in its mapping's order, as it was played.
    del game.setup["position_ids"]
    assert services.engine_setup(game).position_in_mapping_order is True


def test_a_time_loss_is_logged_as_one_not_as_a_concession_and_replays_so(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    scenario = services.check_scenario(position_text("varis_fork.yaml"), "varis_fork.yaml")
    game = services.create_game(alice, scenario=scenario, clock_seconds=60)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    loser = game.deciding
    assert services.check_time(game.pk, at=timezone.now() + timedelta(hours=1))
    game.refresh_from_db()
    with services.reading(game) as engine:
        log = list(engine.state.log)
    assert f"{loser} ran out of time and loses the game" in log
    assert not any("concedes" in line for line in log)
    services.clear_engine_cache()
    with services.reading(game) as replayed:
        assert replayed.state.log == log


def test_stops_are_set_per_player_kept_for_their_next_game_and_checked(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    seat = game.seats.get(player=alice)
    assert services.stops_of(seat) == services.stops_of(game.seats.get(player=bob))
    assert "theirs:end" not in services.stops_of(seat)  # off by default
    services.set_stop(game.pk, alice, "theirs:end", True, action_id="stop-1")
    services.set_stop(game.pk, alice, "mine:postcombat_main", False, action_id="stop-2")
    alice.refresh_from_db()
    seat = game.seats.select_related("player").get(player=alice)
    assert "theirs:end" in services.stops_of(seat)
    assert "mine:postcombat_main" not in services.stops_of(seat)
    # Bob's are his own.
    assert "theirs:end" not in services.stops_of(game.seats.get(player=bob))
    # Kept for alice's next game.
    other = start_position(alice, make_player("carol"), "varis_fork.yaml")
    assert "theirs:end" in services.stops_of(other.seats.get(player=alice))
    # A step that is not a stop is refused and changes nothing.
    version = game.version
    with pytest.raises(services.ActionRefused) as e:
        services.set_stop(game.pk, alice, "mine:untap", True, action_id="stop-3")
    assert e.value.code == "bad_input" and "is not a stop" in e.value.message
    alice.refresh_from_db()
    assert "mine:untap" not in alice.stops
    game.refresh_from_db()
    assert game.version == version


def test_the_pass_button_names_its_destination_for_the_seat(alice, bob):
    game = start_position(alice, bob, "varis_fork.yaml")
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "priority")
    with services.reading(game) as engine:
        seat = game.seats.select_related("player").get(player=alice)
        assert services.pass_destination(engine, seat).startswith("To ")


QUIET_TURN = """
name: A quiet turn, both players holding an instant with the mana to cast it
seed: 8
players: [alice, bob]
turn: {number: 3, active: alice, step: upkeep}
setup:
  alice:
    hand: [Rally Maneuver]
    library: [Plains, Plains, Plains, Plains]
    battlefield: [Plains, Plains, Plains, Grizzled Outrider]
  bob:
    hand: [Power Word Kill]
    library: [Swamp, Swamp, Swamp, Swamp]
    battlefield: [Swamp, Swamp]
"""


@pytest.mark.parametrize("attack", [False, True])
def test_a_turn_where_nobody_acts_asks_the_active_player_a_few_times_and_the_other_never(
    alice, bob, attack
):
    # The measure: holding an instant does not stop you everywhere. Alice is asked in
    # her main phases and to declare attackers (and, attacking, once blocks are known); bob,
    # who is not attacked, is never asked.
    game = start_from_text(alice, bob, QUIET_TURN, "quiet.yaml")
    asked = {"alice": [], "bob": []}
    while (d := pending(game)) is not None and game.turn == 3:
        asked[d.player].append(d.kind)
        who = alice if d.player == "alice" else bob
        if d.kind == "declare_attackers":
            game = answer(game, who, ["Grizzled Outrider"] if attack else [])
        elif d.kind == "declare_blockers":
            game = answer(game, who, [])
        else:
            game = answer(game, who, "pass")
    # Attacking, she is not stopped once blocks are known: bob has no creature that could
    # block, so nothing has changed since her attack.
    assert asked["alice"] == ["priority", "declare_attackers", "priority"]
    # Attacked, bob is stopped on the attack, and not again in a declare blockers step where he
    # could block nothing.
    assert asked["bob"] == (["priority"] if attack else [])
