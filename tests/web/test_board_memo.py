"""The fragments game.board renders once and reuses (MEMO_KEYS) are exactly what a fresh render
gives, at every step of random games, for both players: the memo keys hold everything those
partials read. A template that starts reading something new fails here, not on a page."""

from __future__ import annotations

import random

import pytest

from game import board, services
from game.engine.bot import random_answer

from .helpers import make_player, start_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2])
def test_memoised_fragments_equal_fresh_renders(seed):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob)
    rng = random.Random(seed)
    players = {s.engine_name: s.player for s in game.seats.select_related("player")}
    checked = 0
    for _ in range(150):
        game.refresh_from_db()
        for player in (alice, bob, None):
            ctx = board.board_context(game, player)
            ctx["csrf_token"] = ""
            for name in board.MEMO_KEYS:
                fresh = board._render(f"game/game.html#{name}", ctx)
                assert board.render_fragment(name, ctx) == fresh, (name, game.version)
                checked += 1
        with services.reading(game) as engine:
            d = engine.pending
            if d is None:
                break
            answer = random_answer(d, rng)
        try:
            services.submit_answer(game.pk, players[d.player], answer, version=game.version)
        except services.ActionRefused as e:
            assert e.code == "illegal", e.message
    assert checked > 300
