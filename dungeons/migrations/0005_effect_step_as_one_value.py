"""An effect step becomes one JSON value (`EffectStep.data`, the engine's step dict with its
`op`) instead of a column per parameter. Every row is converted exactly as the models read it
before (`_step_columns`), so every dungeon and its export stay the same; reversible."""

from django.db import migrations, models

from dungeons.migrations._step_columns import COLUMNS, columns_to_step, step_to_columns


def columns_to_data(apps, schema_editor):
    EffectStep = apps.get_model("dungeons", "EffectStep")
    rows = list(EffectStep.objects.all())
    for row in rows:
        row.data = columns_to_step({"op": row.op, **{c: getattr(row, c) for c in COLUMNS}})
    EffectStep.objects.bulk_update(rows, ["data"], batch_size=500)


def data_to_columns(apps, schema_editor):
    EffectStep = apps.get_model("dungeons", "EffectStep")
    rows = list(EffectStep.objects.all())
    for row in rows:
        for column, value in step_to_columns(row.data).items():
            setattr(row, column, value)
    EffectStep.objects.bulk_update(rows, ["op", *COLUMNS], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("dungeons", "0004_dungeon_designers_group")]

    operations = [
        migrations.AddField(
            model_name="effectstep",
            name="data",
            field=models.JSONField(null=True, verbose_name="step"),
        ),
        # A default, so that going back can add the column again to rows that exist.
        migrations.AlterField(
            model_name="effectstep",
            name="op",
            field=models.CharField(default="", max_length=40, verbose_name="operation"),
        ),
        migrations.RunPython(columns_to_data, data_to_columns),
        *(migrations.RemoveField(model_name="effectstep", name=c) for c in ("op", *COLUMNS)),
        migrations.AlterField(
            model_name="effectstep",
            name="data",
            field=models.JSONField(verbose_name="step"),
        ),
    ]
