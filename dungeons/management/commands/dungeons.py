"""`manage.py dungeons restore-official | export NAME | import FILE`."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from django.core.management.base import BaseCommand, CommandParser

from dungeons.models import DungeonCard
from dungeons.official import official_dungeon_dicts, read_dungeon_file
from dungeons.storage import save_dungeon
from game.engine.dungeon import DungeonError


class Command(BaseCommand):
    help = "Restore the official dungeons, or export / import one in the dungeons/data format."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("restore-official", help="put the four official dungeons back as printed")
        export = sub.add_parser("export", help="print a dungeon as YAML")
        export.add_argument("name")
        imp = sub.add_parser("import", help="validate and save a dungeon from a YAML file")
        imp.add_argument("file")

    def handle(self, *args, **options) -> None:
        action = options["action"]
        if action == "restore-official":
            for data in official_dungeon_dicts():
                save_dungeon(data, official=True, note="restore-official")
                self.stdout.write(f"restored {data['name']}")
            return
        if action == "export":
            card = DungeonCard.objects.filter(name=options["name"]).first()
            if card is None:
                names = ", ".join(DungeonCard.objects.values_list("name", flat=True))
                self.stderr.write(f"no dungeon named {options['name']!r}; dungeons: {names}")
                sys.exit(2)
            self.stdout.write(yaml.safe_dump(card.to_dict(), sort_keys=False, allow_unicode=True))
            return
        path = Path(options["file"])
        try:
            data = read_dungeon_file(path)
        except (OSError, ValueError, yaml.YAMLError) as e:
            self.stderr.write(f"{path}: {e}")
            sys.exit(2)
        official = {d["name"] for d in official_dungeon_dicts()}
        if data.get("name") in official:
            self.stderr.write(
                f"{path}: {data['name']} is an official dungeon; use restore-official, "
                "or import it under another name"
            )
            sys.exit(2)
        try:
            card = save_dungeon(data, official=False, note=f"imported from {path.name}")
        except DungeonError as e:
            self.stderr.write(f"{path}: the dungeon is invalid:")
            for problem in e.problems:
                self.stderr.write(f"  - {problem}")
            sys.exit(2)
        self.stdout.write(f"imported {card.name} ({card.rooms.count()} rooms)")
