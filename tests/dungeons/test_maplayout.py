"""Dungeon maps: every arrow points down the card and never crosses a room that is not one of its
ends (the official dungeons and random valid graphs), rows never overlap, and the admin preview
draws the saved dungeon with the game's map template."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dungeons.maplayout import Arrow, DungeonMap, RoomBox, layout
from dungeons.models import DungeonCard
from dungeons.official import official_dungeons
from game.engine.dungeon import dungeon_from_dict, validate_dungeon_dict


def crosses(a: tuple[float, float], b: tuple[float, float], box: RoomBox) -> bool:
    """Whether the segment a-b enters the inside of `box` (its edges do not count: an arrow
    starts on the bottom edge of one room and ends on the top edge of another)
    (Liang-Barsky clipping against the box shrunk by half a pixel)."""
    left, right = box.x + 0.5, box.x + box.w - 0.5
    top, bottom = box.y + 0.5, box.y + box.h - 0.5
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def boxes_crossed(m: DungeonMap, arrow: Arrow) -> list[str]:
    segments = list(zip(arrow.points, arrow.points[1:], strict=False))
    return [r.name for r in m.rooms if any(crosses(a, b, r) for a, b in segments)]


def check_map(m: DungeonMap, spec) -> None:
    assert len(m.arrows) == sum(len(r.leads_to) for r in spec.rooms.values())
    by_name = {r.name: r for r in m.rooms}
    for arrow in m.arrows:
        assert all(
            y1 < y2 for (_, y1), (_, y2) in zip(arrow.points, arrow.points[1:], strict=False)
        )
        start, end = by_name[arrow.start], by_name[arrow.end]
        assert arrow.points[0] == (start.x + start.w / 2, start.y + start.h)
        assert arrow.points[-1] == (end.x + end.w / 2, end.y)
        assert boxes_crossed(m, arrow) == [], (arrow.start, arrow.end)
        assert all(0 <= x <= m.width and 0 <= y <= m.height for x, y in arrow.points)
    for i, a in enumerate(m.rooms):
        assert a.x >= 0 and a.x + a.w <= m.width and a.y >= 0 and a.y + a.h <= m.height
        for b in m.rooms[i + 1 :]:
            apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
            assert apart, (a.name, b.name)


@pytest.mark.parametrize("name", sorted(official_dungeons()))
def test_arrows_point_down_cross_no_room_and_boxes_do_not_overlap(name):
    spec = official_dungeons()[name]
    m = layout(spec, current=spec.top)
    check_map(m, spec)
    reachable = {r.name for r in m.rooms if r.reachable}
    assert reachable == set(spec.rooms[spec.top].leads_to)


def test_the_tomb_arrow_from_the_oubliette_goes_around_the_sandfall_cell():
    m = layout(official_dungeons()["Tomb of Annihilation"])
    rooms = {r.name: r for r in m.rooms}
    (arrow,) = [a for a in m.arrows if a.start == "Oubliette"]
    # A straight line between the two rooms would cross the Sandfall Cell (the row between).
    straight = Arrow((arrow.points[0], arrow.points[-1]))
    assert boxes_crossed(m, straight) == ["Sandfall Cell"]
    assert len(arrow.points) == 4  # down through its own slot in the Sandfall Cell's row
    assert boxes_crossed(m, arrow) == []
    sandfall = rooms["Sandfall Cell"]
    slot_x = arrow.points[1][0]
    assert slot_x >= sandfall.x + sandfall.w + 10 or slot_x <= sandfall.x - 10


@st.composite
def dungeon_graphs(draw) -> dict:
    """A valid dungeon: rooms in printed order, each room after the first led to by an earlier
    one (so no cycle and every room reachable), arrows that may skip any number of rows."""
    n = draw(st.integers(min_value=2, max_value=12))
    names = [f"Room {i}" for i in range(n)]
    leads: dict[int, set[int]] = {i: set() for i in range(n)}
    for j in range(1, n):
        leads[draw(st.integers(min_value=0, max_value=j - 1))].add(j)
        for i in draw(st.lists(st.integers(min_value=0, max_value=j - 1), max_size=2)):
            leads[i].add(j)
    texts = st.text(alphabet="abcdefgh ", min_size=1, max_size=90).filter(str.strip)
    return {
        "name": "Random",
        "rooms": [
            {
                "name": names[i],
                "text": draw(texts),
                "leads_to": [names[j] for j in sorted(leads[i])],
                "effect": [{"op": "scry", "amount": 1}],
            }
            for i in range(n)
        ],
    }


@settings(max_examples=150, deadline=None)
@given(dungeon_graphs())
def test_random_valid_dungeons_draw_no_arrow_through_a_room(data):
    assert validate_dungeon_dict(data) == []
    spec = dungeon_from_dict(data)
    check_map(layout(spec, current=spec.top), spec)


def test_choices_become_buttons_only_for_the_rooms_offered():
    spec = official_dungeons()["Lost Mine of Phandelver"]
    m = layout(spec, current="Cave Entrance", room_options={"Goblin Lair": "room:Goblin Lair"})
    assert [r.name for r in m.rooms if r.option_id] == ["Goblin Lair"]


@pytest.mark.django_db
def test_the_admin_change_page_previews_the_map(admin_client):
    card = DungeonCard.objects.get(name="Dungeon of the Mad Mage")
    html = admin_client.get(f"/admin/dungeons/dungeoncard/{card.pk}/change/").content.decode()
    assert 'class="dungeon-map' in html
    assert html.count('<polyline class="arrow') == 10
    assert 'data-room="Mad Wizard&#39;s Lair"' in html  # (Jinja2's escape of ')
