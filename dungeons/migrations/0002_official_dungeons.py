"""Load the four official dungeons from dungeons/data/ (the single source of their text).

Self-contained on purpose: it writes the schema of 0001 (a room's ability as a JSON list),
which 0003 turns into EffectStep rows.
"""

from django.db import migrations


def load(apps, schema_editor):
    from dungeons.official import official_dungeon_dicts

    DungeonCard = apps.get_model("dungeons", "DungeonCard")
    Room = apps.get_model("dungeons", "Room")
    RoomExit = apps.get_model("dungeons", "RoomExit")
    for data in official_dungeon_dicts():
        card = DungeonCard.objects.create(
            name=data["name"],
            subtype=data.get("subtype") or "",
            text=data.get("text", ""),
            official=True,
        )
        rooms = {}
        for i, room in enumerate(data["rooms"]):
            rooms[room["name"]] = Room.objects.create(
                dungeon=card, name=room["name"], position=i, text=room["text"],
                effect=room["effect"],
            )
        for room in data["rooms"]:
            for j, target in enumerate(room.get("leads_to") or []):
                RoomExit.objects.create(
                    from_room=rooms[room["name"]], to_room=rooms[target], position=j
                )


def unload(apps, schema_editor):
    apps.get_model("dungeons", "DungeonCard").objects.filter(official=True).delete()


class Migration(migrations.Migration):
    dependencies = [("dungeons", "0001_dungeon_cards")]
    operations = [migrations.RunPython(load, unload)]
