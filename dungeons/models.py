"""Dungeon cards as data: DungeonCard, Room, RoomExit and EffectStep (a room's ability as steps
of the engine's effect vocabulary, one row per step holding the step as one JSON value), plus
DungeonRevision (every saved version).

`dungeons/data/*.yaml` is the source of the four official dungeons (loaded by a data
migration); `DungeonCard.to_dict()` gives back that same format, and `to_spec()` the engine's
immutable `DungeonSpec`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from game.engine.dungeon import DungeonSpec, dungeon_from_dict

from .official import printed_dungeon
from .steps import normal_step, step_errors
from .wording import sentence

# How a game names an official dungeon that has been edited ("Lost Mine of Phandelver (edited)").
EDITED_SUFFIX = " (edited)"


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
        rooms = self.rooms.order_by("position").prefetch_related(
            models.Prefetch(
                "exits", RoomExit.objects.order_by("position").select_related("to_room")
            ),
            models.Prefetch("steps", EffectStep.objects.order_by("position")),
        )
        data: dict[str, Any] = {"name": self.name}
        if self.subtype:
            data["subtype"] = self.subtype
        if self.text:
            data["text"] = self.text
        data["rooms"] = [
            {
                "name": r.name,
                "text": r.text,
                "leads_to": [e.to_room.name for e in r.exits.all()],
                "effect": [s.to_step() for s in r.steps.all()],
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


class EffectStep(models.Model):
    """One step of a room ability, kept as the engine's step itself: one JSON value such as
    `{"op": "lose_life", "who": "each_opponent", "amount": 1}` (the dungeons/data format).

    Which operations and parameters exist is the engine's registry (`game/engine/ops.py`), and
    `clean()` refuses a step it refuses; the admin's form builds its fields from the same
    registry (`forms.EffectStepForm`)."""

    room = models.ForeignKey(Room, related_name="steps", on_delete=models.CASCADE)
    position = models.PositiveIntegerField(default=0)
    data = models.JSONField("step")

    class Meta:
        ordering = ["room", "position"]

    def __str__(self) -> str:
        return sentence(self.to_step())

    def to_step(self) -> dict[str, Any]:
        """A copy of the step, its keys in the order the editor writes them (a JSON column of
        PostgreSQL gives them back sorted), so an export reads the same on any database."""
        return normal_step(self.data)

    def clean(self) -> None:
        problems = step_errors(self.data)
        if problems:
            raise ValidationError(problems)


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
