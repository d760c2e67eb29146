"""`manage.py dungeons restore-official | export NAME | import FILE`."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command

from dungeons.models import DungeonCard
from dungeons.official import official_dungeon_dicts
from dungeons.storage import save_dungeon

from .test_admin import CELLAR

pytestmark = pytest.mark.django_db


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("dungeons", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_export_prints_the_data_format():
    code, out, _ = _run("export", "Lost Mine of Phandelver")
    assert code == 0
    official = next(d for d in official_dungeon_dicts() if d["name"] == "Lost Mine of Phandelver")
    assert yaml.safe_load(out) == official


def test_export_of_an_unknown_dungeon_exits_2():
    code, _, err = _run("export", "Nowhere")
    assert code == 2 and "no dungeon named 'Nowhere'" in err


def test_import_validates_and_saves(tmp_path):
    good = tmp_path / "cellar.yaml"
    good.write_text(yaml.safe_dump(CELLAR))
    code, out, _ = _run("import", str(good))
    assert code == 0 and "imported Test Cellar (4 rooms)" in out
    assert DungeonCard.objects.get(name="Test Cellar").to_dict()["rooms"] == CELLAR["rooms"]


def test_an_invalid_import_exits_2_with_the_messages(tmp_path):
    bad = dict(CELLAR, rooms=[dict(r) for r in CELLAR["rooms"]])
    bad["rooms"][2] = dict(bad["rooms"][2], text="")
    f = tmp_path / "bad.yaml"
    f.write_text(yaml.safe_dump(bad))
    code, _, err = _run("import", str(f))
    assert code == 2 and "Room 'Right' has no text" in err
    assert not DungeonCard.objects.filter(name="Test Cellar").exists()


def test_restore_official_puts_the_printed_text_back():
    data = DungeonCard.objects.get(name="Tomb of Annihilation").to_dict()
    data["rooms"][0]["text"] = "Each player loses 9 life."
    data["rooms"][0]["effect"][0]["amount"] = 9
    save_dungeon(data)
    code, out, _ = _run("restore-official")
    assert code == 0 and "restored Tomb of Annihilation" in out
    for official in official_dungeon_dicts():
        assert DungeonCard.objects.get(name=official["name"]).to_dict() == official
