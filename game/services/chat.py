"""The chat at a game's table: who reads and writes what, sending, muting, free text on or off,
reporting, and the chat of a replay (README, "Playing"; docs/security.md, "Chat").

As on Lichess, a game has two rooms:

- **the players' room**: the two seats and nobody else, during the game and after it; a replay
  shows it to those two only;
- **the spectators' room**: everyone who is not seated (the watch link, a visitor). The players
  do not read it while the game runs (spectators see both boards and could coach one side); once
  the game is over it opens to them too, to read.

What a page shows of a room also depends on its viewer (`shows`): quick messages always; free
text only to a viewer who has it on (an account by default, a guest once they turn it on, and
nobody who turned it off); nothing from the other seat once a player muted it (per game, kept on
the seat). The computer never chats: a game against it has no players' room.

Each room is a channel group of its own (`room_group`): the players' room's messages travel to
the sockets of seated viewers only, and each socket still asks `shows` before it sends a line.
"""

from __future__ import annotations

import unicodedata
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction

from game.models import ChatMessage, ChatReport, Game, Player, Seat

from . import rate_limits
from .broadcast import notify_group
from .errors import ActionRefused

if TYPE_CHECKING:
    from game.forms.chat import ChatInput

PLAYERS, SPECTATORS = ChatMessage.PLAYERS, ChatMessage.SPECTATORS
QUICK, TEXT = ChatMessage.QUICK, ChatMessage.TEXT
# The quick messages, by key (what a message stores), in the order of their buttons.
QUICK_MESSAGES: dict[str, str] = {
    "hello": "Hello",
    "thinking": "Thinking…",
    "nice": "Nice play",
    "gg": "Good game",
}
ROOM_TITLES = {PLAYERS: "Players", SPECTATORS: "Spectators"}
LINES = 100  # the last lines of a room a page is given; later ones arrive live

LOG_IN = "Log in or play as a guest to chat."
COMPUTER = "The computer does not chat."
# Characters a message may not hold: controls, lone surrogates (no database stores them), and
# the bidirectional overrides and isolates, which turn the rest of a line around (a name or a
# link that reads other than it is).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class Viewer:
    """Who reads a game's chat on one page, and what they may do there."""

    player_id: int | None
    seat: str | None  # the viewer's seat (engine name) when they play this game
    opponent_id: int | None  # the other seat's player, for a seated viewer
    opponent: str  # their name
    against_computer: bool
    free_text: bool
    muted: bool  # a seated viewer has muted the other seat

    @property
    def writes_to(self) -> str | None:
        """The room this viewer writes in (None: they can't write)."""
        if self.player_id is None:
            return None
        if self.seat is None:
            return SPECTATORS
        return None if self.against_computer else PLAYERS

    def rooms(self, over: bool) -> tuple[str, ...]:
        """The rooms this viewer reads, in the order a page shows them."""
        if self.seat is None:
            return (SPECTATORS,)
        own = () if self.against_computer else (PLAYERS,)
        return own + ((SPECTATORS,) if over else ())


@dataclass(frozen=True)
class Line:
    """One message as a page shows it (`text`: the free text, or the quick message's words)."""

    id: int
    room: str
    kind: str
    text: str
    author_id: int
    author: str
    version: int

    @classmethod
    def of(cls, message: ChatMessage) -> Line:
        text = message.body
        if message.kind == QUICK:
            text = QUICK_MESSAGES.get(message.body, message.body)
        return cls(
            message.pk,
            message.room,
            message.kind,
            text,
            message.author_id,
            message.author.display_name,
            message.version,
        )

    def event(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_event(cls, event: dict[str, Any]) -> Line:
        """The line a channel message carries (`event()` plus the layer's own keys)."""
        return cls(**{f.name: event[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class Room:
    name: str
    title: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Panel:
    """A page's chat: the rooms it reads with their last lines, and what it may do."""

    viewer: Viewer
    over: bool
    rooms: tuple[Room, ...]
    reported: frozenset[int]  # the lines this viewer reported
    note: str  # why there is nothing to write, when so
    quick: tuple[tuple[str, str], ...] = tuple(QUICK_MESSAGES.items())

    @property
    def max_length(self) -> int:
        return settings.VENTURE_CHAT_MAX_LENGTH


def shows(viewer: Viewer, over: bool, line: Line) -> bool:
    """Whether a page of `viewer` shows `line` (the game over or not): the one rule."""
    if line.room not in viewer.rooms(over):
        return False
    if line.kind == TEXT and not viewer.free_text:
        return False
    return not (viewer.muted and line.author_id == viewer.opponent_id)


def free_text_on(player: Player | None) -> bool:
    """Whether `player` writes and reads free text: their choice, else on for an account with
    a password and off for a guest (and for a visitor who is not logged in)."""
    if player is None or player.is_computer:
        return False
    if player.chat_free_text is not None:
        return player.chat_free_text
    return not player.is_guest


def room_group(game_group: str, room: str) -> str:
    """The channel group of a room: the players' room has its own, which only seated viewers'
    sockets join; the spectators' room is the game's group."""
    return f"{game_group}.players" if room == PLAYERS else game_group


def viewer(game_id: int, player: Player | None) -> Viewer:
    """`player` (None: a visitor) at game `game_id`, read afresh (their settings may have
    changed in another tab)."""
    seats = list(Seat.objects.filter(game_id=game_id).select_related("player"))
    fresh = None
    if player is not None:
        fresh = Player.objects.filter(pk=player.pk).first()
    mine = next((s for s in seats if fresh is not None and s.player_id == fresh.pk), None)
    other = next((s for s in seats if mine is not None and s is not mine), None)
    return Viewer(
        player_id=None if fresh is None or fresh.is_computer else fresh.pk,
        seat=(mine.engine_name or str(mine.position)) if mine is not None else None,
        opponent_id=other.player_id if other is not None else None,
        opponent=other.player.display_name if other is not None else "",
        against_computer=any(s.player.is_computer for s in seats),
        free_text=free_text_on(fresh),
        muted=mine.chat_muted if mine is not None else False,
    )


def _lines(game_id: int, room: str, *, until: int | None = None) -> list[Line]:
    messages = ChatMessage.objects.filter(game_id=game_id, room=room).select_related("author")
    if until is not None:
        messages = messages.filter(version__lte=until)
    return [Line.of(m) for m in reversed(messages.order_by("-pk")[:LINES])]


def panel(game_id: int, player: Player | None) -> Panel:
    """What the chat of `player`'s page holds now (a visitor: None)."""
    status = Game.objects.filter(pk=game_id).values_list("status", flat=True).get()
    over = status == Game.FINISHED
    v = viewer(game_id, player)
    rooms = tuple(
        Room(name, ROOM_TITLES[name], tuple(x for x in _lines(game_id, name) if shows(v, over, x)))
        for name in v.rooms(over)
    )
    reported: frozenset[int] = frozenset()
    if v.player_id is not None:
        reported = frozenset(
            ChatReport.objects.filter(
                reporter_id=v.player_id, message__game_id=game_id
            ).values_list("message_id", flat=True)
        )
    if v.player_id is None:
        note = LOG_IN
    elif v.writes_to is None:
        note = COMPUTER
    else:
        note = ""
    return Panel(v, over, rooms, reported, note)


def is_over(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id, status=Game.FINISHED).exists()


# writing ----------------------------------------------------------------------------------------
def clean_text(raw: str) -> str:
    """A free-text message as stored: its runs of white space one space, trimmed; refused
    (ActionRefused) when empty, too long, or holding a character no message may hold."""
    text = " ".join(raw.split())
    if not text:
        raise ActionRefused("Type a message first.", "chat_empty")
    limit = settings.VENTURE_CHAT_MAX_LENGTH
    if len(text) > limit:
        raise ActionRefused(
            f"A chat message is at most {limit} characters (this one has {len(text)}); not sent.",
            "chat_too_long",
        )
    for ch in text:
        if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs"):
            raise ActionRefused(
                f"A chat message can't hold the character U+{ord(ch):04X}; not sent.",
                "chat_character",
            )
    return text


def post(
    game_id: int,
    player: Player | None,
    *,
    quick: str | None = None,
    text: str | None = None,
    action_id: str = "",
    address: str = "",
) -> Line:
    """`player` sends a quick message (its key) or free text to the room they write in.
    Refused (ActionRefused, nothing stored) for a visitor, the computer, free text from a
    player who has it off, a message too long or empty, a sender past VENTURE_RATE_LIMITS
    ["chat"] (by player and by address), a game not started yet, and a repeat of the same
    action id."""
    if player is None:
        raise ActionRefused(LOG_IN, "chat_anonymous")
    if player.is_computer:
        raise ActionRefused(COMPUTER, "chat_computer")
    if (quick is None) == (text is None):
        raise ActionRefused("Send a quick message or a text, one at a time.", "chat_shape")
    if quick is not None and quick not in QUICK_MESSAGES:
        raise ActionRefused(
            f"Unknown quick message; they are {', '.join(QUICK_MESSAGES)}.", "chat_shape"
        )
    body = clean_text(text) if text is not None else quick
    assert body is not None
    # The limits before any work: one read of the database is work a flood must not cause.
    keys = [f"player:{player.pk}"] + ([f"address:{address}"] if address else [])
    if not rate_limits.allow("chat", *keys):
        raise ActionRefused(
            "You are sending messages too fast; wait a little. That one was not sent.",
            "chat_rate",
        )
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).only("pk", "status", "version").first()
        if game is None:
            raise ActionRefused("This game no longer exists.", "gone")
        if game.status == Game.OPEN:
            raise ActionRefused("The chat opens when the game starts.", "chat_not_started")
        v = viewer(game_id, player)
        room = v.writes_to
        if room is None:
            raise ActionRefused(COMPUTER if v.player_id else LOG_IN, "chat_no_room")
        if text is not None and not v.free_text:
            raise ActionRefused(
                "Free text is off for you: turn it on under the chat to write and read it; "
                "the quick messages are always there.",
                "chat_free_text_off",
            )
        if (
            action_id
            and ChatMessage.objects.filter(
                game_id=game_id, author_id=player.pk, client_action_id=action_id
            ).exists()
        ):
            raise ActionRefused("That message was already sent.", "repeat")
        try:
            with transaction.atomic():
                message = ChatMessage.objects.create(
                    game=game,
                    room=room,
                    author=player,
                    kind=QUICK if quick is not None else TEXT,
                    body=body,
                    version=game.version,
                    client_action_id=action_id,
                )
        except IntegrityError:  # the same id from another tab at the same instant
            raise ActionRefused("That message was already sent.", "repeat") from None
        line = Line.of(message)
        notify_group(room_group(game.group_name, room), {"type": "chat.line", **line.event()})
    return line


def set_muted(game_id: int, player: Player | None, muted: bool) -> None:
    """A player mutes (or hears again) the other seat, in this game: their messages leave the
    player's pages at once and stay hidden after a reload; the other player is not told."""
    seat = Seat.objects.filter(game_id=game_id, player=player).first() if player else None
    if seat is None:
        raise ActionRefused("Only the game's two players can mute each other.", "no_seat")
    Seat.objects.filter(pk=seat.pk).update(chat_muted=muted)
    _viewer_changed(game_id, seat.player_id, "mute")


def set_free_text(game_id: int, player: Player | None, on: bool) -> None:
    """`player` turns free text on or off (for every game: a setting of theirs)."""
    if player is None:
        raise ActionRefused(LOG_IN, "chat_anonymous")
    if player.is_computer:
        raise ActionRefused(COMPUTER, "chat_computer")
    Player.objects.filter(pk=player.pk).update(chat_free_text=on)
    player.chat_free_text = on
    _viewer_changed(game_id, player.pk, "free_text")


def _viewer_changed(game_id: int, player_id: int, setting: str) -> None:
    """Tell the pages of `player_id` at this game (every tab) that `setting` ("mute",
    "free_text") changed: they read their chat again."""
    group = Game(pk=game_id).group_name
    notify_group(group, {"type": "chat.settings", "player": player_id, "setting": setting})


def report(game_id: int, player: Player | None, message_id: int) -> None:
    """`player` reports a message of this game's chat that they can read (not their own): it
    joins the moderators' queue in the admin (game/admin.py, ChatReportAdmin)."""
    if player is None:
        raise ActionRefused("Log in or play as a guest to report a message.", "chat_anonymous")
    message = ChatMessage.objects.filter(pk=message_id, game_id=game_id).first()
    v = viewer(game_id, player)
    # One answer for a message that is not there and one the reporter can't read: an id
    # tells nothing of the other room.
    if message is None or message.room not in v.rooms(is_over(game_id)):
        raise ActionRefused("There is no such message in this chat.", "chat_no_message")
    if message.author_id == player.pk:
        raise ActionRefused("That message is your own.", "chat_own")
    _, created = ChatReport.objects.get_or_create(message=message, reporter=player)
    if not created:
        raise ActionRefused("You reported that message already.", "chat_reported_already")


def perform(game_id: int, player: Player | None, given: ChatInput, address: str = "") -> str:
    """Carry out a chat form parsed from a socket message or a plain POST
    (forms/chat.py, parse_chat); returns what the sender is told ("" for nothing)."""
    if given.kind == "chat":
        post(
            game_id,
            player,
            quick=given.quick,
            text=given.text,
            action_id=given.action_id,
            address=address,
        )
        return ""
    if given.kind == "chat_mute":
        assert given.on is not None
        set_muted(game_id, player, given.on)
        return ""
    if given.kind == "chat_free_text":
        assert given.on is not None
        set_free_text(game_id, player, given.on)
        return ""
    assert given.kind == "chat_report" and given.message is not None
    report(game_id, player, given.message)
    return "Reported. A moderator will read that message and the lines around it."


# the replay and the moderators ------------------------------------------------------------------
def replay_lines(game: Game, player: Player | None, at: int) -> tuple[Line, ...] | None:
    """The players' room up to point `at` (after `at` answers) for one of the game's two
    players, as their page shows it (free text, mute); None for anyone else, who sees no chat
    in a replay."""
    v = viewer(game.pk, player)
    if v.seat is None or v.against_computer:
        return None
    return tuple(ln for ln in _lines(game.pk, PLAYERS, until=at) if shows(v, True, ln))


def words(message: ChatMessage) -> str:
    """A message's words (a quick message's, or the text), unescaped: the caller escapes."""
    if message.kind == QUICK:
        return QUICK_MESSAGES.get(message.body, message.body)
    return message.body


def lines_around(message: ChatMessage, around: int = 5) -> list[ChatMessage]:
    """The message with up to `around` messages of its room before and after it."""
    same = ChatMessage.objects.filter(game_id=message.game_id, room=message.room).select_related(
        "author"
    )
    before = list(same.filter(pk__lt=message.pk).order_by("-pk")[:around])[::-1]
    after = list(same.filter(pk__gt=message.pk).order_by("pk")[:around])
    return [*before, message, *after]
