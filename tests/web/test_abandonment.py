"""Abandonment and the chess clock through the real consumers: the pages are redrawn by the
server when time alone changes them (a countdown starts or ends, a clock reaches zero). The
durations are settings, made short here; test_reliability covers the same rules with injected
time."""

from __future__ import annotations

import pytest

from game import services
from game.models import Game

from .helpers import make_player, position_text
from .sockets import connect, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def clocked(alice, bob, seconds: int) -> Game:
    scenario = services.check_scenario(position_text("varis_fork.yaml"), "varis_fork.yaml")
    game = services.create_game(alice, scenario=scenario, clock_seconds=seconds)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


async def test_the_opponent_sees_a_countdown_then_claims_the_win(settings):
    settings.VENTURE_ABSENCE_GRACE_SECONDS = 1.0
    settings.VENTURE_ABANDON_SECONDS = 2.0
    alice = await db(make_player)("alice")
    bob = await db(make_player)("bob")
    scenario = await db(services.check_scenario)(
        await db(position_text)("varis_fork.yaml"), "varis_fork.yaml"
    )
    game = await db(services.create_game)(alice, scenario=scenario)
    await db(services.join_game)(game.pk, bob)
    a = await connect(game, alice)
    b = await connect(game, bob)
    spectator = await connect(game, await db(make_player)("carol"))
    assert 'class="absence"' not in a.text

    await b.close()
    # A short absence is not announced; after the grace period the countdown is pushed.
    # Quiet on purpose: nothing is announced within the grace period.
    assert 'class="absence"' not in await a.drain(0.1)
    notice = await a.wait_for("data-countdown")
    assert "bob is disconnected" in notice and "then you may claim the win" in notice
    assert "bob is disconnected" in await spectator.wait_for("data-countdown")
    # When the countdown ends the server redraws: the claim is offered to alice only.
    await a.wait_for('id="claim-win"')
    # What the spectator is sent meanwhile offers no claim (quiet: nothing is awaited).
    assert 'id="claim-win"' not in await spectator.drain(0.3)

    await db(game.refresh_from_db)()
    await a.send(action="claim", version=str(game.version))
    over = await a.wait_for("over-headline")
    assert "alice wins" in over and "bob left the game; alice claimed the win" in over
    assert "bob left the game; alice claimed the win" in await spectator.wait_for("over-headline")
    await db(game.refresh_from_db)()
    assert (game.status, game.winner) == (Game.FINISHED, "alice")
    await a.close()
    await spectator.close()


async def test_a_player_who_comes_back_in_time_ends_the_countdown(settings):
    settings.VENTURE_ABSENCE_GRACE_SECONDS = 0.1
    settings.VENTURE_ABANDON_SECONDS = 30
    alice = await db(make_player)("alice")
    bob = await db(make_player)("bob")
    game = await db(clocked)(alice, bob, 600)
    a = await connect(game, alice)
    b = await connect(game, bob)
    await b.close()
    await a.wait_for("bob is disconnected")
    b = await connect(game, bob)
    back = await a.wait_for('seat-presence online" data-seat="bob"')
    assert 'class="absence"' not in back
    await db(game.refresh_from_db)()
    await a.send(action="claim", version=str(game.version))
    assert "bob is connected" in await a.reply()
    await a.close()
    await b.close()


async def test_a_clock_at_zero_loses_without_anyone_acting():
    alice = await db(make_player)("alice")
    bob = await db(make_player)("bob")
    game = await db(clocked)(alice, bob, 1)
    a = await connect(game, alice)
    b = await connect(game, bob)
    assert 'class="clock running' in a.text and 'data-clock="alice"' in a.text
    # Alice must decide and does nothing: no default choice is made for her; her clock ends it.
    over = await b.wait_for("over-headline")
    assert "bob wins" in over and "alice ran out of time" in over
    assert "alice ran out of time" in await a.wait_for("over-headline")
    manual = await db(game.actions.filter(auto=False, note="").count)()
    assert manual == 0
    last = await db(lambda: game.actions.order_by("index").last())()
    assert (last.answer, last.note) == ("!concede", "time")
    await a.close()
    await b.close()
