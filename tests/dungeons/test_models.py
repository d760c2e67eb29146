"""The data migration loads the official dungeons; the models give back the YAML format."""

from __future__ import annotations

import pytest

from dungeons.models import DungeonCard
from dungeons.official import official_dungeon_dicts, official_dungeons

pytestmark = pytest.mark.django_db


def test_the_migration_loads_the_four_official_dungeons_exactly_as_the_data_files():
    names = set(DungeonCard.objects.filter(official=True).values_list("name", flat=True))
    assert names == {
        "Tomb of Annihilation",
        "Lost Mine of Phandelver",
        "Dungeon of the Mad Mage",
        "Undercity",
    }
    for data in official_dungeon_dicts():
        card = DungeonCard.objects.get(name=data["name"])
        expected = {k: v for k, v in data.items()}
        got = card.to_dict()
        for room in expected["rooms"]:
            room.setdefault("leads_to", [])
        assert got == expected


def test_models_build_the_same_engine_spec():
    for name, spec in official_dungeons().items():
        assert DungeonCard.objects.get(name=name).to_spec() == spec
