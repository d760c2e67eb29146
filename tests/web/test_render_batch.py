"""game/board/batching.py: a player's page is read and rendered in a pool call of its own; the
spectator pages of one game that ask at the same moment share one read and one render, and a
failure reaches them all."""

from __future__ import annotations

import asyncio
from unittest import mock

import pytest

from game import board
from game.board import batching
from game.models import Game

from .sockets import db, players_and_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _counting_loads():
    real = board.load_board
    calls = []

    def load(game_id: int):
        calls.append(game_id)
        return real(game_id)

    return mock.patch.object(batching, "load_board", load), calls


def _render(game: Game, viewer, **kw):
    return batching.render(game.pk, viewer, whole=True, csrf_token="t", base_url="", **kw)


def _watch(game: Game, base_url: str = ""):
    return batching.render(
        game.pk, None, whole=True, csrf_token=None, base_url=base_url, shared=True
    )


async def test_each_players_page_is_its_own_and_the_spectators_share_one_read():
    alice, bob, game = await players_and_game()
    patch, loads = _counting_loads()
    with patch:
        mine, theirs, watching, also_watching = await asyncio.gather(
            _render(game, alice), _render(game, bob), _watch(game), _watch(game)
        )
    # One read for each player's page, one for the two spectator pages.
    assert loads == [game.pk] * 3
    # Each page is its viewer's: alice's prompt and hand are hers alone.
    assert "cast Keen-Eared Sentry" in mine.board and "Gloom Stalker" in mine.board
    assert "cast Keen-Eared Sentry" not in theirs.board and "alice has priority" in theirs.board
    assert "Gloom Stalker" not in theirs.board and "Gloom Stalker" not in watching.board
    assert "Power Word Kill" not in mine.board
    assert also_watching is watching  # one render for both spectators

    # A spectator page that asks once the pool has taken the waiting ones reads afresh.
    with patch:
        await _watch(game)
    assert loads == [game.pk] * 4
    assert not batching.SPECTATORS.waiting()


async def test_a_shared_render_is_made_for_no_viewer():
    alice, _, game = await players_and_game()
    with pytest.raises(ValueError):
        await _render(game, alice, shared=True)


async def test_a_failed_read_reaches_every_page():
    alice, bob, game = await players_and_game()
    await db(Game.objects.filter(pk=game.pk).delete)()
    results = await asyncio.gather(
        _render(game, alice),
        _render(game, bob),
        _watch(game),
        _watch(game),
        return_exceptions=True,
    )
    assert all(isinstance(r, Game.DoesNotExist) for r in results)
    assert not batching.SPECTATORS.waiting()


async def test_one_pages_failure_is_that_pages_alone():
    alice, bob, game = await players_and_game()
    real = board.render_board

    def render_board(game, viewer, **kw):
        if viewer == bob or kw.get("base_url") == "https://broken":
            raise RuntimeError("that render failed")
        return real(game, viewer, **kw)

    with mock.patch.object(batching, "render_board", render_board):
        mine, theirs, watching, broken = await asyncio.gather(
            _render(game, alice),
            _render(game, bob),
            _watch(game, "https://fine"),
            _watch(game, "https://broken"),
            return_exceptions=True,
        )
    assert "Gloom Stalker" in mine.board
    assert isinstance(theirs, RuntimeError)
    assert 'id="board"' in watching.board or 'class="board' in watching.board
    assert isinstance(broken, RuntimeError)


async def test_a_spectator_page_that_stops_waiting_does_not_hold_up_the_others():
    _, _, game = await players_and_game()
    first = asyncio.ensure_future(_watch(game, "https://a"))  # starts the batch
    second = asyncio.ensure_future(_watch(game, "https://b"))
    await asyncio.sleep(0)  # both requests are in the batch now
    first.cancel()  # that socket closed
    theirs = await second
    assert 'class="board' in theirs.board or 'id="board"' in theirs.board
    with pytest.raises(asyncio.CancelledError):
        await first
