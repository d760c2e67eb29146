"""The chat rendered for one viewer: the blocks of `templates/jinja2/game/chat.html` from a
`services.chat.Panel`, each its own hx-swap-oob fragment, a new line as a fragment appended to
its room, and the chat of a replay point. What is in them is services/chat.py's to decide."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from markupsafe import Markup

from game import services
from game.runtime import templating

from . import memos
from .render import FreshActionId

# The blocks a consumer sends on their own (each the id of its root): the whole panel on
# (re)connect, the rooms when what the viewer reads changed, the quick buttons or the text form
# after they were sent (fresh action ids), the settings after a change.
PARTS = ("panel", "rooms", "say", "quick", "write", "settings")


def _template() -> Any:  # jinja2.Template
    return templating.board_environment().get_template("game/chat.html")


def _macros() -> Any:
    return templating.board_environment().get_template("game/_chat_macros.html").module


def _context(p: Any, code: str, csrf_token: str | None) -> dict[str, Any]:
    return {
        "p": p,
        "url": reverse("game_chat", args=[code]),
        "csrf": csrf_token or "",
        "ids": FreshActionId(),
        "cm": _macros(),
        "lines": None,
    }


def render_parts(
    panel: services.chat.Panel, parts: tuple[str, ...], *, code: str, csrf_token: str | None
) -> str:
    """The blocks `parts` (names of PARTS) of `panel`'s chat, joined: one websocket frame."""
    t = _template()
    ctx = t.new_context(_context(panel, code, csrf_token))
    return "".join("".join(t.blocks[name](ctx)) for name in parts)


def render_page_panel(panel: services.chat.Panel, *, code: str, csrf_token: str) -> Markup:
    """The whole panel inside the game page (the board's #chat)."""
    return Markup(render_parts(panel, ("panel",), code=code, csrf_token=csrf_token))


def render_line(line: services.chat.Line, viewer: services.chat.Viewer, *, code: str) -> str:
    """A new line for `viewer`'s page, appended to its room's list. It comes over the socket
    only, where its report button is sent over the socket too: no CSRF token in it. What it
    looks like depends on the line and on whether the viewer is a visitor, its author or
    another reader (memos.CHAT_LINES)."""
    if viewer.player_id is None:
        role = "visitor"
    elif viewer.player_id == line.author_id:
        role = "author"
    else:
        role = "reader"

    def make() -> str:
        t = _template()
        p = {"viewer": viewer, "reported": frozenset()}
        ctx = t.new_context({**_context(p, code, None), "l": line})
        return "".join(t.blocks["live_line"](ctx))

    return memos.CHAT_LINES.get_or_make((code, line, role), make)


def render_replay_chat(lines: tuple[services.chat.Line, ...] | None) -> Markup:
    """A replay point's chat (the players' room to that point) for one of the players; nothing
    for anyone else (lines is None)."""
    if lines is None:
        return Markup("")
    t = _template()
    ctx = t.new_context({"lines": lines})
    return Markup("".join(t.blocks["replay"](ctx)))
