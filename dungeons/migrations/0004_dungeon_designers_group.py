"""The "Dungeon designers" group: exactly the permissions the dungeon editor needs (make, change,
delete and see dungeon cards, their rooms and their steps; see the saved versions). A staff
account in this group, not a superuser, can do all of the editor and nothing else in the admin.
Arrows between rooms (RoomExit) are written by the editor from the room forms, so the group
needs no permission on them."""

from django.db import migrations

GROUP = "Dungeon designers"
PERMISSIONS = [
    *(
        f"{action}_{model}"
        for model in ("dungeoncard", "room", "effectstep")
        for action in ("add", "change", "delete", "view")
    ),
    "view_dungeonrevision",
]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are otherwise made after every migration has run; the group needs them now.
    app_config = apps.get_app_config("dungeons")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    perms = list(
        Permission.objects.filter(content_type__app_label="dungeons", codename__in=PERMISSIONS)
    )
    assert len(perms) == len(PERMISSIONS), "a dungeon permission is missing"
    group.permissions.set(perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("dungeons", "0003_effect_steps_and_revisions"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_group, remove_group)]
