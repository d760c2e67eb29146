"""Saving a dungeon definition (the dungeons/data YAML format) into the models, and the
revision history."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from game.engine.dungeon import DungeonError, validate_dungeon_dict

from .models import DungeonCard, DungeonRevision, EffectStep, Room, RoomExit
from .steps import normal_step


@transaction.atomic
def save_dungeon(
    data: dict[str, Any], *, official: bool | None = None, author: Any = None, note: str = ""
) -> DungeonCard:
    """Validate `data` and create or replace the dungeon card of that name; record a revision.

    Raises DungeonError (every problem, each naming its room) and saves nothing when invalid.
    """
    problems = validate_dungeon_dict(data)
    if problems:
        raise DungeonError(problems)
    defaults: dict[str, Any] = {"subtype": data.get("subtype") or "", "text": data.get("text", "")}
    if official is not None:
        defaults["official"] = official
    card, _ = DungeonCard.objects.update_or_create(name=data["name"], defaults=defaults)
    card.rooms.all().delete()
    rooms = {}
    for i, room in enumerate(data["rooms"]):
        rooms[room["name"]] = Room.objects.create(
            dungeon=card, name=room["name"], position=i, text=room["text"]
        )
        for j, step in enumerate(room["effect"]):
            EffectStep.objects.create(room=rooms[room["name"]], position=j, data=normal_step(step))
    for room in data["rooms"]:
        for j, target in enumerate(room.get("leads_to") or []):
            RoomExit.objects.create(
                from_room=rooms[room["name"]], to_room=rooms[target], position=j
            )
    record_revision(card, author=author, note=note)
    return card


def record_revision(card: DungeonCard, *, author: Any = None, note: str = "") -> DungeonRevision:
    return DungeonRevision.objects.create(
        dungeon=card,
        author=author if getattr(author, "pk", None) else None,
        note=note,
        data=card.to_dict(),
    )


def restore_revision(revision: DungeonRevision, *, author: Any = None) -> DungeonCard:
    """Put a dungeon back as it was in `revision` (recorded as a new revision)."""
    return save_dungeon(
        revision.data,
        author=author,
        note=f"restored the version of {revision.created:%Y-%m-%d %H:%M}",
    )


def restore_printed(card: DungeonCard, *, author: Any = None) -> DungeonCard:
    """Put an official dungeon back as printed (dungeons/data/), recorded as a new revision."""
    printed = card.printed()
    if printed is None:
        raise ValueError(f"{card.name} is not an official dungeon: it has no printed version")
    return save_dungeon(printed, official=True, author=author, note="restored the printed version")
