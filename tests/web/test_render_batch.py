"""game/board/batching.py: the pages of one game that ask for a render at the same moment
share
one read of the game, each still gets its own viewer's board, and a failure reaches them all."""

from __future__ import annotations

import asyncio
from unittest import mock

import pytest

from game import board
from game.board import batching
from game.models import Game

from .sockets import db, players_and_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _counting_loads():  # noqa: ANN202 - a mock.patch of board.load_board that counts
    real = board.load_board
    calls = []

    def load(game_id: int):  # noqa: ANN202
        calls.append(game_id)
        return real(game_id)

    return mock.patch.object(batching, "load_board", load), calls


def _render(game: Game, viewer, **kw):  # noqa: ANN001, ANN003, ANN202
    return batching.render(game.pk, viewer, whole=True, csrf_token="t", base_url="", **kw)


async def test_pages_asking_together_share_one_read_and_each_gets_its_own_view():
    alice, bob, game = await players_and_game()
    patch, loads = _counting_loads()
    with patch:
        mine, theirs, watching = await asyncio.gather(
            _render(game, alice), _render(game, bob), _render(game, None)
        )
    assert loads == [game.pk]  # one read for the three pages
    # Each page is its viewer's: alice's prompt and hand are hers alone.
    assert "cast Keen-Eared Sentry" in mine.board and "Gloom Stalker" in mine.board
    assert "cast Keen-Eared Sentry" not in theirs.board and "alice has priority" in theirs.board
    assert "Gloom Stalker" not in theirs.board and "Gloom Stalker" not in watching.board
    assert "Power Word Kill" not in mine.board

    # A page that asks once the pool has taken the waiting ones is rendered afresh.
    with patch:
        await _render(game, alice)
        await _render(game, bob)
    assert loads == [game.pk] * 3
    assert not batching._WAITING


async def test_a_failed_read_reaches_every_page_of_the_batch():
    alice, bob, game = await players_and_game()
    await db(Game.objects.filter(pk=game.pk).delete)()
    results = await asyncio.gather(_render(game, alice), _render(game, bob), return_exceptions=True)
    assert all(isinstance(r, Game.DoesNotExist) for r in results)
    assert not batching._WAITING


async def test_one_pages_failure_is_that_pages_alone():
    alice, bob, game = await players_and_game()
    real = board.render_board

    def render_board(game, viewer, **kw):  # noqa: ANN001, ANN003, ANN202
        if viewer == bob:
            raise RuntimeError("bob's render failed")
        return real(game, viewer, **kw)

    with mock.patch.object(batching, "render_board", render_board):
        mine, theirs = await asyncio.gather(
            _render(game, alice), _render(game, bob), return_exceptions=True
        )
    assert "Gloom Stalker" in mine.board
    assert isinstance(theirs, RuntimeError)


async def test_a_page_that_stops_waiting_does_not_hold_up_the_others():
    alice, bob, game = await players_and_game()
    first = asyncio.ensure_future(_render(game, alice))  # starts the batch
    second = asyncio.ensure_future(_render(game, bob))
    await asyncio.sleep(0)  # both requests are in the batch now
    first.cancel()  # alice's socket closed
    theirs = await second
    assert 'class="board' in theirs.board or 'id="board"' in theirs.board
    with pytest.raises(asyncio.CancelledError):
        await first
