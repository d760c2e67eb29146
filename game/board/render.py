"""The board rendered for one viewer: each block of `templates/jinja2/game/board.html` (Jinja2:
game/runtime/templating.py) from the view-model, the fragments the consumer sends over the
websocket (`hx-swap-oob`), and the whole board the page view embeds.

What is the same for every viewer and version is rendered once per distinct content and reused
(memos.FRAGMENTS by MEMO_KEYS, memos.PIECES by a permanent's or card's key); everything that
carries the viewer's forms is rendered for them alone.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from markupsafe import Markup

from dungeons.mapdraw import map_macro
from game.models import Game, Player, Seat
from game.runtime import templating

from . import memos
from .build import board_view
from .viewmodel import HandCard, Permanent

# The blocks of templates/jinja2/game/board.html that make up the live board, each the id of its
# root.
FRAGMENTS = (
    "topbar",
    "opponent",
    "me",
    "hand",
    "stack",
    "maps",
    "prompt",
    "pace",
    "log",
    "logarchive",
    "over",
    "training",
)


class Rendered(NamedTuple):
    """One viewer's board: the whole of it (when asked for, or while the game waits for its
    second player), each live partial by name, when the server must redraw it (seconds), the
    seats it shows as connected (a heartbeat redraws it when that changed), and whether the
    game is over (the players' chat then opens the spectators' room to them)."""

    board: str | None
    fragments: dict[str, str]
    wake_in: float | None
    online: frozenset[int]
    over: bool = False


def board_context(
    game: Game, viewer: Player | None, *, base_url: str = "", seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The template context of the game page for `viewer` (build.board_view's arguments): the
    view-model's fields, to which the page views add their own."""
    return board_view(game, viewer, base_url=base_url, seats=seats).context()


def render_board(
    game: Game,
    viewer: Player | None,
    *,
    whole: bool,
    csrf_token: str | None = None,
    base_url: str = "",
    seats: list[Seat] | None = None,
) -> Rendered:
    """The board for `viewer` alone. `csrf_token` is the viewer's CSRF cookie, so plain-POST
    forms (rematch, cancel) in fragments work too."""
    ctx = with_forms(board_context(game, viewer, base_url=base_url, seats=seats), csrf_token)
    blocks = Blocks(ctx)
    if ctx["waiting_for_opponent"]:
        return Rendered(blocks.render("board"), {}, None, ctx["online"])
    fragments = {name: render_fragment(name, ctx, blocks) for name in FRAGMENTS}
    whole_board = blocks.render("board") if whole else None
    over = game.status == Game.FINISHED
    return Rendered(whole_board, fragments, ctx["wake_in"], ctx["online"], over)


def render_page_board(ctx: dict[str, Any], csrf_token: str) -> Markup:
    """The whole board inside the game page (templates/game/game.html embeds it)."""
    return Markup(Blocks(with_forms(ctx, csrf_token)).render("board"))


def with_forms(ctx: dict[str, Any], csrf_token: str | None) -> dict[str, Any]:
    """`ctx` with what the board template needs besides the game: the forms' data (`f`), the
    macros (`m`), the map drawing (`draw_map`) and the memoised pieces (`piece`)."""
    m = macros()
    ctx["f"] = FormData(ctx["urls"].act, ctx["version"], csrf_token or "", m)
    ctx["m"] = m
    ctx["draw_map"] = map_macro()
    ctx["piece"] = piece
    return ctx


def macros() -> Any:  # the macros of game/_macros.html, as a module (the environment caches it)
    return templating.board_environment().get_template("game/_macros.html").module


def _template() -> Any:  # jinja2.Template
    return templating.board_environment().get_template("game/board.html")


class Blocks:
    """One viewer's context bound to the board template once, each block rendered from it
    (Jinja2 renders a block alone from a context: how the fragments are made)."""

    def __init__(self, ctx: dict[str, Any]) -> None:
        self.template = _template()
        self.context = self.template.new_context(ctx)

    def render(self, name: str) -> str:
        return "".join(self.template.blocks[name](self.context))


# forms -------------------------------------------------------------------------------------------
class FreshActionId:
    """A new id each time it is written, so every form on the page carries its own. The server
    applies an id once (game.services), so a double click or a resent message is refused, while
    two different forms never collide.

    A render draws one random prefix (64 bits from `secrets`) and numbers its forms after it:
    as unique as a random id per form, without a system call for each of the dozens of forms
    of a board (they showed in the server's profile)."""

    def __init__(self) -> None:
        self.prefix = secrets.token_hex(8)
        self.count = itertools.count()

    def __str__(self) -> str:
        return f"{self.prefix}{next(self.count):x}"


# Stands for the action id while the hidden fields are rendered once per render: what is around
# it is kept, and each form gets a fresh id in its place. (Hex digits: nothing to escape.)
_ID_SLOT = "0action0id0"


@dataclass
class FormData:
    """What every in-game form of one viewer's render carries (the templates' `f`): where it
    posts without JavaScript, the version it was rendered at, a fresh action id each time
    `f.fields()` is written, and the viewer's CSRF field for those plain posts.

    The hidden fields are the macros `csrf_field` and `form_fields` of game/_macros.html,
    rendered once per render and written by every form: a priority prompt has a dozen forms,
    and a macro call per form costs more than the form itself."""

    act_url: str
    version: int | None
    csrf_token: str
    macros: Any = field(repr=False)  # game/_macros.html's module
    action_id: FreshActionId = field(default_factory=FreshActionId, repr=False)
    csrf: Markup = field(init=False, repr=False)
    _around_id: tuple[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.csrf = self.macros.csrf_field(self.csrf_token) if self.csrf_token else Markup("")
        before, _, after = str(self.macros.form_fields(self.version, _ID_SLOT)).partition(_ID_SLOT)
        self._around_id = (before, after)

    def fields(self) -> Markup:
        """The form's version and a fresh action id."""
        before, after = self._around_id
        return Markup(f"{before}{self.action_id}{after}")


# memoised HTML -----------------------------------------------------------------------------------
# Fragments that are a function of a few plain values are rendered once per distinct value and
# reused, for both players and every later version while the values stay the same. The key must
# hold everything the block reads; tests/web/test_board_memo.py renders both ways through random
# games to keep it honest.
def _maps_key(ctx: dict[str, Any]) -> Any:
    return (
        ctx["game"].pk,
        ctx["game"].code,
        tuple(
            (side.name, side.display_name, side.dungeon, side.completed)
            for side in ctx["sides_top_bottom"]
        ),
    )


def _log_key(ctx: dict[str, Any]) -> Any:
    # Each line's hash is cached by its str; the players say which lines are headings.
    return (ctx["log_total"], ctx["log_lines"], ctx["log_players"])


def _log_archive_key(ctx: dict[str, Any]) -> Any:
    return (ctx["log_archive_lines"], ctx["log_players"])


MEMO_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "maps": _maps_key,
    "log": _log_key,
    "logarchive": _log_archive_key,
}


def render_fragment(name: str, ctx: dict[str, Any], blocks: Blocks | None = None) -> str:
    """One block of game/board.html for the context of one viewer (`with_forms` applied)."""
    blocks = blocks or Blocks(ctx)
    key_of = MEMO_KEYS.get(name)
    if key_of is None:
        return blocks.render(name)
    return memos.FRAGMENTS.get_or_make((name, key_of(ctx)), lambda: blocks.render(name))


def piece(macro: str, item: Permanent | HandCard) -> Markup:
    """A piece of a fragment (a permanent, a card in hand) that reads only `item` and is
    determined by its key: rendered once per distinct key, for every viewer and version. Only
    pieces without the viewer's buttons have a key (those carry the version and a fresh action
    id). tests/web/test_board_memo.py compares with fresh renders through random games."""
    assert item.key is not None
    html = memos.PIECES.get_or_make(
        (macro, item.key), lambda: str(getattr(macros(), macro)(item, None))
    )
    return Markup(html)
