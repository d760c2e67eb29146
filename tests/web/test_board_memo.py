"""The fragments and pieces game.board renders once and reuses (MEMO_KEYS, _piece) are exactly
what a fresh render gives, at every step of random games, for both players: the memo keys hold
everything those partials read. A template that starts reading something new fails here, not on
a page."""

from __future__ import annotations

import random
import re

import pytest

from game import board, services
from game.engine.bot import random_answer

from .helpers import make_player, start_game

pytestmark = pytest.mark.django_db
SIDES = ("me", "opponent", "hand")
_ACTION_ID = re.compile(r'name="action_id" value="[0-9a-f]*"')


def _render_side(name, ctx):
    """A fragment with its forms' fresh action ids blanked (each render makes new ones)."""
    return _ACTION_ID.sub("", board.Blocks(ctx).render(name))


@pytest.mark.parametrize("seed", [1, 2])
def test_memoised_fragments_equal_fresh_renders(seed):
    alice, bob = make_player("alice"), make_player("bob")
    # The shuffle too: the checks below need a game that lasts, so the same game every run.
    game = start_game(alice, bob, seed=2000 + seed)
    rng = random.Random(seed)
    players = {s.engine_name: s.player for s in game.seats.select_related("player")}
    checked = pieces = 0
    for _ in range(150):
        game.refresh_from_db()
        for player in (alice, bob, None):
            ctx = board.with_forms(board.board_context(game, player), "")
            for name in board.MEMO_KEYS:
                fresh = board.Blocks(ctx).render(name)
                assert board.render_fragment(name, ctx) == fresh, (name, game.version)
                checked += 1
            # Permanents and hand cards come pre-rendered from the memo (board._piece); with
            # the pieces taken away the templates render them in place: the same HTML.
            pieced = {name: _render_side(name, ctx) for name in SIDES}
            for side in ctx["sides_top_bottom"]:
                for item in side.creatures + side.others + side.lands + side.hand:
                    pieces += bool(item["html"])
                    item["html"] = ""
            for name in SIDES:
                assert pieced[name] == _render_side(name, ctx), name
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
    assert pieces > 1000
