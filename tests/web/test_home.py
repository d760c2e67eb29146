def test_the_lobby_names_the_game_and_loads_htmx_with_websockets(client, db):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Venture" in html
    assert "Play as guest" in html
    # htmx 2 and its ws extension, served by django-htmx from our own static files.
    assert "django_htmx/htmx-2.min.js" in html
    assert "django_htmx/ext/hx-ws-2.min.js" in html
