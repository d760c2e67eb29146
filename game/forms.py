"""Forms of the lobby and accounts, and the one parser of in-game actions.

An in-game action arrives as flat form fields, from the websocket (htmx's ws extension sends a
form's fields as a JSON object, plus a `HEADERS` object we ignore) or from a plain POST when
JavaScript is off. `parse_action` turns either into an `Action` or raises `BadAction` with a
sentence for the sender. Input is untrusted: only the known fields, of the expected types and
sizes, get through (docs/security.md).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password

from game.decklists import DeckError, parse_decklist
from game.decks import STARTER_DECKS
from game.engine.kinds import PLACEMENT_MAX
from game.engine.stops import stop_key_problem
from game.scenario.loader import MAX_FILE_BYTES
from game.services import (
    DAYS_PER_MOVE,
    MAX_INCREMENT,
    MAX_MINUTES,
    PRESETS,
    ActionRefused,
    TimeControl,
)

from .models import Seat


# in-game actions --------------------------------------------------------------------------------
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
_ACTION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


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
    if not isinstance(raw, str) or not _ACTION_ID.fullmatch(raw):
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


# lobby ------------------------------------------------------------------------------------------
PRESET_CHOICES = [(name, f"{name} — {len(cards)} cards") for name, cards in STARTER_DECKS.items()]
IMPORTED = "__imported__"


class DeckChoiceForm(forms.Form):
    """A preset deck, or deck text pasted in the usual format."""

    deck = forms.ChoiceField(
        choices=[*PRESET_CHOICES, (IMPORTED, "Import a deck (paste it below)")],
        widget=forms.RadioSelect,
        initial=PRESET_CHOICES[0][0],
    )
    decklist = forms.CharField(
        required=False,
        max_length=20_000,
        widget=forms.Textarea(
            attrs={"rows": 10, "placeholder": "Deck\n4 Varis, Silverymoon Ranger\n17 Forest\n…"}
        ),
        help_text="One card per line as “4 Card Name”; optional Deck / Sideboard headers.",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        choice = data.get("deck")
        if choice == IMPORTED:
            text = data.get("decklist") or ""
            if not text.strip():
                raise forms.ValidationError("Paste a decklist to import, or choose a preset deck.")
            try:
                parsed = parse_decklist(text)
            except DeckError as e:
                for problem in e.problems:
                    self.add_error("decklist", problem)
                return data
            data["cards"] = parsed.main
            data["deck_name"] = "Imported deck"
        elif choice in STARTER_DECKS:
            data["cards"] = list(STARTER_DECKS[choice])
            data["deck_name"] = choice
        return data


class ClockFields(forms.Form):
    """A chess clock as two numbers: the New game form's, and Play now's custom clock."""

    clock_minutes = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_MINUTES,
        initial=0,
        label="Minutes each",  # under the "Chess clock" legend (templates/_create_form.html)
        help_text="0 for no clock. A player whose time runs out loses.",
    )
    clock_increment = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INCREMENT,
        initial=0,
        label="Seconds added per answer",
    )

    def clock(self) -> dict[str, int]:
        """The chess clock the game is created with (seconds; 0 = none)."""
        minutes = self.cleaned_data.get("clock_minutes") or 0
        increment = self.cleaned_data.get("clock_increment") or 0
        return {"clock_seconds": minutes * 60, "clock_increment": increment if minutes else 0}


class CreateGameForm(ClockFields, DeckChoiceForm):
    # A game with a friend may be a correspondence game too (services/correspondence.py).
    days_per_move = forms.TypedChoiceField(
        choices=[
            (0, "No: a live game"),
            *((d, f"{d} day{'s' if d > 1 else ''} per move") for d in DAYS_PER_MOVE),
        ],
        coerce=int,
        required=False,
        empty_value=0,
        initial=0,
        label="Correspondence",
        help_text="Each answer may take days; the opponent may claim the win once they are out.",
    )
    custom_dungeons = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Custom dungeons (optional)",
        help_text="Whenever a player ventures into the dungeon, they choose a dungeon to enter: "
        "the three official ones always (and Undercity through the initiative). A custom "
        "dungeon is one a dungeon designer made in the dungeon editor; tick it to let both "
        "players choose it too. Games keep the dungeons as they are now.",
    )
    scenario = forms.FileField(
        required=False,
        label="Or start from a position",
        help_text="A scenario file (YAML, at most "
        f"{MAX_FILE_BYTES // 1024} KiB): its setup becomes the starting position; "
        "you play its first player. Decks are then not used.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["deck"].required = False
        from dungeons.models import DungeonCard

        self.fields["custom_dungeons"].choices = [
            (name, name)
            for name in DungeonCard.objects.filter(official=False).values_list("name", flat=True)
        ]

    def time_fields(self) -> dict[str, int]:
        """The game's time: a chess clock, or days per move (never both)."""
        return {**self.clock(), "days_per_move": self.cleaned_data.get("days_per_move") or 0}

    def clean(self) -> dict[str, Any]:
        if self.cleaned_data.get("days_per_move") and self.cleaned_data.get("clock_minutes"):
            self.add_error(
                "days_per_move",
                "A correspondence game has no chess clock: set the minutes to 0, or choose a "
                "live game.",
            )
        upload = self.files.get("scenario") if self.files else None
        if upload:
            data = self.cleaned_data
            # The size first, from the upload's metadata: a file is read whole, so one past the
            # limit is refused unread (and never cut short into a misleading YAML error).
            if upload.size > MAX_FILE_BYTES:
                self.add_error(
                    "scenario",
                    f"A scenario file may be at most {MAX_FILE_BYTES // 1024} KiB "
                    f"({MAX_FILE_BYTES:,} bytes); this one is {upload.size:,} bytes.",
                )
                return data
            raw = upload.read()
            try:
                data["scenario_text"] = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.add_error("scenario", "A scenario file is UTF-8 text (YAML).")
            data["scenario_filename"] = upload.name
            return data
        if not self.cleaned_data.get("deck"):
            raise forms.ValidationError("Choose a deck, or upload a scenario file.")
        return super().clean()


# accounts ---------------------------------------------------------------------------------------
RANDOM_DECK = "__random__"
LEVEL_CHOICES = [
    ("easy", "Easy — plays sensibly, makes a person's mistakes"),
    ("medium", "Medium — a good heuristic player"),
    ("hard", "Hard — searches the possible hands within a second"),
]


class ComputerGameForm(DeckChoiceForm):
    """Play the computer: your deck (a preset or imported), its deck (a preset, or one of them
    at random) and its level. Rendered with the prefix "computer" beside the lobby's other
    form."""

    deck = forms.ChoiceField(
        choices=[*PRESET_CHOICES, (IMPORTED, "Import a deck (paste it below)")],
        initial=PRESET_CHOICES[0][0],
        label="Your deck",
    )
    computer_deck = forms.ChoiceField(
        choices=[(RANDOM_DECK, "A preset deck at random"), *PRESET_CHOICES],
        initial=RANDOM_DECK,
        label="The computer's deck",
    )
    level = forms.ChoiceField(
        choices=LEVEL_CHOICES, initial="easy", widget=forms.RadioSelect, label="Level"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        choice = data.get("computer_deck")
        if choice == RANDOM_DECK:
            choice = secrets.choice(list(STARTER_DECKS))
        if choice in STARTER_DECKS:
            data["computer_deck_name"] = choice
            data["computer_cards"] = list(STARTER_DECKS[choice])
        return data


CUSTOM_CLOCK = "custom"
CASUAL, RATED = "casual", "rated"


class PlayNowForm(ClockFields, DeckChoiceForm):
    """Play now (quick pairing): your deck (a preset or imported), a time control (a preset, or a
    custom clock in the New game form's two numbers) and rated or casual. Rendered with the
    prefix "seek" beside the lobby's other forms."""

    deck = forms.ChoiceField(
        choices=[*PRESET_CHOICES, (IMPORTED, "Import a deck (paste it below)")],
        initial=PRESET_CHOICES[0][0],
        label="Your deck",
    )
    time_control = forms.ChoiceField(
        choices=[
            *((tc.key, tc.label) for tc in PRESETS if tc.kind != "days"),
            (CUSTOM_CLOCK, "Custom clock"),
            *((tc.key, tc.label) for tc in PRESETS if tc.kind == "days"),
        ],
        initial=PRESETS[0].key,
        widget=forms.RadioSelect,
        label="Time control",
    )
    mode = forms.ChoiceField(
        choices=[(CASUAL, "Casual"), (RATED, "Rated")],
        initial=CASUAL,
        widget=forms.RadioSelect,
        label="Mode",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = data.get("time_control")
        try:
            if chosen == CUSTOM_CLOCK:
                clock = self.clock()
                minutes, increment = clock["clock_seconds"] // 60, clock["clock_increment"]
                data["tc"] = TimeControl.clock(minutes, increment)
            elif chosen:
                data["tc"] = TimeControl.from_key(chosen)
        except ActionRefused as e:
            self.add_error("time_control", e.message)
        data["rated"] = data.get("mode") == RATED
        return data


FRIEND = "friend"


class PlayOnForm(forms.Form):
    """Play on from a point of a replay: which player of the position you take, and against
    whom (a friend you send the link to, or the computer at a level)."""

    at = forms.IntegerField(min_value=0)
    # Left out, a form plays the first side against a friend.
    side = forms.TypedChoiceField(
        choices=[(0, "first"), (1, "second")],
        coerce=int,
        empty_value=0,
        required=False,
        label="You play",
    )
    opponent = forms.ChoiceField(
        choices=[(FRIEND, "A friend (you send them the link)"), *LEVEL_CHOICES],
        required=False,
        label="Against",
    )

    @property
    def level(self) -> str | None:
        """The computer's level, or None against a friend (once valid)."""
        chosen = self.cleaned_data["opponent"]
        return None if chosen in ("", FRIEND) else chosen


class DisplayNameField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=30, min_length=1, strip=True, **kwargs)

    def clean(self, value: Any) -> str:
        value = super().clean(value)
        if value and not any(ch.isalnum() for ch in value):
            raise forms.ValidationError("A display name needs at least one letter or digit.")
        return value


class GuestForm(forms.Form):
    display_name = DisplayNameField(label="Your name at the table")


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150)
    display_name = DisplayNameField(label="Display name")
    password = forms.CharField(widget=forms.PasswordInput)

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        if get_user_model().objects.filter(username__iexact=name).exists():
            raise forms.ValidationError("That username is taken.")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password"):
            user = get_user_model()(username=data.get("username", ""))
            try:
                validate_password(data["password"], user)
            except forms.ValidationError as e:
                self.add_error("password", e)
        return data


class SetPasswordForm(forms.Form):
    """A guest keeps their player and history by choosing a username and password. An account
    that has a password must give it to change either: a session held for a moment (an
    unlocked computer, a stolen cookie) must not be enough to lock the owner out for good."""

    current_password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        label="Current password",
        strip=False,
    )
    username = forms.CharField(max_length=150)
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        label="New password",
        strip=False,
    )

    field_order = ["current_password", "username", "password"]

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.has_usable_password():  # a guest has no password to give
            del self.fields["current_password"]

    def clean_current_password(self) -> str:
        given = self.cleaned_data["current_password"]
        if not self.user.check_password(given):
            raise forms.ValidationError("That is not your current password.")
        return given

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        taken = get_user_model().objects.filter(username__iexact=name).exclude(pk=self.user.pk)
        if taken.exists():
            raise forms.ValidationError("That username is taken.")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password"):
            try:
                validate_password(data["password"], self.user)
            except forms.ValidationError as e:
                self.add_error("password", e)
        return data


class TurnMailForm(forms.Form):
    """A mail when it is your turn in a correspondence game (services/turn_mail.py)."""

    turn_mail = forms.BooleanField(
        required=False, label="Mail me when it is my turn in a correspondence game"
    )
    email = forms.EmailField(required=False, max_length=254, label="E-mail address")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("turn_mail") and not data.get("email"):
            self.add_error("email", "Give the address the mails go to.")
        return data
