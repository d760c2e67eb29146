"""Load the four official dungeons from dungeons/data/ (the single source of their text)."""

from django.db import migrations


def load(apps, schema_editor):
    from dungeons.official import official_dungeon_dicts
    from dungeons.storage import save_dungeon

    models = (apps.get_model("dungeons", n) for n in ("DungeonCard", "Room", "RoomExit"))
    models = tuple(models)
    for data in official_dungeon_dicts():
        save_dungeon(data, official=True, models=models)


def unload(apps, schema_editor):
    apps.get_model("dungeons", "DungeonCard").objects.filter(official=True).delete()


class Migration(migrations.Migration):
    dependencies = [("dungeons", "0001_dungeon_cards")]
    operations = [migrations.RunPython(load, unload)]
