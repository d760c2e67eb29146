"""Dungeon cards as data: DungeonCard, Room and RoomExit, with each room's ability stored as
structured effect steps of the engine's vocabulary (game.engine.effects.STEP_PARAMS).

`dungeons/data/*.yaml` is the source of the four official dungeons (loaded by a data
migration); `DungeonCard.to_dict()` gives back that same format, and `to_spec()` the engine's
immutable `DungeonSpec`.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from game.engine.dungeon import DungeonSpec, dungeon_from_dict


class DungeonCard(models.Model):
    UNDERCITY = "Undercity"
    SUBTYPES = [("", "—"), (UNDERCITY, "Undercity (only by venturing into Undercity)")]

    name = models.CharField(max_length=100, unique=True)
    subtype = models.CharField(max_length=30, blank=True, default="", choices=SUBTYPES)
    text = models.TextField(blank=True, default="", help_text="Card text outside the rooms.")
    official = models.BooleanField(default=False, help_text="One of the four printed dungeons.")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        rooms = list(self.rooms.order_by("position").prefetch_related("exits__to_room"))
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
                "effect": r.effect,
            }
            for r in rooms
        ]
        return data

    def to_spec(self) -> DungeonSpec:
        return dungeon_from_dict(self.to_dict())


class Room(models.Model):
    dungeon = models.ForeignKey(DungeonCard, related_name="rooms", on_delete=models.CASCADE)
    name = models.CharField(max_length=100)
    position = models.PositiveIntegerField(help_text="Printed order; the first room is the top.")
    text = models.TextField()
    effect = models.JSONField(default=list, help_text="Effect steps of the engine's vocabulary.")

    class Meta:
        ordering = ["dungeon", "position"]
        constraints = [
            models.UniqueConstraint(fields=["dungeon", "name"], name="unique_room_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.dungeon.name})"


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
