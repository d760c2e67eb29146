"""The one parser of in-game actions.

An in-game action arrives as flat form fields, from the websocket (htmx's ws extension sends a
form's fields as a JSON object, plus a `HEADERS` object we ignore) or from a plain POST when
JavaScript is off. `parse_action` turns either into an `Action` or raises `BadAction` with a
sentence for the sender. Input is untrusted: only the known fields, of the expected types and
sizes, get through (docs/security.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.engine.kinds import PLACEMENT_MAX
from game.engine.stops import stop_key_problem
from game.models import Seat


class BadAction(ValueError):
    pass


KINDS = (
    "answer",
    "concede",
    "pace",
    "claim",
    "rematch",
    "decline_rematch",
    "takeback",
    "accept_takeback",
    "decline_takeback",
    "withdraw_takeback",
)
# Every field a game form sends; htmx's ws extension adds HEADERS (htmx 4: headers), a plain
# POST adds the CSRF token. Anything else is refused, so a typo or a probe is told, not ignored.
FIELDS = frozenset(
    {
        "action",
        "version",
        "action_id",
        "option",
        "multi",
        "placement",
        "full_control",
        "pass_until",
        "stop",
        "stop_on",
    }
)
IGNORED = frozenset({"HEADERS", "headers", "csrfmiddlewaretoken"})
MAX_FIELDS = 120  # an ordering of every card in a hand and more; far beyond a real form
MAX_OPTION_LENGTH = 100
# A placement's form: a field per card besides action, version, action_id, placement, CSRF.
assert PLACEMENT_MAX + 5 <= MAX_FIELDS
BOTTOM = "b"  # a placement's value for a card put on the bottom
ACTION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class Placement:
    """A scry answered in one prompt (the page's `placement` layout): the cards put on the
    bottom, in the order the form lists them, and the cards kept on top, top first. The service
    turns it into the engine's two answers (services.submit_scry)."""

    bottom: list[str]
    top: list[str]


@dataclass
class Action:
    kind: str  # one of KINDS
    answer: str | list[str] | None = None
    placement: Placement | None = None  # instead of `answer`: a scry placed in one prompt
    version: int | None = None
    action_id: str = ""
    full_control: bool | None = None
    pass_until: str | None = None
    stop: str | None = None  # a stop key (engine/stops.py), with stop_on
    stop_on: bool | None = None


def _one(data: Mapping[str, Any], key: str) -> Any:
    """A field's value; Django's QueryDict gives lists through getlist, JSON gives them as is."""
    getlist = getattr(data, "getlist", None)
    if getlist is not None:
        values = getlist(key)
        if not values:
            return None
        return values if len(values) > 1 else values[0]
    return data.get(key)


def parse_action(data: Mapping[str, Any]) -> Action:
    """An `Action` from a form's fields, or `BadAction` naming what is wrong. Every action
    names the version of the game it was made on and carries the form's action id."""
    if not isinstance(data, Mapping):
        raise BadAction("An action is a set of form fields (a JSON object).")
    if len(data) > MAX_FIELDS:
        raise BadAction(f"Too many fields ({len(data)}); a game form has at most {MAX_FIELDS}.")
    unknown = sorted(
        str(k)[:40]
        for k in data
        if not isinstance(k, str) or (k not in FIELDS and k not in IGNORED and k[:4] != "pos:")
    )
    if unknown:
        raise BadAction(f"Unknown field(s): {', '.join(unknown[:5])}.")
    kind = _one(data, "action")
    if kind not in KINDS:
        shown = repr(kind)[:40] if kind is not None else "none"
        raise BadAction(f"Unknown action {shown}; actions are {', '.join(KINDS)}.")
    action = Action(kind, version=_version(data), action_id=_action_id(data))
    if kind == "answer" and _one(data, "placement") is not None:
        action.placement = _placement(data)
    elif kind == "answer":
        action.answer = _answer(data)
    elif kind == "pace":
        full_control = _one(data, "full_control")
        if full_control is not None:
            if full_control not in ("on", "off"):
                raise BadAction("full_control is on or off.")
            action.full_control = full_control == "on"
        pass_until = _one(data, "pass_until")
        if pass_until is not None:
            if not isinstance(pass_until, str) or pass_until not in dict(Seat.PASS_MODES):
                raise BadAction(f"Unknown pass mode {repr(pass_until)[:40]}.")
            action.pass_until = pass_until
        stop = _one(data, "stop")
        if stop is not None:
            problem = stop_key_problem(stop)
            if problem is not None:
                raise BadAction(problem)
            stop_on = _one(data, "stop_on")
            if stop_on not in ("on", "off"):
                raise BadAction("stop_on is on or off.")
            action.stop, action.stop_on = stop, stop_on == "on"
            if action.full_control is not None or action.pass_until is not None:
                raise BadAction("A stop is changed on its own, without full_control or pass_until.")
        if action.full_control is None and action.pass_until is None and action.stop is None:
            raise BadAction("A pace change names full_control, pass_until or a stop.")
    return action


def _answer(data: Mapping[str, Any]) -> str | list[str]:
    position_fields = [k for k in data if k.startswith("pos:")]
    if position_fields:
        return _ordering(data, position_fields)
    option = _one(data, "option")
    if _one(data, "multi") is not None:
        if option is None:
            option = []
        elif isinstance(option, str):
            option = [option]
    if option is None:
        raise BadAction("Choose an option first.")
    options = option if isinstance(option, list) else [option]
    if not all(isinstance(o, str) and 0 < len(o) <= MAX_OPTION_LENGTH for o in options):
        raise BadAction("Options are named by their ids.")
    return option


def _version(data: Mapping[str, Any]) -> int:
    raw = _one(data, "version")
    if isinstance(raw, bool) or not isinstance(raw, (int, str)) or len(str(raw)) > 9:
        raw = None
    try:
        version = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        version = -1
    if version < 0:
        raise BadAction("The action does not say which version of the game it was made on.")
    return version


def _action_id(data: Mapping[str, Any]) -> str:
    raw = _one(data, "action_id")
    if not isinstance(raw, str) or not ACTION_ID.fullmatch(raw):
        raise BadAction(
            "The action has no valid action id (the page's forms carry one); reload the page."
        )
    return raw


def _ordering(data: Mapping[str, Any], fields: list[str]) -> list[str]:
    """Ordered decisions come as `pos:<option id>` = 1..N (1 = first/top)."""
    ranked = []
    for key in fields:
        value = _one(data, key)
        if isinstance(value, bool) or not isinstance(value, (int, str)) or len(str(value)) > 4:
            raise BadAction("Each position is a number.")
        try:
            ranked.append((int(value), key[4:]))
        except ValueError:
            raise BadAction("Each position is a number.") from None
    positions = [p for p, _ in ranked]
    if len(set(positions)) != len(positions):
        raise BadAction("Give each one a different position.")
    return [option for _, option in sorted(ranked)]


def _placement(data: Mapping[str, Any]) -> Placement:
    """A scry placed in one prompt: `placement` = 1 and, for every card, `pos:<option id>` = its
    position on top (1 = the top card) or `b` for the bottom. The positions on top run from 1
    without a gap or a repeat; whether the cards are exactly the scry's is the service's check
    (it knows the decision)."""
    if _one(data, "placement") != "1":
        raise BadAction("placement is 1 (a scry's cards placed in one prompt).")
    if _one(data, "option") is not None or _one(data, "multi") is not None:
        raise BadAction("A placement sends a place for each card (pos:<card>), not options.")
    fields = [k for k in data if k.startswith("pos:")]
    if not fields:
        raise BadAction("Place each card: on top at a position, or on the bottom.")
    if len(fields) > PLACEMENT_MAX:
        raise BadAction(f"A placement names at most {PLACEMENT_MAX} cards, not {len(fields)}.")
    bottom, ranked = [], []
    for key in fields:
        card, value = key[4:], _one(data, key)
        if not 0 < len(card) <= MAX_OPTION_LENGTH:
            raise BadAction("Cards are named by their ids.")
        if value == BOTTOM:
            bottom.append(card)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, str)) or len(str(value)) > 4:
            raise BadAction("Each card's place is a position on top (1, 2, …) or b (the bottom).")
        try:
            ranked.append((int(value), card))
        except ValueError:
            raise BadAction(
                "Each card's place is a position on top (1, 2, …) or b (the bottom)."
            ) from None
    positions = sorted(p for p, _ in ranked)
    if len(set(positions)) != len(positions):
        raise BadAction("Give each card kept on top a different position.")
    if positions != list(range(1, len(positions) + 1)):
        raise BadAction(
            f"Number the cards kept on top from 1 (the top) to {len(positions)}, without a gap."
        )
    return Placement(bottom=bottom, top=[card for _, card in sorted(ranked)])
