"""Dungeon maps: every arrow points down the card, rows never overlap, and the admin preview
draws the saved dungeon with the game's map template."""

from __future__ import annotations

import pytest

from dungeons.maplayout import layout
from dungeons.models import DungeonCard
from dungeons.official import official_dungeons


@pytest.mark.parametrize("name", sorted(official_dungeons()))
def test_arrows_point_down_and_boxes_do_not_overlap(name):
    spec = official_dungeons()[name]
    m = layout(spec, current=spec.top)
    assert len(m.arrows) == sum(len(r.leads_to) for r in spec.rooms.values())
    assert all(a.y2 > a.y1 for a in m.arrows)
    boxes = m.rooms
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
            assert apart, (a.name, b.name)
    reachable = {r.name for r in boxes if r.reachable}
    assert reachable == set(spec.rooms[spec.top].leads_to)


def test_choices_become_buttons_only_for_the_rooms_offered():
    spec = official_dungeons()["Lost Mine of Phandelver"]
    m = layout(spec, current="Cave Entrance", room_options={"Goblin Lair": "room:Goblin Lair"})
    assert [r.name for r in m.rooms if r.option_id] == ["Goblin Lair"]


@pytest.mark.django_db
def test_the_admin_change_page_previews_the_map(admin_client):
    card = DungeonCard.objects.get(name="Dungeon of the Mad Mage")
    html = admin_client.get(f"/admin/dungeons/dungeoncard/{card.pk}/change/").content.decode()
    assert 'class="dungeon-map' in html
    assert html.count('<line class="arrow') == 10
    assert 'data-room="Mad Wizard&#39;s Lair"' in html  # (Jinja2's escape of ')
