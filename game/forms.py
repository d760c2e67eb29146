"""Forms of the lobby and accounts, and the one parser of in-game actions.

An in-game action arrives as flat form fields, from the websocket (htmx's ws extension sends a
form's fields as a JSON object, plus a `HEADERS` object we ignore) or from a plain POST when
JavaScript is off. `parse_action` turns either into an `Action` or raises `BadAction` with a
sentence for the sender.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password

from game.decklists import DeckError, parse_decklist
from game.decks import STARTER_DECKS

from .models import Seat


# in-game actions --------------------------------------------------------------------------------
class BadAction(ValueError):
    pass


@dataclass
class Action:
    kind: str  # "answer", "concede", "pace"
    answer: str | list[str] | None = None
    version: int | None = None
    action_id: str = ""
    full_control: bool | None = None
    pass_until: str | None = None


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
    if not isinstance(data, Mapping):
        raise BadAction("An action is a set of form fields.")
    kind = _one(data, "action")
    if kind == "answer":
        version = _version(data)
        action_id = str(_one(data, "action_id") or "")[:64]
        position_fields = {k: v for k, v in data.items() if str(k).startswith("pos:")}
        if position_fields:
            return Action("answer", _ordering(data, position_fields), version, action_id)
        option = _one(data, "option")
        if _one(data, "multi") is not None:
            if option is None:
                option = []
            elif isinstance(option, str):
                option = [option]
        if option is None:
            raise BadAction("Choose an option first.")
        if isinstance(option, list):
            if not all(isinstance(o, str) for o in option):
                raise BadAction("Options are named by their ids.")
        elif not isinstance(option, str):
            raise BadAction("Options are named by their ids.")
        return Action("answer", option, version, action_id)
    if kind == "concede":
        return Action("concede")
    if kind == "pace":
        action = Action("pace")
        full_control = _one(data, "full_control")
        if full_control is not None:
            if full_control not in ("on", "off"):
                raise BadAction("full_control is on or off.")
            action.full_control = full_control == "on"
        pass_until = _one(data, "pass_until")
        if pass_until is not None:
            if pass_until not in dict(Seat.PASS_MODES):
                raise BadAction(f"Unknown pass mode {pass_until!r}.")
            action.pass_until = pass_until
        if action.full_control is None and action.pass_until is None:
            raise BadAction("A pace change names full_control or pass_until.")
        return action
    raise BadAction(f"Unknown action {kind!r}; actions are answer, concede and pace.")


def _version(data: Mapping[str, Any]) -> int:
    raw = _one(data, "version")
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise BadAction(
            "The action does not say which version of the game it was made on."
        ) from None


def _ordering(data: Mapping[str, Any], fields: dict[str, Any]) -> list[str]:
    """Ordered decisions come as `pos:<option id>` = 1..N (1 = first/top)."""
    ranked = []
    for key in fields:
        value = _one(data, key)
        try:
            ranked.append((int(value), key[4:]))
        except (TypeError, ValueError):
            raise BadAction("Each position is a number.") from None
    positions = [p for p, _ in ranked]
    if len(set(positions)) != len(positions):
        raise BadAction("Give each one a different position.")
    return [option for _, option in sorted(ranked)]


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


class CreateGameForm(DeckChoiceForm):
    custom_dungeons = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Custom dungeons players may also enter",
        help_text="The three official dungeons (and Undercity, through the initiative) can "
        "always be entered; tick custom dungeons made in the admin to allow them too.",
    )
    scenario = forms.FileField(
        required=False,
        label="Or start from a position",
        help_text="A scenario file (YAML): its setup becomes the starting position; "
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

    def clean(self) -> dict[str, Any]:
        upload = self.files.get("scenario") if self.files else None
        if upload:
            data = self.cleaned_data
            raw = upload.read(200_000)
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
    """A guest keeps their player and history by choosing a username and password."""

    username = forms.CharField(max_length=150)
    password = forms.CharField(widget=forms.PasswordInput)

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

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
