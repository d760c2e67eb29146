def test_home_page_names_the_game_and_loads_htmx_with_websockets(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Venture</title>" in html
    assert "lobby is coming" in html
    # htmx 2 and its ws extension, served by django-htmx from our own static files.
    assert "django_htmx/htmx-2.min.js" in html
    assert "django_htmx/ext/hx-ws-2.min.js" in html
