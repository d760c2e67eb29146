"""Takebacks (game/services/takeback.py, docs/rules-coverage.md "Takebacks"): a player asks to
take back their own last answer, the opponent accepts or declines, the asker may withdraw; never
across randomness or anything revealed, never after the opponent answered, at most
VENTURE_TAKEBACKS_PER_PLAYER asks a game. Every refusal is a sentence and changes nothing."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
import yaml
from django.test import Client
from django.utils import timezone

from game import services
from game.models import ActionReceipt, Game, GameAction, Seat, Takeback
from game.services import engines
from game.services.lifecycle import start_game
from tests.dungeon_samples import cellar

from .helpers import answer, make_player, pending, position_text, start_position

pytestmark = pytest.mark.django_db

TABLE = "takeback_table.yaml"


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


def view_of(game: Game, player) -> services.TakebackView:
    game.refresh_from_db()
    seats = _seats(game)
    seat = next(s for s in seats if s.player_id == player.pk)
    with services.reading(game) as engine:
        return services.takeback_view(game, seats, seat, engine)


def board(game: Game, name: str) -> dict:
    game.refresh_from_db()
    with services.reading(game) as engine:
        return engine.view_for(name)


def stored(game: Game) -> tuple:
    """Everything a refused takeback must leave as it was."""
    game.refresh_from_db()
    return (
        game.version,
        game.log_epoch,
        game.last_choice,
        list(GameAction.objects.filter(game=game).values_list("index", "answer")),
        list(Seat.objects.filter(game=game).values_list("takeback_to", "takebacks_asked")),
        Takeback.objects.filter(game=game).count(),
    )


def refused(game: Game, player, code: str = "takeback_refused", **kwargs) -> str:
    before = stored(game)
    receipts = ActionReceipt.objects.filter(game=game).count()
    with pytest.raises(services.ActionRefused) as e:
        services.ask_takeback(game.pk, player, version=game.version, action_id="x1", **kwargs)
    assert e.value.code == code
    assert stored(game) == before
    assert ActionReceipt.objects.filter(game=game).count() == receipts  # rolled back too
    return e.value.message


def ask(game: Game, player) -> Game:
    game.refresh_from_db()
    services.ask_takeback(game.pk, player, version=game.version)
    game.refresh_from_db()
    return game


def reply(game: Game, player, accept: bool) -> Game:
    game.refresh_from_db()
    services.reply_takeback(game.pk, player, accept=accept, version=game.version)
    game.refresh_from_db()
    return game


# allowed ---------------------------------------------------------------------------------------
def test_an_answer_that_starts_a_phase_is_named_by_its_own_line_not_the_heading(alice, bob):
    """A land played first thing in the second main phase writes the phase's heading, then
    "alice plays Forest": the request names the answer by the second."""
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "pass")  # her first main phase, the land kept
    while "play Forest" not in [o.label for o in pending(game).options]:
        d = pending(game)
        who = alice if d.player == "alice" else bob
        game = answer(game, who, [] if d.kind == "declare_attackers" else "pass")
    game = answer(game, alice, "play Forest")
    with services.reading(game) as engine:
        assert engine.state.log[-2:] == [
            "alice's second main phase, turn 5",
            "alice plays Forest (CR 305.1)",
        ]
    assert view_of(game, alice).what == "alice plays Forest"


def test_a_land_played_comes_back_to_hand_when_the_opponent_accepts(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    assert "Forest" not in board(game, "alice")["players"]["alice"]["hand"]
    assert view_of(game, alice).allowed and view_of(game, alice).what == "alice plays Forest"

    game = ask(game, alice)
    assert view_of(game, alice).mine == "alice plays Forest"
    assert view_of(game, bob).theirs == "alice plays Forest"
    assert view_of(game, alice).left == 2  # every ask counts

    game = reply(game, bob, accept=True)
    assert game.version == 0 and game.log_epoch == 1 and game.deciding == "alice"
    assert not GameAction.objects.filter(game=game).exists()
    seen = board(game, "alice")
    assert sorted(seen["players"]["alice"]["hand"]) == ["Dungeon Crawler", "Forest"]
    line = "alice asked to take back an answer (alice plays Forest); bob accepted"
    assert seen["log"][-1] == line and board(game, "bob")["log"][-1] == line
    d = pending(game)
    assert d.player == "alice" and "play Forest" in [o.label for o in d.options]
    row = Takeback.objects.get(game=game)
    assert (row.outcome, row.asked_at, row.log_version) == ("accepted", 1, 0)
    assert [r[0] for r in row.removed] == ["alice"]
    assert view_of(game, alice).mine == "" and view_of(game, bob).theirs == ""


def test_the_state_after_a_takeback_is_the_replay_of_the_log_as_after_a_restart(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    game = reply(ask(game, alice), bob, accept=True)
    game = answer(game, alice, "cast Dungeon Crawler")  # the game goes on from there
    live = board(game, None)
    services.clear_engine_cache()  # a restart: the next use replays setup + log + takebacks
    services.clear_timelines()
    assert board(game, None) == live
    # The replay shows the game as it was played after the takeback, and the line.
    tl = services.timeline(game, alice)
    assert tl.log(tl.last) == live["log"]
    assert "alice asked to take back an answer (alice plays Forest); bob accepted" in tl.log(0)


def test_an_attack_is_taken_back_while_the_defender_is_to_decide(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "pass")  # to combat
    game = answer(game, alice, ["Grizzled Outrider"])
    assert pending(game).player == "bob"  # stopped by the attack: he holds an instant
    game = reply(ask(game, alice), bob, accept=True)
    d = pending(game)
    assert (d.player, d.kind) == ("alice", "declare_attackers")
    assert board(game, None)["log"][-1].startswith(
        "alice asked to take back an answer (alice attacks bob with Grizzled Outrider"
    )
    # Bob's hand was never part of it: his page and the line name nothing of it.
    assert not any("Power Word Kill" in line for line in board(game, "alice")["log"])


def test_declined_or_withdrawn_changes_nothing_but_the_log(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    version = game.version
    game = reply(ask(game, alice), bob, accept=False)
    assert game.version == version and game.log_epoch == 1
    assert "Forest" not in board(game, "alice")["players"]["alice"]["hand"]
    assert board(game, "bob")["log"][-1] == (
        "alice asked to take back an answer (alice plays Forest); bob declined"
    )
    game = ask(game, alice)  # a second ask, withdrawn
    services.withdraw_takeback(game.pk, alice, version=game.version)
    game.refresh_from_db()
    assert board(game, "bob")["log"][-1] == (
        "alice asked to take back an answer (alice plays Forest), then withdrew the request"
    )
    assert view_of(game, alice).left == 1
    assert [t.outcome for t in Takeback.objects.filter(game=game)] == ["declined", "withdrawn"]
    services.clear_engine_cache()
    assert board(game, "bob")["log"][-2:] == [
        "alice asked to take back an answer (alice plays Forest); bob declined",
        "alice asked to take back an answer (alice plays Forest), then withdrew the request",
    ]


def test_lines_of_the_branch_taken_back_stay_in_the_log_before_the_acceptance(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    game = reply(ask(game, alice), bob, accept=False)
    game = reply(ask(game, alice), bob, accept=True)
    services.clear_engine_cache()
    assert board(game, None)["log"][-2:] == [
        "alice asked to take back an answer (alice plays Forest); bob declined",
        "alice asked to take back an answer (alice plays Forest); bob accepted",
    ]


def test_while_a_request_is_pending_the_game_waits_for_its_reply(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    game = ask(game, alice)
    d = pending(game)
    with pytest.raises(services.ActionRefused) as e:
        services.submit_answer(game.pk, alice, d.options[0].id, version=game.version)
    assert e.value.code == "takeback_pending" and "bob's reply" in e.value.message
    with pytest.raises(services.ActionRefused) as e:
        services.set_pace(game.pk, bob, pass_until="my_turn", version=game.version)
    assert e.value.code == "takeback_pending" and "accept or decline" in e.value.message
    assert "You asked already" in refused(game, alice)
    assert "bob's" not in refused(game, bob)  # bob can't ask while alice's is pending either
    with pytest.raises(services.ActionRefused) as e:
        services.reply_takeback(game.pk, alice, accept=True, version=game.version)
    assert e.value.code == "no_takeback"  # nobody answers their own request
    # A concession ends the game; the request lapses with it.
    services.concede(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert not Seat.objects.filter(game=game, takeback_to__isnull=False).exists()
    assert view_of(game, alice).mine == "" and view_of(game, bob).theirs == ""


# refused ---------------------------------------------------------------------------------------
def test_refused_after_the_opponent_answered(alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "cast Dungeon Crawler")
    assert pending(game).player == "bob"  # stopped: he holds an instant with the mana for it
    game = answer(game, bob, "pass")
    message = refused(game, alice)
    assert message == (
        "The last answer was bob's: only your own last answer can be taken back, before bob "
        "answers anything."
    )
    assert not view_of(game, alice).allowed and view_of(game, alice).why_not == message


def _after_bobs_draw(alice, bob) -> Game:
    """The table once alice's turn has ended on her own answers and bob's began with a draw."""
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    game = answer(game, alice, "pass")
    game = answer(game, alice, [])  # no attackers; the turn ends, bob's begins with a draw
    while pending(game).player == "alice":
        game = answer(game, alice, "pass")
    assert game.turn == 6 and pending(game).player == "bob"
    return game


def test_refused_after_a_draw(alice, bob):
    game = _after_bobs_draw(alice, bob)
    message = refused(game, alice)
    assert message == "Your last answer can't be taken back: since then a card left bob's library."
    assert view_of(game, alice).why_not == message and view_of(game, alice).what == ""


def test_only_the_opponent_may_reply_to_a_request_and_only_the_asker_withdraw_it(alice, bob):
    carol = make_player("carol")
    game = start_position(alice, bob, TABLE)
    game = ask(answer(game, alice, "play Forest"), alice)
    before = stored(game)
    forged = [
        # (who, what, code, sentence)
        (alice, "accept", "no_takeback", "There is no request to take back an answer to reply"),
        (alice, "decline", "no_takeback", "There is no request to take back an answer to reply"),
        (bob, "withdraw", "no_takeback", "You have no request to take back an answer to withdraw"),
        (carol, "accept", "no_seat", "You are watching this game; only its two players can act."),
        (None, "accept", "no_seat", "You are watching this game; only its two players can act."),
        (carol, "ask", "no_seat", "You are watching this game; only its two players can act."),
    ]
    calls = {
        "accept": lambda who, **kw: services.reply_takeback(game.pk, who, accept=True, **kw),
        "decline": lambda who, **kw: services.reply_takeback(game.pk, who, accept=False, **kw),
        "withdraw": lambda who, **kw: services.withdraw_takeback(game.pk, who, **kw),
        "ask": lambda who, **kw: services.ask_takeback(game.pk, who, **kw),
    }
    for n, (who, what, code, sentence) in enumerate(forged):
        with pytest.raises(services.ActionRefused) as e:
            calls[what](who, version=game.version, action_id=f"forged-{n}")
        assert (e.value.code, e.value.message[: len(sentence)]) == (code, sentence), (who, what)
        assert stored(game) == before  # the request still pending, nothing else moved
    assert view_of(game, bob).theirs == "alice plays Forest"
    game = reply(game, bob, accept=True)  # the one who may
    assert game.version == 0


def _shuffling_dungeon() -> dict:
    """The Test Cellar, whose last room shuffles its player's library."""
    dungeon = cellar()
    dungeon["name"] = "Shuffle Cellar"
    dungeon["rooms"][1]["text"] = dungeon["rooms"][2]["text"] = "Shuffle your library."
    dungeon["rooms"][1]["effect"] = dungeon["rooms"][2]["effect"] = [{"op": "shuffle"}]
    dungeon["rooms"][0]["text"] = "You gain 1 life."
    dungeon["rooms"][0]["effect"] = [{"op": "gain_life", "who": "you", "amount": 1}]
    return dungeon


def test_refused_after_a_shuffle_but_allowed_before_it(alice):
    # A practice game: the computer at Easy across, which accepts any takeback allowed, passes
    # for itself, and alice's own room abilities resolve without asking her.
    game = services.start_practice(alice, _shuffling_dungeon())
    map_1 = "activate Dungeon Map: {3}, {T} #1"
    game = answer(game, alice, map_1)  # into Stairs: alice gains 1 life
    assert board(game, None)["players"]["alice"]["life"] == 21
    game = ask(game, alice)  # nothing random: the Easy computer accepts at once
    assert game.version == 0 and pending(game).player == "alice"
    assert board(game, None)["players"]["alice"]["life"] == 20
    assert board(game, None)["log"][-1] == (
        "alice asked to take back an answer (alice activates Dungeon Map: {3}, {T}); "
        "Computer (Easy) accepted"
    )

    game = answer(game, alice, map_1)
    game = answer(game, alice, map_1)  # the next map (#1 of those untapped), to the fork
    game = answer(game, alice, "Left")  # a room that shuffles
    assert game.version > 2  # (the rooms resolved without asking)
    message = refused(game, alice)
    assert message == (
        "Your last answer can't be taken back: since then something random happened (a "
        "shuffle, a coin flip or a random choice)."
    )


def test_refused_beyond_the_limit(alice, bob, settings):
    settings.VENTURE_TAKEBACKS_PER_PLAYER = 2
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    game = reply(ask(game, alice), bob, accept=False)
    game = reply(ask(game, alice), bob, accept=False)
    assert view_of(game, alice).left == 0
    assert refused(game, alice) == "You asked 2 times in this game, the most allowed."
    settings.VENTURE_TAKEBACKS_PER_PLAYER = 0
    assert refused(game, bob) == "Takebacks are turned off on this server."


def test_refused_when_the_game_is_over_or_nothing_was_answered(alice, bob):
    game = start_position(alice, bob, TABLE)
    assert refused(game, alice) == "There is no answer of yours to take back yet."
    game = answer(game, alice, "play Forest")
    assert refused(game, bob).startswith("The last answer was alice's")
    services.concede(game.pk, bob)
    game.refresh_from_db()
    assert refused(game, alice, code="over") == "The game is over."


def test_no_time_is_given_back_and_a_clock_run_out_ends_the_game_first(alice, bob):
    start = timezone.now()
    scenario = services.check_scenario(position_text(TABLE), TABLE)
    game = services.create_game(alice, scenario=scenario, clock_seconds=60, clock_increment=2)
    services.join_game(game.pk, bob, at=start)
    game.refresh_from_db()
    d = pending(game)
    forest = next(o.id for o in d.options if o.label == "play Forest")
    services.submit_answer(
        game.pk, alice, forest, version=game.version, at=start + timedelta(seconds=10)
    )
    game.refresh_from_db()
    services.ask_takeback(game.pk, alice, version=game.version, at=start + timedelta(seconds=15))
    services.reply_takeback(
        game.pk, bob, accept=True, version=game.version, at=start + timedelta(seconds=20)
    )
    clocks = dict(Seat.objects.filter(game=game).values_list("engine_name", "clock_ms"))
    # Alice spent 10 s and earned 2; the 10 s since are spent too (hers ran: it was her
    # decision): nothing given back, nothing charged to bob.
    assert clocks == {"alice": 42_000, "bob": 60_000}
    game.refresh_from_db()
    assert game.deciding == "alice" and game.clock_since == start + timedelta(seconds=20)

    # Alice plays the land again, then lets her clock run out: the next action records the loss.
    services.submit_answer(
        game.pk, alice, forest, version=game.version, at=start + timedelta(seconds=21)
    )
    game.refresh_from_db()
    with pytest.raises(services.ActionRefused) as e:
        services.ask_takeback(
            game.pk, alice, version=game.version, at=start + timedelta(seconds=200)
        )
    assert e.value.message == "The game is over: alice ran out of time."
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert Takeback.objects.filter(game=game).count() == 1  # the one accepted before


def test_a_clock_at_zero_on_the_side_not_running_refuses(alice, bob):
    start = timezone.now()
    scenario = services.check_scenario(position_text(TABLE), TABLE)
    game = services.create_game(alice, scenario=scenario, clock_seconds=60)
    services.join_game(game.pk, bob, at=start)
    game = answer(game, alice, "play Forest")
    Seat.objects.filter(game=game, engine_name="bob").update(clock_ms=0)
    assert refused(game, alice) == "A clock has run out: nothing can be taken back."


# the computer ----------------------------------------------------------------------------------
def _against_computer(player, level: str) -> Game:
    """The takeback table with the computer of `level` in bob's seat."""
    text = position_text(TABLE)
    game = Game.objects.create(
        created_by=player, scenario_name=TABLE, scenario_text=text, dungeons=[]
    )
    Seat.objects.create(game=game, player=player, position=0)
    Seat.objects.create(game=game, player=services.computer_player(level), position=1)
    start_game(game, timezone.now())
    game.refresh_from_db()
    assert yaml.safe_load(text)["players"] == ["alice", "bob"]
    return game


def test_the_computer_declines_except_at_easy(db):
    for level, outcome in (("medium", "declined"), ("hard", "declined"), ("easy", "accepted")):
        alice = make_player(f"alice-{level}")
        game = _against_computer(alice, level)
        me = game.seats.get(player=alice).engine_name
        game = answer(game, alice, "play Forest")
        version = game.version
        game = ask(game, alice)  # the reply comes at once: no request is left pending
        assert not Seat.objects.filter(game=game, takeback_to__isnull=False).exists()
        them = game.seats.exclude(player=alice).get().engine_name
        assert board(game, me)["log"][-1] == (
            f"{me} asked to take back an answer ({me} plays Forest); {them} {outcome}"
        )
        assert game.version == (0 if outcome == "accepted" else version)


def test_the_computers_answer_thought_before_a_takeback_is_not_applied_after_it(alice):
    game = _against_computer(alice, "easy")
    game = answer(game, alice, "pass")
    game = answer(game, alice, ["Grizzled Outrider"])  # the computer is to decide
    turn = services.computer_turn(game.pk)
    assert turn is not None and turn.action_id == f"computer.{game.version}"
    game = ask(game, alice)  # Easy accepts: alice declares attackers again
    game = answer(game, alice, ["Grizzled Outrider"])
    assert game.version == turn.version  # the same version, another log
    late = services.computer_turn(game.pk)
    assert late.action_id == f"computer.1.{game.version}"
    assert not services.answer_for_computer(turn, "pass")  # refused as stale: nothing applied
    game.refresh_from_db()
    assert game.version == late.version
    assert services.answer_for_computer(late, "pass")


# hidden information ------------------------------------------------------------------------------
def test_a_hidden_choice_taken_back_is_named_only_in_public_words(alice, bob):
    game = start_position(alice, bob, "takeback_scry.yaml")
    game = answer(game, alice, "activate Dungeon Map: {3}, {T}")
    while pending(game).kind != "scry":
        d = pending(game)
        game = answer(game, alice if d.player == "alice" else bob, "Lost Mine of Phandelver")
    assert [o.label for o in pending(game).options] == ["Purple Worm"]
    # The look sealed everything before the scry's own answer (the dungeon chosen, the map).
    assert view_of(game, alice).why_not == (
        "Your last answer can't be taken back: since then alice looked at the top of their library."
    )
    game = answer(game, alice, [])  # Purple Worm stays on top: her secret
    assert view_of(game, alice).what == "alice scries 1: 1 on top, 0 on the bottom"
    game = ask(game, alice)
    assert "Purple Worm" not in repr(view_of(game, bob))
    game = reply(game, bob, accept=True)
    assert pending(game).kind == "scry"  # she chooses again, having learnt nothing new
    for seat in ("bob", None):
        assert "Purple Worm" not in repr(board(game, seat))
    assert board(game, "bob")["log"][-1] == (
        "alice asked to take back an answer (alice scries 1: 1 on top, 0 on the bottom); "
        "bob accepted"
    )
    # The activation and the dungeon chosen before the look stay sealed.
    game = answer(game, alice, [])
    game = reply(ask(game, alice), bob, accept=True)
    assert pending(game).kind == "scry"


# without JavaScript ------------------------------------------------------------------------------
def test_a_takeback_asked_and_accepted_by_plain_posts(client, alice, bob):
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    client.force_login(alice.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="takeback"' in page and "alice plays Forest · 3 left" in page
    fields = {"action": "takeback", "version": game.version, "action_id": "post-tb-1"}
    assert client.post(f"/g/{game.code}/act/", fields).status_code == 302
    page = client.get(game.get_absolute_url()).content.decode()
    assert "You asked bob to take back an answer" in page
    assert 'http-equiv="refresh"' in page  # waiting for bob's reply, it reloads itself

    client.force_login(bob.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "alice asks to take back an answer" in page and 'id="accept-takeback"' in page
    assert 'http-equiv="refresh"' not in page  # bob is to reply: no reload under his click
    fields = {"action": "accept_takeback", "version": game.version, "action_id": "post-tb-2"}
    client.post(f"/g/{game.code}/act/", fields)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "alice asked to take back an answer (alice plays Forest); bob accepted" in page
    game.refresh_from_db()
    assert game.version == 0
    replay = client.get(f"/g/{game.code}/replay/").content.decode()
    assert "alice asked to take back an answer (alice plays Forest); bob accepted" in replay
    # The same post again is a repeat, told and not applied.
    client.post(f"/g/{game.code}/act/", fields)
    assert (
        "already received and applied once" in client.get(game.get_absolute_url()).content.decode()
    )


def test_a_forged_takeback_post_after_a_draw_is_refused_on_the_page_and_changes_nothing(
    client, alice, bob
):
    game = _after_bobs_draw(alice, bob)
    client.force_login(alice.user)
    reason = "Your last answer can't be taken back: since then a card left bob's library."
    page = client.get(game.get_absolute_url()).content.decode()
    # The button is there, inert, with the reason beside it, and no form to send.
    button = re.search(r'<span class="inline takeback">(.*?)</span></span>', page, re.S)
    assert button is not None, "no inert takeback button"
    assert 'id="takeback" aria-disabled="true"' in button.group(1)
    assert html.unescape(button.group(1)).endswith(reason)
    assert 'name="action" value="takeback"' not in page
    before = stored(game)
    sentences = {
        "takeback": reason,
        "accept_takeback": "There is no request to take back an answer to reply to",
        "withdraw_takeback": "You have no request to take back an answer to withdraw",
    }
    for n, (action, sentence) in enumerate(sentences.items()):
        fields = {"action": action, "version": game.version, "action_id": f"post-forged-{n}"}
        response = client.post(f"/g/{game.code}/act/", fields, follow=True)
        assert response.redirect_chain == [(game.get_absolute_url(), 302)]
        assert sentence in html.unescape(response.content.decode()), action
        assert stored(game) == before
    # Someone not seated posts the same: refused, nothing changed.
    carol = Client()
    carol.force_login(make_player("carol").user)
    fields = {"action": "takeback", "version": game.version, "action_id": "post-forged-carol"}
    response = carol.post(f"/g/{game.code}/act/", fields, follow=True)
    assert "only its two players can act" in response.content.decode()
    assert stored(game) == before


def test_another_process_never_uses_its_engine_of_the_log_before_a_takeback(
    alice, bob, monkeypatch
):
    """A process that served the game before a takeback keeps an engine of the old log; once the
    game reaches the same version again with other answers, that engine must not be taken for
    the game's (the log epoch is in every cache's key)."""
    game = start_position(alice, bob, TABLE)
    game = answer(game, alice, "play Forest")
    other_process = engines.EngineCache()
    with monkeypatch.context() as m:
        m.setattr(engines, "CACHE", other_process)
        assert "play Forest" not in [o.label for o in pending(game).options]  # at version 1
    game = reply(ask(game, alice), bob, accept=True)
    game = answer(game, alice, "activate Swamp: {T}")  # version 1 again, another game
    assert game.version == 1
    here = board(game, None)
    assert here["players"]["alice"]["mana_pool"] == {"B": 1}
    with monkeypatch.context() as m:
        m.setattr(engines, "CACHE", other_process)
        assert "play Forest" in [o.label for o in pending(game).options]
        assert board(game, None) == here
