"""The one parser of the chat's forms (game/board/chat.py draws them; services/chat.py carries
them out), from a websocket frame (htmx's ws extension sends a form's fields as a JSON object)
or a plain POST.

Input is untrusted (docs/security.md, "Chat"): only the fields a chat form has, each of its type
and size; anything else is refused with a sentence and changes nothing. What a message may say
(its length, its characters) is the service's to check, in one place for both ways in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from .actions import ACTION_ID, IGNORED, BadAction, _one

CHAT_ACTIONS = ("chat", "chat_mute", "chat_free_text", "chat_report")
FIELDS = frozenset({"action", "action_id", "quick", "text", "on", "message"})
# A frame is bounded by VENTURE_WS_MAX_MESSAGE_BYTES before it is parsed; a text longer than any
# message may be (VENTURE_CHAT_MAX_LENGTH is at most 500) is refused here unread; the service
# checks the length of the message as it would be stored (white space runs made one space).
MAX_RAW_TEXT = 2_000
_QUICK = re.compile(r"[a-z]{1,20}")
_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class ChatInput:
    kind: str  # one of CHAT_ACTIONS
    quick: str | None = None
    text: str | None = None
    action_id: str = ""
    on: bool | None = None
    message: int | None = None


def is_chat(data: Any) -> bool:
    """Whether a parsed frame or POST is a chat form's (and so for parse_chat)."""
    return isinstance(data, Mapping) and _one(data, "action") in CHAT_ACTIONS


def parse_chat(data: Mapping[str, Any]) -> ChatInput:
    """A `ChatInput` from a chat form's fields, or `BadAction` naming what is wrong."""
    unknown = sorted(str(k)[:40] for k in data if k not in FIELDS and k not in IGNORED)
    if unknown:
        raise BadAction(f"Unknown field(s) in a chat message: {', '.join(unknown[:5])}.")
    kind = _one(data, "action")
    if kind not in CHAT_ACTIONS:
        raise BadAction(f"Unknown chat action; they are {', '.join(CHAT_ACTIONS)}.")
    if kind == "chat":
        return _say(data)
    if kind in ("chat_mute", "chat_free_text"):
        on = _one(data, "on")
        if on not in ("on", "off"):
            raise BadAction("Say on or off.")
        return ChatInput(kind, on=on == "on")
    raw = _one(data, "message")
    if isinstance(raw, bool) or not isinstance(raw, (int, str)) or not _NUMBER.fullmatch(str(raw)):
        raise BadAction("Name the message to report by its number.")
    if len(str(raw)) > 18:  # no row has such an id (and none fits a database's integer)
        raise BadAction("There is no such message in this chat.")
    return ChatInput(kind, message=int(raw))


def _say(data: Mapping[str, Any]) -> ChatInput:
    quick, text = _one(data, "quick"), _one(data, "text")
    if (quick is None) == (text is None):
        raise BadAction("A chat message is a quick message or a text, one at a time.")
    action_id = _one(data, "action_id")
    if not isinstance(action_id, str) or not ACTION_ID.fullmatch(action_id):
        raise BadAction(
            "The message has no valid action id (the page's forms carry one); reload the page."
        )
    if quick is not None:
        if not isinstance(quick, str) or not _QUICK.fullmatch(quick):
            raise BadAction("Unknown quick message.")
        return ChatInput("chat", quick=quick, action_id=action_id)
    if not isinstance(text, str):
        raise BadAction("A chat message is text.")
    if len(text) > MAX_RAW_TEXT:
        limit = settings.VENTURE_CHAT_MAX_LENGTH
        raise BadAction(
            f"A chat message is at most {limit} characters (this one has {len(text)}); not sent."
        )
    return ChatInput("chat", text=text, action_id=action_id)
