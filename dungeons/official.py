"""Reading dungeon definitions from `dungeons/data/` (YAML) into engine `DungeonSpec`s.

This module is pure Python (no Django): the engine's tests, the scenario runner and the data
migration all read the same files through it.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from game.engine.dungeon import DungeonSpec, dungeon_from_dict

DATA_DIR = Path(__file__).resolve().parent / "data"
OFFICIAL_FILES = (
    "tomb_of_annihilation.yaml",
    "lost_mine_of_phandelver.yaml",
    "dungeon_of_the_mad_mage.yaml",
    "undercity.yaml",
)


def read_dungeon_file(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a dungeon file holds one mapping")
    return data


@cache
def official_dungeon_dicts() -> tuple[dict[str, Any], ...]:
    return tuple(read_dungeon_file(DATA_DIR / name) for name in OFFICIAL_FILES)


def official_dungeons() -> dict[str, DungeonSpec]:
    """The four official dungeons by name, in printed-set order."""
    specs = [dungeon_from_dict(d) for d in official_dungeon_dicts()]
    return {s.name: s for s in specs}


def printed_dungeon(name: str) -> dict[str, Any] | None:
    """A copy of the printed version of the official dungeon `name` (None if there is none)."""
    for data in official_dungeon_dicts():
        if data["name"] == name:
            return copy.deepcopy(data)
    return None
