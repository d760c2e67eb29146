"""The game's websocket: transport only (docs/architecture.md, "The web app").

One consumer per connection, one channel group per game. A consumer authenticates the viewer
(the session, read just after the handshake), parses what the browser sends, calls `game.services`
and sends fragments rendered for its own viewer. The group only ever carries
`{"type": "game.changed", "version": N}`, with the answers that made version N when an action
did (`from`, `answers`: the log's new entries, which the process catches its engine up from and
which no consumer sends on): every consumer renders its own seat's view, so no rendered hand
ever travels through the channel layer.

Each partial is sent only when it differs from what this connection last received (the random
action ids inside forms and the time left on a running countdown don't count as a difference),
and all of them on (re)connect.

Everything a socket sends is untrusted (docs/security.md): a message must be text, at most
VENTURE_WS_MAX_MESSAGE_BYTES, a JSON object of known fields; each connection may send
VENTURE_WS_RATE_PER_SECOND messages a second (bursts of VENTURE_WS_BURST). Whatever is refused
is answered with a sentence in #flash and changes nothing; the connection stays open.

The watch URL (`/ws/game/<code>/watch/`) always serves the spectator's view: both boards, no
hand, no prompt, and nothing it sends can act.

A spectator costs next to nothing (docs/security.md, "Per client"): a socket known at connect
time not to hold a seat (the watch URL, an anonymous viewer, someone not seated in a game that
has both its players) has what it sends refused here, with the services' own sentence, without
the database; and its board is the one spectator render of that game's state that all the
spectator sockets of the process share (game/board/batching.py). One client's share of a
process is bounded: sockets per session and per address (VENTURE_WS_SOCKETS_PER_SESSION,
_PER_ADDRESS; more are closed with TOO_MANY_SOCKETS and a sentence), and messages through a
token bucket per session and one per address on top of the connection's
(VENTURE_WS_SESSION_RATE, _ADDRESS_RATE).

Absolute links (the invite, the watch link) use the Host the handshake was checked against
(game/routing.py refuses a Host outside ALLOWED_HOSTS, as HTTP does) and the scheme the browser
used: the proxy's X-Forwarded-Proto when SECURE_PROXY_SSL_HEADER says a proxy terminates TLS.

The database work and the renders run on a pool of VENTURE_DB_THREADS threads
(game/runtime/dbpool.py, `in_pool`), not on Channels' one thread per process: with PostgreSQL
much of an answer or a render is waiting for the database, and on one thread every socket of the
process queued behind those waits. For the same reason messages reach their handlers without
Channels' connection tidying before each (a hop to that thread; game/runtime/dispatch.py): no
handler here uses the database but through the pool, which tidies its own threads'
connections. A player's page is read and rendered in a pool call of its own; the spectator pages
of a game that ask at the same moment share one pool call, one read and one render
(game/board/batching.py).

A page is also redrawn when time alone changes it: a disconnected opponent's countdown ends, or
the deciding player's chess clock reaches zero (then the time loss is recorded first).

The chat (services/chat.py) rides on the same socket. Its viewer is the session's player on any
URL (a seated player on the watch link is still a player: the spectators' room stays closed to
them while the game runs). A chat form (`forms.chat.parse_chat`) is carried out by
`services.chat.perform`, from spectators' sockets too, under the chat's own rate limit. New lines
come from the room's channel group as plain data (the players' room only to seated viewers'
sockets, `chat.room_group`), and each socket sends one on only if `chat.shows` says its viewer
sees it; the whole panel follows every whole board (its #chat is kept by htmx, hx-preserve).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from types import SimpleNamespace
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.utils.html import escape

from . import board, services
from .board import batching
from .forms.actions import BadAction, parse_action
from .forms.chat import ChatInput, is_chat, parse_chat
from .models import Game, Player
from .runtime import heartbeats
from .runtime.dbpool import in_pool
from .runtime.dispatch import DirectDispatch
from .socket_clients import Client, RateLimit, join_clients, leave_clients, page_origin

log = logging.getLogger(__name__)
_ACTION_ID = re.compile(r'name="action_id" value="[0-9a-f]*"')
# A countdown's time left and its face: they differ on every render while it runs, and the page
# ticks them itself, so they alone are no reason to resend a fragment.
# (Two patterns with literal starts, searched only when present: this runs on the event loop for
# every fragment of every render, and one alternation with a lookbehind cost 10x as much.)
_TICK_MS = re.compile(r'data-ms="\d*"')
_TICK_FACE = re.compile(r"data-countdown([^>]*>)[^<]*")

# Close codes (4000-4999 are the application's own; the htmx ws extension retries none of them).
NO_SUCH_GAME = 4404
TOO_MANY_SOCKETS = 4429

# What game.services answers anyone not seated who tries to act ("no_seat"); a spectator's
# socket is told the same without asking them (tests/web/test_client_limits.py holds the two
# equal).
WATCHING = "You are watching this game; only its two players can act."
SLOW_DOWN = "Too many messages: slow down. What you sent just now was not applied."


def _steady(html: str) -> str:
    html = _ACTION_ID.sub("", html)
    if "data-ms" in html:
        html = _TICK_MS.sub("", html)
    if "data-countdown" in html:
        html = _TICK_FACE.sub(r"data-countdown\1", html)
    return html


# DirectDispatch: no connection tidying on Channels' database thread before every message
# (game/runtime/dispatch.py); nothing here uses the database but through the pool.
class GameConsumer(DirectDispatch, AsyncWebsocketConsumer):
    game_id: int
    code: str
    group: str
    seat_id: int | None = None
    player: Player | None = None
    waiting = False
    watching = False  # the watch URL: a spectator's view whoever is logged in
    # Known not to hold a seat for as long as it is open: messages refused here, board shared.
    spectator = False
    shares: list[Client] = []  # its session's and address's (join_clients)
    origin = ""  # the page's origin for absolute links (page_origin)
    wake: asyncio.TimerHandle | None = None
    online: frozenset[int] | None = None  # the seats shown as connected (last render or beat)
    # The chat: its viewer (the session's player whatever the URL), as last read with its panel
    # (None until the page has one), whether the game was over then, the channel groups of the
    # rooms this socket joined, and the lines its last panel held.
    chat_player: Player | None = None
    chat_viewer: services.chat.Viewer | None = None
    chat_over = False
    chat_groups: frozenset[str] = frozenset()
    chat_shown: frozenset[int] = frozenset()

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        code = self.code = kwargs["code"]
        self.watching = bool(kwargs.get("watch"))
        # Counted before anything costs: one client may not hold the process's sockets.
        self.shares, too_many = join_clients(self.scope)
        # The handshake is answered at once, before any database work: when every page of a
        # restarted server reconnects at the same moment, the database calls queue up, and a
        # handshake that waited behind them would time out (Daphne allows 5 s) and be retried.
        # Who the viewer is comes from the session just after (asgi.py: no AuthMiddleware).
        await self.accept()
        if too_many:
            # Accepted only to say why on the page (a refused handshake shows nothing and the
            # browser would retry it); our own close code is not retried.
            await self.send(text_data=flash_html(too_many))
            await self.close(code=TOO_MANY_SOCKETS)
            return
        self.origin = page_origin(self.scope)
        found = await self._find(code)
        if found is None:
            # Say why, then close with our own code: the browser does not retry it.
            await self.send(text_data=GONE_HTML)
            await self.close(code=NO_SUCH_GAME)
            return
        self.game_id, self.group, self.player, status = found
        self.chat_player = self.player
        self.chat_over = status == Game.FINISHED
        if self.watching:
            self.player = None
        self.sent: dict[str, str] = {}  # each fragment as last sent, in its steady form
        self.send_lock = asyncio.Lock()
        self.rate = RateLimit(settings.VENTURE_WS_RATE_PER_SECOND, settings.VENTURE_WS_BURST)
        await self.channel_layer.group_add(self.group, self.channel_name)
        seat = None  # no player, no seat: nothing to ask the database
        if self.player is not None:
            seat = await in_pool(services.viewer_connected)(
                self.game_id, self.player, self.channel_name
            )
        self.seat_id = seat.pk if seat else None
        # Nobody gains a seat once a game has both its players, and this socket's viewer is
        # fixed at connect: without a seat now it never acts. (Someone not seated in an open
        # game may still join it: that socket keeps the services' checks and its own render.)
        self.spectator = self.seat_id is None and (self.player is None or status != Game.OPEN)
        if self.spectator:
            # A spectator's page has no form: what its socket sends is a mistake or a flood,
            # so it gets a small bucket of its own (each message is still answered until then).
            self.rate = RateLimit(*settings.VENTURE_WS_SPECTATOR_RATE)
        await self.send_board()
        # The process's heartbeat keeps this connection's row fresh (game/runtime/heartbeats.py).
        heartbeats.join(self, services.viewers_alive)

    async def presence(self, online: frozenset[int]) -> None:
        """A heartbeat: redraw when who is connected is not what the page shows (someone's
        connection expired: a server that died without closing its sockets). Only then: a
        redraw every beat would be a render per socket every HEARTBEAT_SECONDS, as many renders
        as the actions make at a person's pace. (Compared with the last render, not the last
        beat: the process's sockets beat together, and a first beat that always redrew would
        redraw every page of the process at once.)"""
        changed = online != self.online
        self.online = online
        if not changed:
            return
        try:
            await self.send_board()
        except Game.DoesNotExist:
            heartbeats.leave(self)  # the game was cancelled: nothing to redraw any more

    async def disconnect(self, code: int) -> None:
        shares, self.shares = self.shares, []
        leave_clients(shares)
        if not hasattr(self, "group"):
            return
        heartbeats.leave(self)
        if self.wake is not None:
            self.wake.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        for group in self.chat_groups - {self.group}:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.seat_id is not None:
            await in_pool(services.viewer_disconnected)(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # This connection's bucket, then its session's and its address's: each socket under
        # its own limit must not add up to a flood from one client.
        if not (self.rate.allow() and all(share.rate.allow() for share in self.shares)):
            if self.rate.should_warn():
                await self.flash(SLOW_DOWN)
            return
        if text_data is None:
            await self.flash("That message was not understood (send text: a JSON object).")
            return
        limit = settings.VENTURE_WS_MAX_MESSAGE_BYTES
        if len(text_data) > limit:  # characters: at least as many bytes, so never too lenient
            await self.flash(f"That message is too large (at most {limit} bytes); not applied.")
            return
        try:
            data = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.flash("That message was not understood (it is not JSON).")
            return
        if is_chat(data):  # a spectator chats too: before the spectator's refusal below
            await self.chat_receive(data)
            return
        try:
            action = parse_action(data)
        except BadAction as e:
            await self.flash(str(e))
            return
        if self.spectator:
            # What the services would answer after locking the game row: said without them.
            await self.flash(WATCHING)
            return
        try:
            await in_pool(services.perform)(self.game_id, self.player, action)
        except services.ActionRefused as e:
            await self.flash(e.message)
            # A view that is behind gets the current one straight away.
            if e.code in ("stale", "repeat", "already_answered", "over"):
                await self.send_board()
        except Exception:
            log.exception("action %r on game %s failed", action, self.game_id)
            await self.flash("Something went wrong on the server; the action was not applied.")
        else:
            await self.flash("")

    async def game_changed(self, event: dict[str, Any]) -> None:
        if event.get("answers") is not None:  # the answers that made this version
            services.offer_answers(
                self.game_id, self.code, event.get("epoch", 0), event["from"], event["answers"]
            )
        try:
            await self.send_board()
        except Game.DoesNotExist:  # the host cancelled the open game
            await self.send(text_data=GONE_HTML)
            await self.close(code=NO_SUCH_GAME)

    # sending ------------------------------------------------------------------------------------
    async def send_board(self) -> None:
        # One at a time: a slow render must never overtake a newer one (heartbeat vs. change).
        async with self.send_lock:
            await self._send_board()

    async def _send_board(self) -> None:
        whole = not self.sent or self.waiting
        rendered = await self._render(whole)
        board_html, fragments, self.online = rendered.board, rendered.fragments, rendered.online
        self._wake_in(rendered.wake_in)
        if not fragments:  # still waiting for the second player
            if self.sent.get("board") != board_html:
                self.sent = {"board": board_html or ""}
                self.waiting = True
                await self.send(text_data=board_html or "")
            return
        # What was sent is kept in its steady form (_steady), worked out once per fragment.
        if whole:
            self.sent = {name: _steady(html) for name, html in fragments.items()}
            self.waiting = False
            await self.send(text_data=board_html or "")
            await self.send_chat(("panel",))
            return
        changed = []
        for name, html in fragments.items():
            steady = _steady(html)
            if self.sent.get(name) != steady:
                changed.append(html)
                self.sent[name] = steady
        if changed:
            await self.send(text_data="\n".join(changed))
        if rendered.over and not self.chat_over and self.chat_viewer is not None:
            # The game just ended: its players may read the spectators' room now.
            self.chat_over = True
            if self.chat_viewer.seat is not None:
                await self.send_chat(("rooms",))

    async def flash(self, message: str) -> None:
        await self.send(text_data=flash_html(message))

    # chat -----------------------------------------------------------------------------------------
    async def chat_receive(self, data: dict[str, Any]) -> None:
        try:
            given = parse_chat(data)
        except BadAction as e:
            await self.flash(str(e))
            return
        client = self.scope.get("client")
        address = str(client[0]) if client else ""
        try:
            said = await in_pool(services.chat.perform)(
                self.game_id, self.chat_player, given, address
            )
        except services.ActionRefused as e:
            await self.flash(e.message)
            if e.code == "repeat":  # the form that was sent twice gets a fresh action id
                await self.send_chat((_sent_part(given),))
            return
        except Exception:
            log.exception("chat %r on game %s failed", given.kind, self.game_id)
            await self.flash("Something went wrong on the server; that was not done.")
            return
        await self.flash(said)
        if given.kind == "chat":
            await self.send_chat((_sent_part(given),))
        elif given.kind == "chat_report":
            await self.send_chat(("rooms",))  # the line says "reported" now

    async def send_chat(self, parts: tuple[str, ...]) -> None:
        """The chat's `parts` (board.chat.PARTS) for this socket's viewer, read afresh."""
        try:
            panel, html = await self._chat(parts)
        except Game.DoesNotExist:
            return
        self.chat_viewer = panel.viewer
        if "panel" in parts or "rooms" in parts:  # what the page's rooms now hold
            self.chat_over = panel.over
            self.chat_shown = frozenset(line.id for room in panel.rooms for line in room.lines)
        # The players' room's lines reach the sockets of its readers only.
        groups = frozenset(
            services.chat.room_group(self.group, room) for room in panel.viewer.rooms(True)
        )
        for group in groups - self.chat_groups - {self.group}:
            await self.channel_layer.group_add(group, self.channel_name)
        self.chat_groups = self.chat_groups | groups
        await self.send(text_data=html)

    async def chat_line(self, event: dict[str, Any]) -> None:
        """A new line in a room this socket's group hears: sent on if its viewer sees it."""
        viewer = self.chat_viewer
        if viewer is None:  # no chat on the page yet (waiting for the second player)
            return
        line = services.chat.Line.from_event(event)
        if line.id in self.chat_shown or not services.chat.shows(viewer, self.chat_over, line):
            return
        await self.send(text_data=board.chat.render_line(line, viewer, code=self.code))

    async def chat_settings(self, event: dict[str, Any]) -> None:
        """Someone's chat settings changed (a mute, free text): their pages read them again."""
        if self.chat_viewer is None or self.chat_player is None:
            return
        if event.get("player") == self.chat_player.pk:
            # Free text on or off changes the text form too; a mute leaves a half-typed message.
            free_text = event.get("setting") == "free_text"
            await self.send_chat(
                ("rooms", "write", "settings") if free_text else ("rooms", "settings")
            )

    @in_pool
    def _chat(self, parts: tuple[str, ...]) -> tuple[services.chat.Panel, str]:
        panel = services.chat.panel(self.game_id, self.chat_player)
        cookies = self.scope.get("cookies") or {}
        html = board.chat.render_parts(
            panel, parts, code=self.code, csrf_token=cookies.get(settings.CSRF_COOKIE_NAME)
        )
        return panel, html

    # time -----------------------------------------------------------------------------------------
    def _wake_in(self, seconds: float | None) -> None:
        """Redraw in `seconds` (the last render said when time alone changes this page)."""
        if self.wake is not None:
            self.wake.cancel()
            self.wake = None
        if seconds is not None:
            loop = asyncio.get_running_loop()
            self.wake = loop.call_later(max(0.0, seconds), self._woken)

    def _woken(self) -> None:
        self.wake = None
        asyncio.ensure_future(self.on_time())

    async def on_time(self) -> None:
        try:
            # A clock at zero is a loss: recorded (once, whoever's page gets here first), then
            # every page hears of it; otherwise just this page's countdown changed.
            if not await in_pool(services.check_time)(self.game_id):
                await self.send_board()
        except Game.DoesNotExist:
            return
        except Exception:
            log.exception("timed redraw of game %s failed", self.game_id)

    # database -----------------------------------------------------------------------------------
    @in_pool
    def _find(self, code: str) -> tuple[int, str, Player | None, str] | None:
        """The game, its group, the viewer's Player (from the session: the same check of the
        session's user and its auth hash as a page's request) and the game's status."""
        game = services.find_game(code)
        if game is None:
            return None
        user = auth.get_user(SimpleNamespace(session=self.scope["session"]))
        return game.pk, game.group_name, services.player_for_user(user), game.status

    async def _render(self, whole: bool) -> board.Rendered:
        # A spectator's board is the shared one (game/board/batching.py): made for no viewer and
        # without a CSRF token (it has no form that posts), so nothing of this socket's viewer
        # can be in it. A player's is made for its viewer in a pool call of its own.
        if self.spectator:
            return await batching.render(
                self.game_id, None, whole=whole, csrf_token=None, base_url=self.origin, shared=True
            )
        cookies = self.scope.get("cookies") or {}
        return await batching.render(
            self.game_id,
            self.player,
            whole=whole,
            csrf_token=cookies.get(settings.CSRF_COOKIE_NAME),
            base_url=self.origin,
        )


def _sent_part(given: ChatInput) -> str:
    """The part of the chat that holds the form `given` came from (the one sent again)."""
    if given.kind != "chat":
        return "settings"
    return "quick" if given.quick is not None else "write"


GONE_HTML = (
    '<div id="board" class="board" hx-swap-oob="true"><section class="panel invite">'
    "<h1>This game no longer exists</h1><p>It was cancelled by its host. "
    '<a href="/">Back to the lobby</a></p></section></div>'
)


def flash_html(message: str) -> str:
    hidden = "" if message else " hidden"
    return (
        f'<div id="flash" class="flash" role="alert" hx-swap-oob="true"{hidden}>'
        f"{escape(message)}</div>"
    )
