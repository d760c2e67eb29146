"""/cards.json: the pool's printed faces for the zoom panel (static/js/zoom.js), public and the
same for everyone."""

from __future__ import annotations

import pytest

from game.engine.cards import CARDS, TOKENS


@pytest.mark.django_db
def test_every_card_and_token_of_the_pool_with_its_printed_face(client):
    response = client.get("/cards.json")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=3600"
    cards = response.json()
    assert set(cards) == set(CARDS) | set(TOKENS)
    varis = cards["Varis, Silverymoon Ranger"]
    assert varis == {
        "cost": ["1", "G", "G"],
        "type": CARDS["Varis, Silverymoon Ranger"].type_line,
        "text": CARDS["Varis, Silverymoon Ranger"].text,
        "pt": "3/3",
        "colors": "G",
    }
    assert cards["Forest"]["colors"] == "land" and cards["Forest"]["pt"] is None
    assert cards["Triumphant Adventurer"]["colors"] == "multi"


@pytest.mark.django_db
def test_it_needs_no_login_and_says_nothing_of_any_game(client):
    from tests.web.helpers import make_player, start_game

    game = start_game(make_player("alice"), make_player("bob"), seed=1)
    body = client.get("/cards.json").content.decode()
    assert game.code not in body and "alice" not in body


@pytest.mark.django_db
def test_two_kinds_of_token_with_one_name_each_show_their_own_face(client):
    """The 1/1 Skeleton and the 4/1 Skeleton with menace share a name: each shows its own
    power and toughness unmarked (no "down" on the 1/1) and the zoom looks up its own kind."""
    from tests.web.helpers import make_player, start_position

    cards = client.get("/cards.json").json()
    assert cards["Skeleton"]["pt"] == "1/1" and cards["Skeleton"]["text"] == ""
    assert cards["Skeleton 4/1 menace"]["pt"] == "4/1"
    assert cards["Skeleton 4/1 menace"]["text"] == "Menace"
    alice, bob = make_player("alice"), make_player("bob")
    game = start_position(alice, bob, "two_skeletons.yaml")
    client.force_login(alice.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert page.count('data-name="Skeleton"') == 2
    assert page.count('data-card="Skeleton 4/1 menace"') == 1
    assert '<b class="">1</b>/<b class="">1</b>' in page
    assert '<b class="">4</b>/<b class="">1</b>' in page
    assert 'class="down"' not in page
