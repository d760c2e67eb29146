"""The dungeon admin: adding and changing dungeons with rooms and effect steps as forms, every
validation error named, versions kept and restored, import/export, and permissions."""

from __future__ import annotations

import copy
import io

import pytest
import yaml
from django.contrib.auth.models import Permission, User

from dungeons.models import DungeonCard, DungeonRevision
from dungeons.steps import ALL_PARAMS, step_to_fields
from game.engine.ops import WORDS, data_params
from tests.dungeon_samples import cellar

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/dungeons/dungeoncard/add/"
# Parameters picked as ticked words (keywords, card types) rather than typed.
WORD_CHOICES = {n for n, p in data_params().items() if p.type == WORDS and p.choices}

CELLAR = cellar()


def post_data(dungeon: dict, card: DungeonCard | None = None) -> dict[str, str | list[str]]:
    """The admin form's POST for `dungeon` (new rooms and steps only): exits as the ticked
    room names, each step with its operation's fields only."""
    data: dict[str, str | list[str]] = {
        "name": dungeon["name"],
        "subtype": dungeon.get("subtype", ""),
        "text": dungeon.get("text", ""),
        "rooms-TOTAL_FORMS": str(len(dungeon["rooms"])),
        "rooms-INITIAL_FORMS": "0",
        "rooms-MIN_NUM_FORMS": "0",
        "rooms-MAX_NUM_FORMS": "1000",
        "revisions-TOTAL_FORMS": "0",
        "revisions-INITIAL_FORMS": "0",
        "revisions-MIN_NUM_FORMS": "0",
        "revisions-MAX_NUM_FORMS": "1000",
    }
    for i, room in enumerate(dungeon["rooms"]):
        p = f"rooms-{i}-"
        data[p + "position"] = str(i)
        data[p + "name"] = room["name"]
        data[p + "text"] = room["text"]
        data[p + "leads_to"] = list(room.get("leads_to", []))
        steps = room.get("effect", [])
        data[p + "steps-TOTAL_FORMS"] = str(len(steps))
        data[p + "steps-INITIAL_FORMS"] = "0"
        data[p + "steps-MIN_NUM_FORMS"] = "0"
        data[p + "steps-MAX_NUM_FORMS"] = "1000"
        for j, step in enumerate(steps):
            q = f"{p}steps-{j}-"
            data[q + "position"] = str(j)
            fields = step_to_fields(step)
            for key in ["op", *ALL_PARAMS]:
                value = fields.get(key, "")
                if key in WORD_CHOICES:  # ticked boxes: nothing is sent when none is ticked
                    if value:
                        data[q + key] = [w.strip() for w in str(value).split(",")]
                    continue
                if isinstance(value, bool):
                    if value:
                        data[q + key] = "on"
                    continue
                data[q + key] = "" if value is None else str(value)
    return data


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)
    return client


def test_an_admin_creates_a_playable_dungeon_with_a_fork(admin_client):
    resp = admin_client.post(ADD_URL, post_data(CELLAR))
    assert resp.status_code == 302, resp.content.decode()[:3000]
    card = DungeonCard.objects.get(name="Test Cellar")
    assert not card.official
    got = card.to_dict()
    assert got["rooms"] == CELLAR["rooms"]
    spec = card.to_spec()
    assert spec.rooms["Stairs"].leads_to == ("Left", "Right")
    assert card.revisions.count() == 1


def _errors_for(admin_client, change) -> str:
    dungeon = copy.deepcopy(CELLAR)
    change(dungeon)
    before = DungeonCard.objects.count()
    resp = admin_client.post(ADD_URL, post_data(dungeon))
    assert resp.status_code == 200, "an invalid dungeon must not be saved"
    assert DungeonCard.objects.count() == before
    return resp.content.decode()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["rooms"][3]["leads_to"].append("Stairs"), "Rooms form a cycle"),
        (
            lambda d: d["rooms"][0]["leads_to"].remove("Right"),
            "Nothing leads to room &#x27;Right&#x27;",
        ),
        (
            lambda d: d["rooms"][0].update(leads_to=[]) or d["rooms"][1].update(leads_to=[]),
            "only the top room may have no way in",
        ),
        (lambda d: d["rooms"][1].update(name="Right"), "Two rooms are named &#x27;Right&#x27;"),
        (lambda d: d["rooms"][2].update(text=""), "This field is required"),
        (
            lambda d: d["rooms"][1]["effect"][0].update(token="Treasure"),
            "gain life takes who, amount; not token",
        ),
        (lambda d: d["rooms"][1]["effect"][0].pop("amount"), "gain life needs amount"),
        (
            lambda d: d["rooms"][0]["effect"][0].update(op="explode"),
            "Select a valid choice. explode is not one of the available choices",
        ),
        (
            lambda d: d["rooms"][0]["leads_to"].append("Nowhere"),
            "leads to &#x27;Nowhere&#x27;, which is not a room",
        ),
    ],
)
def test_every_validation_error_is_reported_and_nothing_is_saved(admin_client, change, message):
    html = _errors_for(admin_client, change)
    assert message in html


def test_no_bottommost_room_is_reported(admin_client):
    def loop(d):
        d["rooms"] = d["rooms"][:2]
        d["rooms"][0]["leads_to"] = ["Left"]
        d["rooms"][1]["leads_to"] = ["Stairs"]

    html = _errors_for(admin_client, loop)
    assert "no bottommost room" in html


def test_change_keeps_versions_and_an_earlier_one_can_be_restored(admin_client):
    card = DungeonCard.objects.get(name="Lost Mine of Phandelver")
    start = card.revisions.count()
    data = card.to_dict()
    edited = copy.deepcopy(data)
    edited["rooms"][0]["text"] = "Scry 2."
    edited["rooms"][0]["effect"] = [{"op": "scry", "amount": 2}]
    from dungeons.storage import save_dungeon

    save_dungeon(edited, note="test edit")
    card.refresh_from_db()
    assert card.revisions.count() == start + 1
    assert card.to_dict()["rooms"][0]["text"] == "Scry 2."
    old = card.revisions.order_by("created", "id").first()
    url = f"/admin/dungeons/dungeoncard/{card.pk}/restore/{old.pk}/"
    page = admin_client.get(url)
    assert page.status_code == 200 and "Scry 1." in page.content.decode()
    resp = admin_client.post(url)
    assert resp.status_code == 302
    card.refresh_from_db()
    assert card.to_dict()["rooms"] == data["rooms"]
    assert card.revisions.count() == start + 2


def test_change_page_lists_versions_and_offers_export(admin_client):
    card = DungeonCard.objects.get(name="Undercity")
    html = admin_client.get(f"/admin/dungeons/dungeoncard/{card.pk}/change/").content.decode()
    assert "Restore this version" in html
    assert "Export (YAML)" in html
    assert "Throne of the Dead Three" in html
    exported = admin_client.get(f"/admin/dungeons/dungeoncard/{card.pk}/export/")
    assert yaml.safe_load(exported.content) == card.to_dict()


def test_import_in_the_admin_validates(admin_client):
    bad = copy.deepcopy(CELLAR)
    bad["rooms"][3]["leads_to"] = ["Stairs"]
    f = io.BytesIO(yaml.safe_dump(bad).encode())
    f.name = "bad.yaml"
    resp = admin_client.post("/admin/dungeons/dungeoncard/import/", {"file": f})
    assert resp.status_code == 200 and "cycle" in resp.content.decode()
    assert not DungeonCard.objects.filter(name="Test Cellar").exists()
    good = io.BytesIO(yaml.safe_dump(CELLAR).encode())
    good.name = "good.yaml"
    resp = admin_client.post("/admin/dungeons/dungeoncard/import/", {"file": good})
    assert resp.status_code == 302
    assert DungeonCard.objects.get(name="Test Cellar").to_dict()["rooms"] == CELLAR["rooms"]


def test_duplicate_as_custom(admin_client):
    card = DungeonCard.objects.get(name="Tomb of Annihilation")
    resp = admin_client.post(
        "/admin/dungeons/dungeoncard/",
        {"action": "duplicate_as_custom", "_selected_action": [card.pk]},
    )
    assert resp.status_code == 302
    copy_ = DungeonCard.objects.get(name="Tomb of Annihilation (custom)")
    assert not copy_.official
    assert copy_.to_dict()["rooms"] == card.to_dict()["rooms"]


def test_only_staff_with_dungeon_permissions_reach_the_pages(client):
    assert client.get(ADD_URL).status_code == 302  # to the login page
    staff = User.objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    assert client.get(ADD_URL).status_code == 403
    card = DungeonCard.objects.first()
    assert client.get(f"/admin/dungeons/dungeoncard/{card.pk}/export/").status_code == 403
    staff.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="dungeons", codename__contains="dungeoncard"
        )
    )
    staff = User.objects.get(pk=staff.pk)
    client.force_login(staff)
    assert client.get(ADD_URL).status_code == 200
    assert DungeonRevision.objects.exists()
