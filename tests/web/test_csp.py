"""The Content-Security-Policy (docs/security.md, "Content-Security-Policy"): every page carries
it, every script of a page is a file of this site or carries that response's nonce, and no
template, Django's or the board's Jinja2, holds an inline script or an event handler attribute.
(The policy at work in a real browser, a whole game long: tests/e2e/test_csp.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game import services
from game.decks import GREEN_WHITE_VARIS

from .helpers import designers_group, make_player, start_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
# An event handler attribute (onclick=, onload=…) inside a tag, or a javascript: URL. Not the
# do-nothing `href="javascript://"` and `"javascript:void(0)"` of nested_admin's "Add another"
# and "Remove" links in the dungeon editor: its script handles their clicks and never follows
# them (preventDefault); tests/e2e/test_csp.py adds rooms in the editor under the policy.
HANDLER = re.compile(r"<[a-zA-Z][^>]*?\son[a-z]+\s*=", re.S)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:(?!//"|void\(0\)")""", re.I)


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split("; ")}


def assert_scripts_allowed(html: str, nonce: str | None, url: str) -> None:
    """Every <script> is a file of this site, or data (JSON), or inline with the nonce."""
    for attrs, body in SCRIPT_TAG.findall(html):
        if re.search(r'type="application/json"', attrs):
            continue
        src = re.search(r'src="([^"]*)"', attrs)
        if src:
            assert src.group(1).startswith("/"), (url, attrs)  # this origin
        else:
            assert nonce and f'nonce="{nonce}"' in attrs, (url, attrs, body[:80])
    assert not HANDLER.search(html), (url, HANDLER.search(html).group(0))
    assert not JS_URL.search(html), url


def assert_policy(response, url: str) -> None:
    p = policy(response)
    assert p["default-src"] == ["'self'"], url
    assert p["object-src"] == ["'none'"] and p["frame-ancestors"] == ["'none'"], url
    assert p["connect-src"] == ["'self'"], url  # the websocket: same host, ws: or wss:
    script_src = p["script-src"]
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, url
    assert p["style-src-elem"][0] == "'self'" and "'unsafe-inline'" not in p["style-src-elem"]
    nonce = next((v[7:-1] for v in script_src if v.startswith("'nonce-")), None)
    html = response.content.decode()
    if "<script" in html:
        assert nonce, url  # the page's scripts were given one
    assert_scripts_allowed(html, nonce, url)


def test_every_page_carries_the_policy_and_its_scripts_are_allowed_by_it(client):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game(alice, bob)
    waiting = services.create_game(alice, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))
    anonymous = Client()
    pages = {
        anonymous: [
            "/",
            "/accounts/guest/",
            "/accounts/login/",
            "/accounts/signup/",
            f"/g/{game.code}/watch/",
            "/admin/login/",
            "/no/such/page/",
        ],
    }
    client.force_login(alice.user)
    pages[client] = [
        "/",
        f"/g/{game.code}/",
        f"/g/{waiting.code}/",
        f"/players/{alice.pk}/",
        "/accounts/",
    ]
    seen = 0
    for browser, urls in pages.items():
        for url in urls:
            response = browser.get(url)
            assert response.status_code in {200, 404}, url
            assert_policy(response, url)
            seen += 1
    # A finished game's replay (replay.js steps it).
    services.concede(game.pk, bob)
    response = client.get(f"/g/{game.code}/replay/")
    assert response.status_code == 200
    assert_policy(response, "replay")
    assert seen == 12


def test_the_dungeon_editor_in_the_admin_is_under_the_policy_too(client):
    user = User.objects.create_user("dee", password="pw", is_staff=True)
    user.groups.add(designers_group())
    client.force_login(user)
    for url in ("/admin/", "/admin/dungeons/dungeoncard/", "/admin/dungeons/dungeoncard/add/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_policy(response, url)


def test_a_refusal_page_and_a_form_error_carry_the_policy(client):
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 200
    assert_policy(response, "login refused")


TEMPLATE_DIRS = [ROOT / "templates", ROOT / "game", ROOT / "dungeons"]


def template_files() -> list[Path]:
    return [
        path
        for folder in TEMPLATE_DIRS
        for path in folder.rglob("*.html")
        if "node_modules" not in path.parts
    ]


def test_no_template_holds_an_inline_script_or_an_event_handler():
    """Django's templates and the board's Jinja2 ones (sent over the websocket too): a <script>
    is a file, or carries the nonce; no onclick= or javascript: URL anywhere."""
    files = template_files()
    assert any("jinja2" in path.parts for path in files) and len(files) > 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        for attrs, _body in SCRIPT_TAG.findall(text):
            if "application/json" in attrs or "src=" in attrs:
                continue
            assert "csp_nonce" in attrs, f"{path}: an inline <script> without the nonce"
        assert not HANDLER.search(text), f"{path}: {HANDLER.search(text).group(0)}"
        assert not JS_URL.search(text), f"{path}: a javascript: URL"


def test_the_check_finds_an_inline_handler_and_a_script_without_the_nonce():
    with pytest.raises(AssertionError):
        assert_scripts_allowed('<input onclick="this.select()">', "n", "test")
    with pytest.raises(AssertionError):
        assert_scripts_allowed("<script>alert(1)</script>", "n", "test")
    with pytest.raises(AssertionError):
        assert_scripts_allowed('<script nonce="other">alert(1)</script>', "n", "test")
    allowed = '<script nonce="n">ok()</script><script src="/static/a.js"></script>'
    assert_scripts_allowed(allowed, "n", "test")
