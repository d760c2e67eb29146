"""The forms that start a game: a deck (a preset, or deck text pasted in the usual format), a
chess clock, a game with a friend (New game, or from a scenario file), a game against the
computer, Play now (quick pairing) and playing on from a point of a replay.
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms

from game.decklists import DeckError, parse_decklist
from game.decks import STARTER_DECKS
from game.scenario.loader import MAX_FILE_BYTES
from game.services import (
    DAYS_PER_MOVE,
    MAX_INCREMENT,
    MAX_MINUTES,
    PRESETS,
    ActionRefused,
    TimeControl,
)

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
