from django.contrib.auth.models import User

from .helpers import designers_group, make_player


def test_the_lobby_names_the_game_and_loads_htmx_with_websockets(client, db):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Venture" in html
    assert "Play as guest" in html
    # htmx 2 and its ws extension, served by django-htmx from our own static files.
    assert "django_htmx/htmx-2.min.js" in html
    assert "django_htmx/ext/hx-ws-2.min.js" in html


def test_the_header_links_the_dungeon_editor_for_those_the_admin_lets_in(client, db):
    editor = 'href="/admin/dungeons/dungeoncard/"'
    assert editor not in client.get("/").content.decode()  # nobody signed in
    client.force_login(make_player("pat").user)
    assert editor not in client.get("/").content.decode()  # a player
    staff = User.objects.create_user("sam", is_staff=True)
    client.force_login(staff)
    assert editor not in client.get("/").content.decode()  # staff without dungeon permissions

    designer = make_player("dana").user
    designer.is_staff = True
    designer.save()
    designer.groups.add(designers_group())
    client.force_login(designer)
    html = client.get("/").content.decode()
    assert editor in html and ">Dungeon editor</a>" in html
    assert client.get("/admin/dungeons/dungeoncard/").status_code == 200  # where it leads
