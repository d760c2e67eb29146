from django.apps import AppConfig


class DungeonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "dungeons"
    verbose_name = "Dungeons"
