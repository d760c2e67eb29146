"""Saving a dungeon definition (the dungeons/data YAML format) into the models."""

from __future__ import annotations

from typing import Any

from game.engine.dungeon import DungeonError, validate_dungeon_dict


def save_dungeon(data: dict[str, Any], *, official: bool = False, models: Any = None) -> Any:
    """Validate `data` and create or replace the dungeon card of that name.

    `models` lets a data migration pass its historical models (DungeonCard, Room, RoomExit).
    """
    problems = validate_dungeon_dict(data)
    if problems:
        raise DungeonError(problems)
    if models is None:
        from .models import DungeonCard, Room, RoomExit
    else:
        DungeonCard, Room, RoomExit = models  # noqa: N806
    card, _ = DungeonCard.objects.update_or_create(
        name=data["name"],
        defaults={
            "subtype": data.get("subtype") or "",
            "text": data.get("text", ""),
            "official": official,
        },
    )
    card.rooms.all().delete()
    rooms = {}
    for i, room in enumerate(data["rooms"]):
        rooms[room["name"]] = Room.objects.create(
            dungeon=card, name=room["name"], position=i, text=room["text"], effect=room["effect"]
        )
    for room in data["rooms"]:
        for j, target in enumerate(room.get("leads_to") or []):
            RoomExit.objects.create(
                from_room=rooms[room["name"]], to_room=rooms[target], position=j
            )
    return card
