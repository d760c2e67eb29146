"""Migration 0005 (a step becomes one JSON value) keeps every dungeon exactly: a database at
0004 holding official dungeons as printed, an edited official one, a custom one whose steps use
most parameters, and their saved versions exports the same YAML before and after (and again
after going back)."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dungeons.models import DungeonCard
from dungeons.official import official_dungeon_dicts
from dungeons.steps import ALL_PARAMS, fields_to_step, step_to_fields
from tests.dungeon_samples import cellar

pytestmark = pytest.mark.django_db(transaction=True)

COLUMNS_KEPT = ("dungeons", "0004_dungeon_designers_group")


def _migrate(target: tuple[str, str] | None) -> Any:
    """Migrate the dungeons app to `target` (its latest migration when None); its models then."""
    executor = MigrationExecutor(connection)
    if target is None:
        target = executor.loader.graph.leaf_nodes("dungeons")[0]
    executor.migrate([target])
    return MigrationExecutor(connection).loader.project_state(target).apps


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _custom() -> dict[str, Any]:
    """A custom dungeon whose steps give most parameters of the vocabulary."""
    dungeon = cellar()
    dungeon["name"] = "Hall of Many Things"
    dungeon["subtype"] = "Undercity"
    dungeon["text"] = "Only by venturing into Undercity."
    rooms = {room["name"]: room for room in dungeon["rooms"]}
    rooms["Stairs"]["effect"] = [
        {
            "op": "modify",
            "target": "creature",
            "power": -2,
            "toughness": 0,
            "keywords": ["flying", "first strike"],
            "duration": "until_next_turn",
            "cant_attack": True,
            "set_base": [1, 1],
            "set_subtypes": ["Bird", "Frog"],
        },
        {"op": "add_counters", "target": 0, "counter": "-1/-1", "amount": 2},
        {"op": "venture", "undercity": True},
    ]
    rooms["Left"]["effect"] = [
        {"op": "create_token", "token": "Skeleton", "count": 3, "describe": "bony friends"},
        {"op": "lose_life_unless", "who": "each_opponent", "amount": 3, "unless": "discard_card"},
        {"op": "exile_top_may_play", "amount": 2, "until": "end_of_next_turn"},
    ]
    rooms["Right"]["effect"] = [
        {"op": "discard_and_sacrifice_each", "types": ["Creature", "Land"]},
        {"op": "lose_life", "who": "target", "amount": 1, "target": "player"},
    ]
    rooms["Vault"]["effect"] = [
        {"op": "throne_of_the_dead_three", "reveal": 7, "counters": 0},
        {"op": "draw_reveal_cast_free", "amount": 1},
    ]
    return dungeon


def _edited(printed: dict[str, Any]) -> dict[str, Any]:
    edited = copy.deepcopy(printed)
    edited["rooms"][0]["effect"] = [{"op": "gain_life", "who": "each_player", "amount": 5}]
    edited["rooms"][-1]["text"] = "An edited bottom room."
    return edited


def _save_in_columns(apps: Any, data: dict[str, Any], *, official: bool) -> Any:
    """What saving a dungeon wrote while a step was a column per parameter."""
    card = apps.get_model("dungeons", "DungeonCard").objects.create(
        name=data["name"],
        subtype=data.get("subtype") or "",
        text=data.get("text", ""),
        official=official,
    )
    _write_rooms(apps, card, data)
    return card


def _write_rooms(apps: Any, card: Any, data: dict[str, Any]) -> None:
    card.rooms.all().delete()
    Room = apps.get_model("dungeons", "Room")
    EffectStep = apps.get_model("dungeons", "EffectStep")
    rooms = {}
    for i, room in enumerate(data["rooms"]):
        rooms[room["name"]] = Room.objects.create(
            dungeon=card, name=room["name"], position=i, text=room["text"]
        )
        for j, step in enumerate(room["effect"]):
            EffectStep.objects.create(room=rooms[room["name"]], position=j, **step_to_fields(step))
    RoomExit = apps.get_model("dungeons", "RoomExit")
    for room in data["rooms"]:
        for j, target in enumerate(room.get("leads_to") or []):
            RoomExit.objects.create(
                from_room=rooms[room["name"]], to_room=rooms[target], position=j
            )
    _record_revision(apps, card, note="saved")


def _export_from_columns(card: Any) -> dict[str, Any]:
    """What a dungeon exported while a step was a column per parameter."""
    data: dict[str, Any] = {"name": card.name}
    if card.subtype:
        data["subtype"] = card.subtype
    if card.text:
        data["text"] = card.text
    data["rooms"] = [
        {
            "name": r.name,
            "text": r.text,
            "leads_to": [e.to_room.name for e in r.exits.order_by("position")],
            "effect": [
                fields_to_step({"op": s.op, **{k: getattr(s, k) for k in ALL_PARAMS}})
                for s in r.steps.order_by("position")
            ],
        }
        for r in card.rooms.order_by("position")
    ]
    return data


def _record_revision(apps: Any, card: Any, note: str) -> None:
    apps.get_model("dungeons", "DungeonRevision").objects.create(
        dungeon=card, note=note, data=_export_from_columns(card)
    )


def _revisions(apps: Any) -> dict[str, str]:
    revisions = apps.get_model("dungeons", "DungeonRevision").objects.order_by("id")
    return {f"{r.dungeon.name} #{r.pk}: {r.note}": _dump(r.data) for r in revisions}


def _exports_from_columns(apps: Any) -> dict[str, str]:
    cards = apps.get_model("dungeons", "DungeonCard").objects.order_by("name")
    return {c.name: _dump(_export_from_columns(c)) for c in cards} | _revisions(apps)


def _exports_now(apps: Any) -> dict[str, str]:
    """Each dungeon as the export command prints it, and each saved version."""
    out = {}
    for card in DungeonCard.objects.order_by("name"):
        printed = io.StringIO()
        call_command("dungeons", "export", card.name, stdout=printed)
        out[card.name] = printed.getvalue()
    return out | _revisions(apps)


def test_every_dungeon_and_every_saved_version_exports_the_same_after_the_migration():
    apps = _migrate(COLUMNS_KEPT)
    apps.get_model("dungeons", "DungeonCard").objects.all().delete()
    printed = official_dungeon_dicts()
    cards = [_save_in_columns(apps, data, official=True) for data in printed]
    # an official dungeon edited in the editor (its printed version kept as a revision)
    edited = _edited(printed[1])
    _write_rooms(apps, cards[1], edited)
    custom = _save_in_columns(apps, _custom(), official=False)
    custom.text = "Changed once."
    custom.save()
    _record_revision(apps, custom, note="saved again")

    before = _exports_from_columns(apps)
    assert yaml.safe_load(before[printed[1]["name"]]) == edited
    assert yaml.safe_load(before["Hall of Many Things"]) == _custom() | {"text": "Changed once."}

    apps = _migrate(None)
    assert _exports_now(apps) == before
    assert not DungeonCard.objects.get(name=printed[0]["name"]).is_edited()
    assert DungeonCard.objects.get(name=printed[1]["name"]).is_edited()

    # and back: the columns hold every step again, exactly
    apps = _migrate(COLUMNS_KEPT)
    assert _exports_from_columns(apps) == before
    _migrate(None)
