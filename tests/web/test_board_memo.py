"""The fragments and pieces game.board renders once and reuses (render.MEMO_KEYS, render.piece)
are exactly what a fresh render gives, at every step of random games, for both players and a
spectator: the memo keys hold everything those partials read. A template that starts reading
something new fails here, not on a page."""

from __future__ import annotations

import random
import re

import pytest
from markupsafe import Markup

from game import board, services
from game.engine.bot import random_answer
from tests.sizes import sized

from .helpers import make_player, start_game

pytestmark = pytest.mark.django_db
SIDES = ("me", "opponent", "hand")
_ACTION_ID = re.compile(r'name="action_id" value="[0-9a-f]*"')
STEPS = sized(small=50, full=150)


def _render_side(name, ctx):
    """A fragment with its forms' fresh action ids blanked (each render makes new ones)."""
    return _ACTION_ID.sub("", board.Blocks(ctx).render(name))


def _fresh_piece(macro, item):
    """What board.piece gives, rendered now instead of taken from the memo."""
    return Markup(str(getattr(board.macros(), macro)(item, None)))


@pytest.mark.parametrize("seed", [1, 2])
def test_memoised_fragments_equal_fresh_renders(seed):
    alice, bob = make_player("alice"), make_player("bob")
    # The shuffle too: the checks below need a game that lasts, so the same game every run.
    game = start_game(alice, bob, seed=2000 + seed)
    rng = random.Random(seed)
    players = {s.engine_name: s.player for s in game.seats.select_related("player")}
    checked = pieces = 0
    for _ in range(STEPS):
        game.refresh_from_db()
        for player in (alice, bob, None):
            ctx = board.with_forms(board.board_context(game, player), "")
            for name in board.MEMO_KEYS:
                fresh = board.Blocks(ctx).render(name)
                assert board.render_fragment(name, ctx) == fresh, (name, game.version)
                checked += 1
            # Permanents and hand cards without buttons come from the memo (board.piece); with
            # a piece that renders in place instead, the same HTML.
            pieced = {name: _render_side(name, ctx) for name in SIDES}
            for side in ctx["sides_top_bottom"]:
                pieces += sum(
                    item.key is not None
                    for item in side.creatures + side.others + side.lands + side.hand
                )
            ctx["piece"] = _fresh_piece
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
    assert checked > 2 * STEPS
    assert pieces > 6 * STEPS


def test_the_view_model_is_frozen_and_sets_nothing_on_the_models():
    """The board is values: a render shares card info, steps and log lines with other renders,
    so none of them can be changed, and the seats read from the database are left as read."""
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob, seed=2001)
    loaded, seats = board.load_board(game.pk)
    before = [dict(vars(s)) for s in seats]
    view = board.board_view(loaded, alice, seats=seats)
    assert [dict(vars(s)) for s in seats] == before
    side = view.bottom
    assert side is not None and side.is_viewer and view.my_seat is not None
    with pytest.raises(AttributeError):
        side.life = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.seats[0].connected = True  # type: ignore[misc]
    assert isinstance(side.hand, tuple) and isinstance(view.seats, tuple)
