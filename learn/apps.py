from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LearnConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "learn"
    verbose_name = "Learn and Puzzles"

    def ready(self) -> None:
        # Every `migrate` (a deployment, `make run`, a test database) loads the shipped puzzle
        # files into their rows: `manage.py puzzle load` does the same on request.
        post_migrate.connect(_load_shipped_puzzles, sender=self)


def _load_shipped_puzzles(sender, using: str = "default", **kwargs) -> None:
    from .loading import load_shipped_puzzles

    load_shipped_puzzles(using=using)
