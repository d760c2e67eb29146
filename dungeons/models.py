"""Dungeon cards as data: DungeonCard, Room, RoomExit and EffectStep (a room's ability as steps
of the engine's effect vocabulary, one row per step), plus DungeonRevision (every saved version).

`dungeons/data/*.yaml` is the source of the four official dungeons (loaded by a data
migration); `DungeonCard.to_dict()` gives back that same format, and `to_spec()` the engine's
immutable `DungeonSpec`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from game.engine.cards import TOKENS
from game.engine.dungeon import DungeonSpec, dungeon_from_dict
from game.engine.effects import STEP_CHOICES
from game.engine.targets import TARGET_KINDS

from .official import printed_dungeon
from .steps import ALL_PARAMS, data_ops, fields_to_step
from .wording import sentence

# How a game names an official dungeon that has been edited ("Lost Mine of Phandelver (edited)").
EDITED_SUFFIX = " (edited)"


def _choices(values: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    return [(v, v.replace("_", " ")) for v in values]


class DungeonCard(models.Model):
    UNDERCITY = "Undercity"
    SUBTYPES = [("", "—"), (UNDERCITY, "Undercity (only by venturing into Undercity)")]

    name = models.CharField(max_length=100, unique=True)
    subtype = models.CharField(max_length=30, blank=True, default="", choices=SUBTYPES)
    text = models.TextField(blank=True, default="", help_text="Card text outside the rooms.")
    official = models.BooleanField(default=False, help_text="One of the four printed dungeons.")

    class Meta:
        ordering = ["-official", "name"]

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        rooms = list(self.rooms.order_by("position").prefetch_related("exits__to_room", "steps"))
        data: dict[str, Any] = {"name": self.name}
        if self.subtype:
            data["subtype"] = self.subtype
        if self.text:
            data["text"] = self.text
        data["rooms"] = [
            {
                "name": r.name,
                "text": r.text,
                "leads_to": [e.to_room.name for e in r.exits.order_by("position")],
                "effect": [s.to_step() for s in r.steps.order_by("position")],
            }
            for r in rooms
        ]
        return data

    def to_spec(self) -> DungeonSpec:
        return dungeon_from_dict(self.to_dict())

    # official cards: the printed version, and whether this one still is it -----------------------
    def printed(self) -> dict[str, Any] | None:
        """The printed version of an official dungeon (dungeons/data/), None for a custom one."""
        return printed_dungeon(self.name) if self.official else None

    def is_edited(self) -> bool:
        """An official dungeon that is no longer as printed."""
        printed = self.printed()
        return printed is not None and self.to_dict() != printed

    def as_played(self) -> dict[str, Any]:
        """The copy a new game takes: an edited official dungeon is named as such in the game
        (its map, the log, the choice of dungeon), so nobody takes it for the printed card."""
        data = self.to_dict()
        printed = self.printed()
        if printed is not None and data != printed:  # is_edited(), reading the rooms once
            data["name"] = self.name + EDITED_SUFFIX
        return data


class Room(models.Model):
    dungeon = models.ForeignKey(DungeonCard, related_name="rooms", on_delete=models.CASCADE)
    name = models.CharField(max_length=100)
    position = models.PositiveIntegerField(help_text="Printed order; the first room is the top.")
    text = models.TextField(help_text="The room's printed ability text.")

    class Meta:
        ordering = ["dungeon", "position"]
        constraints = [
            models.UniqueConstraint(fields=["dungeon", "name"], name="unique_room_name"),
        ]

    def __str__(self) -> str:
        return self.name


class RoomExit(models.Model):
    """An arrow from one room to the next."""

    from_room = models.ForeignKey(Room, related_name="exits", on_delete=models.CASCADE)
    to_room = models.ForeignKey(Room, related_name="entrances", on_delete=models.CASCADE)
    position = models.PositiveIntegerField(default=0, help_text="Printed order of the arrows.")

    class Meta:
        ordering = ["from_room", "position"]
        constraints = [
            models.UniqueConstraint(fields=["from_room", "to_room"], name="unique_room_exit"),
        ]

    def __str__(self) -> str:
        return f"{self.from_room.name} → {self.to_room.name}"


TARGET_CHOICES = (
    [("", "—")]
    + [(k, f"new target: {k.replace('_', ' ')}") for k in TARGET_KINDS]
    + [("#0", "the first target again"), ("#1", "the second target again")]
    + [("self", "this permanent"), ("it", "the object the previous step made")]
)


class EffectStep(models.Model):
    """One step of a room ability. Which parameters an operation takes is the engine's
    `STEP_PARAMS`; the admin form rejects any other."""

    room = models.ForeignKey(Room, related_name="steps", on_delete=models.CASCADE)
    position = models.PositiveIntegerField(default=0)
    op = models.CharField("operation", max_length=40, choices=_choices(data_ops()))
    target = models.CharField(max_length=60, blank=True, default="", choices=TARGET_CHOICES)
    who = models.CharField(
        max_length=20, blank=True, default="", choices=_choices(STEP_CHOICES["who"])
    )
    amount = models.IntegerField(null=True, blank=True)
    token = models.CharField(
        max_length=40, blank=True, default="", choices=_choices(sorted(TOKENS))
    )
    count = models.IntegerField(null=True, blank=True, help_text="How many tokens.")
    describe = models.CharField(
        max_length=120, blank=True, default="", help_text="How the log names the token."
    )
    counter = models.CharField(
        max_length=10, blank=True, default="", choices=_choices(STEP_CHOICES["counter"])
    )
    power = models.IntegerField(null=True, blank=True)
    toughness = models.IntegerField(null=True, blank=True)
    keywords = models.CharField(
        max_length=120, blank=True, default="", help_text="Comma-separated, e.g. flying, haste."
    )
    duration = models.CharField(
        max_length=20, blank=True, default="", choices=_choices(STEP_CHOICES["duration"])
    )
    cant_attack = models.BooleanField(default=False)
    set_base = models.CharField(
        max_length=10, blank=True, default="", help_text="Base power/toughness, e.g. 1/1."
    )
    set_subtypes = models.CharField(max_length=80, blank=True, default="")
    undercity = models.BooleanField(default=False, help_text="Venture into Undercity.")
    unless = models.CharField(
        max_length=20, blank=True, default="", choices=_choices(STEP_CHOICES["unless"])
    )
    types = models.CharField(
        max_length=80, blank=True, default="", help_text="Comma-separated card types."
    )
    until = models.CharField(
        max_length=20, blank=True, default="", choices=_choices(STEP_CHOICES["until"])
    )
    reveal = models.IntegerField(null=True, blank=True)
    counters = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["room", "position"]

    def __str__(self) -> str:
        return sentence(self.to_step())

    def to_step(self) -> dict[str, Any]:
        return fields_to_step({"op": self.op, **{k: getattr(self, k) for k in ALL_PARAMS}})


class DungeonRevision(models.Model):
    """A saved version of a dungeon, in the dungeons/data format; restorable from the admin."""

    dungeon = models.ForeignKey(DungeonCard, related_name="revisions", on_delete=models.CASCADE)
    created = models.DateTimeField(auto_now_add=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    note = models.CharField(max_length=200, blank=True, default="")
    data = models.JSONField()

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.dungeon.name} at {self.created:%Y-%m-%d %H:%M:%S}"
