"""The game websocket with two real communicators: sessions, fragments per seat, refusals,
presence, reconnects, and the hidden-information guarantee frame by frame."""

from __future__ import annotations

import asyncio
import re

import pytest

from .helpers import make_player, option_id, pending
from .helpers import passes as passes_for
from .sockets import Socket, answer, connect, db, passes, players_and_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

VERSION = re.compile(r'name="version" value="(\d+)"')


async def test_a_connection_gets_the_whole_board_for_its_seat():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    html = a.text
    assert 'id="board"' in html
    assert 'data-kind="priority"' in html  # alice's prompt
    assert "cast Keen-Eared Sentry" in html
    assert "Gloom Stalker" in html  # her own hand
    assert "Power Word Kill" not in html  # bob's hand
    await a.close()


async def test_an_action_updates_both_seats_and_the_opponent_sees_the_choice_named():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)

    await answer(a, game, "cast Keen-Eared Sentry")
    mine, theirs = await a.answered(game), await b.caught_up(game)

    # Alice chooses a dungeon on the three maps; bob is told what she is doing and sees the
    # same maps without buttons.
    assert 'data-kind="choose_dungeon"' in mine
    assert mine.count('class="map-button"') == 3
    assert "alice is choosing a dungeon" in theirs
    assert 'class="map-button"' not in theirs
    assert 'data-dungeon="Lost Mine of Phandelver"' in theirs
    # The stack was shown to both with Varis's trigger, then resolved.
    assert "Keen-Eared Sentry" in theirs

    await a.close()
    await b.close()


async def test_the_marker_and_the_fork_appear_on_both_pages():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)
    await answer(a, game, "cast Keen-Eared Sentry")
    await a.answered(game)
    await b.caught_up(game)
    await passes(b, game, "bob")
    await a.caught_up(game)
    await answer(a, game, "Lost Mine of Phandelver")
    await a.answered(game)
    theirs = await b.caught_up(game)
    assert 'data-room="Cave Entrance"' in theirs and "venture-marker" in theirs
    assert theirs.count('class="room reachable"') == 2  # the next rooms, highlighted

    await passes(b, game, "bob")  # Cave Entrance's ability on the stack
    await a.caught_up(game)
    # Cave Entrance: scry 1 (keep the card on top), then the Dungeon Map ventures to the fork.
    d = await db(pending)(game)
    assert d.kind == "scry"
    await db(game.refresh_from_db)()
    await a.send(action="answer", multi="1", version=str(game.version))
    await a.answered(game)
    await passes(b, game, "bob")  # the Sentry spell, still on the stack
    await a.caught_up(game)
    await answer(a, game, "activate Dungeon Map: {3}, {T}")
    mine = await a.answered(game)
    theirs = await b.caught_up(game) + await passes(b, game, "bob")  # the map's ability
    mine += await a.caught_up(game)
    assert 'data-kind="choose_room"' in mine
    assert mine.count('class="room reachable choice"') == 2
    assert "alice is choosing a room" in theirs
    assert 'class="room reachable choice"' not in b.text

    await answer(a, game, "Mine Tunnels")
    await a.answered(game)
    theirs = await b.caught_up(game)
    assert re.search(r'class="room current[^"]*" data-room="Mine Tunnels"', theirs)
    await a.close()
    await b.close()


async def test_bad_input_gets_a_clear_error_and_changes_nothing():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    version = game.version

    await a.comm.send_to(text_data="this is not json")
    assert "not understood" in await a.reply()
    await a.send(action="dance")
    assert "Unknown action" in await a.reply()
    await a.send(action="answer", option="cast:9999", version=str(version))
    reply = await a.reply()
    assert "is not an option" in reply and "Legal options:" in reply
    await a.send(action="answer", option="pass")
    assert "which version" in await a.reply()

    await db(game.refresh_from_db)()
    assert game.version == version
    await a.close()


async def test_stale_and_repeated_clicks_are_refused_visibly():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    oid = await db(option_id)(game, "cast Keen-Eared Sentry")
    await a.send(action="answer", option=oid, version=str(game.version), action_id="abc123")
    await a.answered(game)
    after = game.version

    await a.send(action="answer", option=oid, version="0", action_id="abc123")
    assert "already received" in await a.reply()
    await a.send(action="answer", option="pass", version="0", action_id="other")
    assert "You already answered that decision" in await a.reply()
    await db(game.refresh_from_db)()
    assert game.version == after
    await a.close()


async def test_the_other_seat_cannot_answer():
    alice, bob, game = await players_and_game()
    b = await connect(game, bob)
    await b.send(action="answer", option="pass", version=str(game.version))
    assert "It is alice&#x27;s decision" in await b.reply()
    await b.close()


async def test_presence_is_shown_to_the_other_seat():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    assert 'data-seat="bob"' in a.text
    assert re.search(r'seat-presence offline" data-seat="bob"', a.text)

    b = await connect(game, bob)
    await a.wait_for('seat-presence online" data-seat="bob"')
    await b.close()
    await a.wait_for('seat-presence offline" data-seat="bob"')
    await a.close()


async def test_a_reconnect_receives_the_current_view_with_the_prompt():
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    await answer(a, game, "cast Keen-Eared Sentry")
    await a.answered(game)
    await db(passes_for)(game, bob)
    await a.close()

    again = await connect(game, alice)
    assert 'id="board"' in again.text
    assert 'data-kind="choose_dungeon"' in again.text
    await db(game.refresh_from_db)()
    assert set(VERSION.findall(again.text)) == {str(game.version)}
    await again.close()


async def test_a_spectator_sees_no_hand():
    alice, bob, game = await players_and_game()
    carol = await db(make_player)("carol")
    c = await connect(game, carol)
    for secret in ("Gloom Stalker", "Keen-Eared Sentry", "Power Word Kill", "Zombie Ogre"):
        assert secret not in c.text
    assert "alice has priority" in c.text
    await c.close()


async def test_a_socket_without_a_session_is_a_spectator_and_cannot_act():
    alice, bob, game = await players_and_game()
    anon = await connect(game)
    await anon.send(action="answer", option="pass", version=str(game.version))
    assert "watching" in await anon.reply()
    await anon.close()


async def test_no_frame_to_a_seat_names_a_card_in_the_other_hand():
    """Record every frame each seat receives during a scripted game: no card name from the
    other player's hand or library appears in any of them (and each seat does see its own)."""
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)

    async def step(label, **kw):
        await answer(a, game, label, **kw)
        await a.answered(game)
        await b.caught_up(game)
        await passes(b, game, "bob")  # bob holds cards: asked about what alice put on the stack
        await a.caught_up(game)

    await step("cast Keen-Eared Sentry")
    await step("Lost Mine of Phandelver")
    await db(game.refresh_from_db)()
    await a.send(action="answer", multi="1", version=str(game.version))  # scry: keep on top
    await a.answered(game)
    await b.caught_up(game)
    await passes(b, game, "bob")
    await a.caught_up(game)
    await step("activate Dungeon Map: {3}, {T}")
    await step("Goblin Lair")
    # Alice passes the turn; bob draws and passes his turn.
    await db(game.refresh_from_db)()
    await a.send(action="pace", pass_until="my_turn", version=str(game.version))
    await a.answered(game)
    await b.caught_up(game)
    # Bob holds cards: he is asked in alice's end step and in his own main phase; he passes
    # his turn away too.
    for _ in range(2):
        await db(game.refresh_from_db)()
        await b.send(action="pace", pass_until="my_turn", version=str(game.version))
        await b.answered(game)
        await a.caught_up(game)
    await db(game.refresh_from_db)()
    assert game.version > 20
    d = await db(pending)(game)
    assert d.player == "alice"  # back to alice's turn 5

    bob_secrets = [
        "Power Word Kill",
        "Acererak the Archlich",
        "Zombie Ogre",
        "Shortcut Seeker",  # drawn by bob on turn 4
        "Clattering Skeletons",
        "Yuan-Ti Fang-Blade",
        "Dungeon Crawler",
    ]
    alice_secrets = ["Gloom Stalker"]
    assert len(a.frames) > 5 and len(b.frames) > 5
    for frame in a.frames:
        for name in bob_secrets:
            assert name not in frame, f"alice's socket received {name!r}"
    for frame in b.frames:
        for name in alice_secrets:
            assert name not in frame, f"bob's socket received {name!r}"
    # The test can fail: each seat's own frames do name its own cards.
    assert "Gloom Stalker" in a.text
    assert "Power Word Kill" in b.text and "Shortcut Seeker" in b.text
    await a.close()
    await b.close()


async def test_a_cancelled_game_tells_its_page_and_a_bad_code_is_refused():
    from game import services
    from game.decks import STARTER_DECKS

    alice = await db(make_player)("alice")
    deck = list(STARTER_DECKS["Varis (green-white)"])
    game = await db(services.create_game)(alice, deck_name="Varis", deck=deck)
    a = await connect(game, alice)
    assert "Waiting for an opponent" in a.text
    await db(services.cancel_game)(game.pk, alice)
    assert "no longer exists" in await a.comm.receive_from()
    # Closed with an application code, so the browser doesn't keep reconnecting.
    assert await a.comm.receive_output() == {"type": "websocket.close", "code": 4404}

    game.code = "nope"
    stranger = Socket(game)
    connected, _ = await stranger.comm.connect()
    assert connected
    assert "no longer exists" in await stranger.comm.receive_from()


async def test_presence_expires_when_a_server_dies_without_closing_its_sockets(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from game.models import Connection, Seat
    from game.runtime import heartbeats

    monkeypatch.setattr(heartbeats, "HEARTBEAT_SECONDS", 0.05)
    alice, bob, game = await players_and_game()
    seat = await db(Seat.objects.get)(game=game, player=bob)
    # A connection left behind by a crashed process: last seen long ago.
    old = timezone.now() - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS + 5)
    await db(Connection.objects.create)(seat=seat, channel_name="dead.channel", last_seen=old)

    a = await connect(game, alice)
    assert re.search(r'seat-presence offline" data-seat="bob"', a.text)
    assert re.search(r'seat-presence online" data-seat="alice"', a.text)
    # The heartbeat keeps alice's own connection fresh: a few beats pass.
    await asyncio.sleep(0.3)
    mine = await db(Connection.objects.exclude(channel_name="dead.channel").get)()
    assert timezone.now() - mine.last_seen < timedelta(seconds=1)
    await a.close()
    assert not await db(Connection.objects.exclude(channel_name="dead.channel").exists)()


async def test_a_beat_redraws_a_page_when_a_connection_expires_and_beats_once_for_all(
    monkeypatch,
):
    # One heartbeat per process (game/runtime/heartbeats.py): one pool call refreshes every socket's
    # row; a page whose game's presence changed (bob's connection of a dead server expired)
    # is redrawn, the others are not.
    from datetime import timedelta

    from django.utils import timezone

    from game import services
    from game.models import Connection, Seat
    from game.runtime import heartbeats

    calls = []
    real = services.viewers_alive

    def counted(names, games):
        calls.append((sorted(names), sorted(games)))
        return real(names, games)

    monkeypatch.setattr(services, "viewers_alive", counted)
    monkeypatch.setattr(heartbeats, "HEARTBEAT_SECONDS", 0.1)
    alice, bob, game = await players_and_game()
    seat = await db(Seat.objects.get)(game=game, player=bob)
    # bob's server died a moment before its row would have been refreshed.
    nearly = timezone.now() - timedelta(seconds=Connection.PRESENCE_TTL_SECONDS - 1)
    await db(Connection.objects.create)(seat=seat, channel_name="dead", last_seen=nearly)
    a = await connect(game, alice)
    spectator = await connect(game, None, path="watch/")
    assert re.search(r'seat-presence online" data-seat="bob"', a.text)
    assert re.search(r'seat-presence online" data-seat="bob"', spectator.text)
    # The dead connection expires within a second; the next beat redraws both pages.
    await a.wait_for('seat-presence offline" data-seat="bob"')
    await spectator.wait_for('seat-presence offline" data-seat="bob"')
    # Every beat was one call for both sockets: alice's row (the spectator has none).
    assert calls and all(c == calls[0] for c in calls)
    assert len(calls[0][0]) == 1 and calls[0][1] == [game.pk]
    mine = await db(Connection.objects.exclude(channel_name="dead").get)()
    assert calls[0][0] == [mine.channel_name]
    await a.close()
    await spectator.close()


async def test_beats_redraw_nothing_while_who_is_connected_stays_what_the_page_shows(
    monkeypatch,
):
    # The sockets of a process beat together: a beat that redrew every page on its first
    # beat would redraw them all at once.
    from game.board import batching
    from game.runtime import heartbeats

    monkeypatch.setattr(heartbeats, "HEARTBEAT_SECONDS", 1000)  # beats by hand below
    renders = []
    real = batching.render

    async def counted(*args, **kwargs):
        renders.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(batching, "render", counted)
    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)
    await a.wait_for('seat-presence online" data-seat="bob"')  # the redraw bob's arrival made
    before = len(renders)
    beat = heartbeats._BEATS[asyncio.get_running_loop()]
    async with asyncio.timeout(5):  # then it joins the beat
        while len(beat.members) < 2:
            await asyncio.sleep(0.01)
    for _ in range(3):
        await heartbeats.beat_once(beat)
        await asyncio.gather(*beat.redraws)
    assert len(renders) == before
    await a.close()
    await b.close()


async def test_the_change_message_carries_the_new_answers_and_the_consumer_keeps_them():
    # What a process behind the game catches up from (services.offer_answers).
    from game.services import engines

    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)
    before = game.version
    cast = await db(option_id)(game, "cast Keen-Eared Sentry")
    await answer(a, game, "cast Keen-Eared Sentry")
    await a.answered(game)
    await b.caught_up(game)
    start, answers = engines.offered(game.pk, game.code)
    assert start == before and start + len(answers) == game.version
    assert answers[0] == ("alice", cast, "")  # (who, answer, note)
    await a.close()
    await b.close()


async def test_a_stop_is_turned_on_and_off_by_a_socket_message_and_a_bad_one_is_refused():
    from game.models import Player

    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    await a.send(action="pace", stop="theirs:end", stop_on="on", version=str(game.version))
    await a.reply()
    stored = await db(lambda: Player.objects.get(pk=alice.pk).stops)()
    assert "theirs:end" in stored and "mine:precombat_main" in stored  # the defaults kept
    await a.send(action="pace", stop="theirs:end", stop_on="off", version="0")  # sets: any version
    await a.reply()
    assert "theirs:end" not in await db(lambda: Player.objects.get(pk=alice.pk).stops)()
    await a.send(action="pace", stop="theirs:cleanup", stop_on="on", version=str(game.version))
    assert "is not a stop" in await a.reply()
    await a.send(action="pace", stop="theirs:end", stop_on="maybe", version=str(game.version))
    assert "stop_on is on or off" in await a.reply()
    assert "theirs:end" not in await db(lambda: Player.objects.get(pk=alice.pk).stops)()
    # The stop on the opponent's triggers (the pace bar's toggle) goes the same way.
    await a.send(action="pace", stop="theirs:triggers", stop_on="on", version=str(game.version))
    await a.reply()
    assert "theirs:triggers" in await db(lambda: Player.objects.get(pk=alice.pk).stops)()
    await a.send(action="pace", stop="theirs:triggers", stop_on="off", version=str(game.version))
    await a.reply()
    assert "theirs:triggers" not in await db(lambda: Player.objects.get(pk=alice.pk).stops)()
    await a.close()


async def test_a_rematch_is_offered_and_accepted_by_socket_messages():
    from game.models import Game, Seat

    alice, bob, game = await players_and_game()
    a = await connect(game, alice)
    b = await connect(game, bob)
    await b.send(action="concede", version=str(game.version))
    await b.answered(game)
    await a.caught_up(game)
    await a.send(action="rematch", version=str(game.version))
    # Bob's page shows the offer once it is stored (a busy machine may take a while).
    await b.wait_for("offers a rematch")
    offered = await db(lambda: list(Seat.objects.filter(game=game, rematch_offered=True)))()
    assert [s.player_id for s in offered] == [alice.pk]
    assert not await db(Game.objects.filter(rematch_of=game).exists)()
    await b.send(action="rematch", version=str(game.version))
    # Both pages lead to the rematch.
    led = await a.wait_for('id="rematch-link"')
    rematch = await db(Game.objects.get)(rematch_of=game)
    assert rematch.status == Game.ACTIVE
    assert rematch.get_absolute_url() in led
    await a.close()
    await b.close()
