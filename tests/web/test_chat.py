"""The chat at the table (game/services/chat.py, README "Playing", docs/security.md "Chat"): who
reads which room, quick messages and free text, guests, muting, reports and their moderation
queue, the limits, escaping on every page, the replay and the computer. The websocket's side is
tests/web/test_chat_socket.py."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.models import ChatMessage, ChatReport, Game
from game.services import chat, rate_limits

from .helpers import answer, make_player, start_position

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"'
LINE = re.compile(
    r'<li class="chat-line[^"]*" data-id="\d+" data-room="(\w+)">\s*'
    r'<span class="chat-author">([^<]*)</span> <span class="chat-text">([^<]*)</span>'
)


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Each test counts from nothing (a player's id comes back in the next test), under a limit
    the tests of other things don't reach; the tests of the limit set their own."""
    settings.VENTURE_RATE_LIMITS = {
        **settings.VENTURE_RATE_LIMITS,
        "chat": {"player": "100/minute", "address": "100/minute"},
    }
    rate_limits.reset()
    yield
    rate_limits.reset()


@pytest.fixture
def game(alice, bob) -> Game:
    return start_position(alice, bob, "varis_fork.yaml")


def lines(panel: chat.Panel) -> dict[str, list[tuple[str, str]]]:
    """Each room's lines as (author, words)."""
    return {room.name: [(ln.author, ln.text) for ln in room.lines] for room in panel.rooms}


def shown(page: str) -> list[tuple[str, str, str]]:
    """The chat lines a page shows: (room, author, words), unescaped."""
    return [(room, html.unescape(a), html.unescape(w)) for room, a, w in LINE.findall(page)]


def page(player, url: str) -> str:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# rooms and audiences -----------------------------------------------------------------------------
def test_the_players_room_is_read_by_the_two_players_and_nobody_else(game, alice, bob):
    carol = make_player("carol")  # logged in, not seated: a spectator
    chat.post(game.pk, alice, quick="hello", action_id="a1")
    chat.post(game.pk, bob, text="Good luck, have fun", action_id="b1")

    expected = {"players": [("alice", "Hello"), ("bob", "Good luck, have fun")]}
    assert lines(chat.panel(game.pk, alice)) == expected
    assert lines(chat.panel(game.pk, bob)) == expected
    assert lines(chat.panel(game.pk, carol)) == {"spectators": []}
    assert lines(chat.panel(game.pk, None)) == {"spectators": []}
    # What the pages show: the players' own page and the watch link (a seated player on it is
    # still a player), a spectator's and a visitor's.
    for who, url in [
        (alice, game.get_absolute_url()),
        (bob, reverse("watch_game", args=[game.code])),
    ]:
        assert shown(page(who, url)) == [
            ("players", "alice", "Hello"),
            ("players", "bob", "Good luck, have fun"),
        ]
    for who in (carol, None):
        spectator_page = page(who, reverse("watch_game", args=[game.code]))
        assert shown(spectator_page) == []
        assert "Good luck" not in spectator_page


def test_spectators_talk_among_themselves_and_the_players_read_them_only_after_the_game(
    game, alice, bob
):
    carol, dave = make_player("carol"), make_player("dave")
    chat.post(game.pk, carol, text="alice should attack", action_id="c1")
    chat.post(game.pk, dave, quick="nice", action_id="d1")
    spectators = [("carol", "alice should attack"), ("dave", "Nice play")]
    assert lines(chat.panel(game.pk, dave)) == {"spectators": spectators}
    assert lines(chat.panel(game.pk, alice)) == {"players": []}  # no kibitzing
    assert "alice should attack" not in page(alice, game.get_absolute_url())
    assert "alice should attack" not in page(alice, reverse("watch_game", args=[game.code]))

    services.concede(game.pk, bob)
    assert lines(chat.panel(game.pk, alice)) == {"players": [], "spectators": spectators}
    assert ("spectators", "carol", "alice should attack") in shown(
        page(alice, game.get_absolute_url())
    )
    # A player still writes in the players' room only (after the game too: "Good game").
    chat.post(game.pk, bob, quick="gg", action_id="b2")
    assert lines(chat.panel(game.pk, carol)) == {"spectators": spectators}
    assert lines(chat.panel(game.pk, alice))["players"] == [("bob", "Good game")]


def test_a_visitor_reads_the_spectators_quick_messages_and_can_write_nothing(game, alice):
    carol = make_player("carol")
    chat.post(game.pk, carol, quick="hello", action_id="c1")
    chat.post(game.pk, carol, text="free words", action_id="c2")
    panel = chat.panel(game.pk, None)
    assert lines(panel) == {"spectators": [("carol", "Hello")]}  # free text is for accounts
    assert panel.note == chat.LOG_IN
    with pytest.raises(services.ActionRefused, match="Log in or play as a guest"):
        chat.post(game.pk, None, quick="hello")
    body = page(None, reverse("watch_game", args=[game.code]))
    assert "Log in or play as a guest to chat." in body
    assert 'name="quick"' not in body and 'id="chat-text"' not in body


def test_the_chat_opens_when_the_game_starts(alice):
    open_game = services.create_game(alice, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))
    with pytest.raises(services.ActionRefused, match="opens when the game starts"):
        chat.post(open_game.pk, alice, quick="hello", action_id="a1")
    assert not ChatMessage.objects.exists()


# quick messages and free text --------------------------------------------------------------------
def test_a_guest_has_quick_messages_and_free_text_only_once_they_turn_it_on(game, alice):
    guest = make_player("gus", guest=True)
    with pytest.raises(services.ActionRefused, match="Free text is off for you"):
        chat.post(game.pk, guest, text="hi all", action_id="g1")
    assert not ChatMessage.objects.exists()
    chat.post(game.pk, guest, quick="hello", action_id="g2")  # quick messages: for everyone
    carol = make_player("carol")
    chat.post(game.pk, carol, text="welcome gus", action_id="c1")
    # The guest sees the quick message and not carol's words; their page has no text field.
    assert lines(chat.panel(game.pk, guest)) == {"spectators": [("gus", "Hello")]}
    body = page(guest, reverse("watch_game", args=[game.code]))
    assert 'id="chat-text"' not in body and "Free text is off for you" in body
    assert 'data-quick="gg"' in body

    chat.set_free_text(game.pk, guest, True)
    chat.post(game.pk, guest, text="thanks carol", action_id="g3")
    assert lines(chat.panel(game.pk, guest))["spectators"] == [
        ("gus", "Hello"),
        ("carol", "welcome gus"),
        ("gus", "thanks carol"),
    ]
    assert 'id="chat-text"' in page(guest, reverse("watch_game", args=[game.code]))


def test_anyone_may_turn_free_text_off_and_then_sees_quick_messages_only(game, alice, bob):
    chat.post(game.pk, alice, text="well played", action_id="a1")
    chat.post(game.pk, alice, quick="gg", action_id="a2")
    chat.set_free_text(game.pk, bob, False)
    assert lines(chat.panel(game.pk, bob)) == {"players": [("alice", "Good game")]}
    with pytest.raises(services.ActionRefused, match="Free text is off"):
        chat.post(game.pk, bob, text="thanks", action_id="b1")
    bob.refresh_from_db()
    assert bob.chat_free_text is False  # kept for the next games
    assert "well played" not in page(bob, game.get_absolute_url())


def test_the_quick_messages_are_the_four_expected_and_nothing_else(game, alice):
    assert [words for _, words in chat.panel(game.pk, alice).quick] == [
        "Hello",
        "Thinking…",
        "Nice play",
        "Good game",
    ]
    with pytest.raises(services.ActionRefused, match="Unknown quick message"):
        chat.post(game.pk, alice, quick="insult", action_id="a1")


# mute and report ---------------------------------------------------------------------------------
def test_muting_hides_the_other_side_in_this_game_and_is_kept(game, alice, bob):
    chat.post(game.pk, bob, quick="hello", action_id="b1")
    chat.post(game.pk, alice, quick="hello", action_id="a1")
    chat.set_muted(game.pk, alice, True)
    chat.post(game.pk, bob, text="are you there?", action_id="b2")
    # Kept on her seat: a reload (a new panel, a new page) still hides bob.
    assert lines(chat.panel(game.pk, alice)) == {"players": [("alice", "Hello")]}
    assert shown(page(alice, game.get_absolute_url())) == [("players", "alice", "Hello")]
    # Bob is not told and still sees everything.
    assert len(lines(chat.panel(game.pk, bob))["players"]) == 3
    # Another game between them is not muted.
    other = start_position(alice, bob, "varis_fork.yaml")
    chat.post(other.pk, bob, quick="gg", action_id="b3")
    assert lines(chat.panel(other.pk, alice)) == {"players": [("bob", "Good game")]}

    chat.set_muted(game.pk, alice, False)
    assert len(lines(chat.panel(game.pk, alice))["players"]) == 3
    with pytest.raises(services.ActionRefused, match="two players"):
        chat.set_muted(game.pk, make_player("carol"), True)


def test_a_report_joins_the_queue_once_and_only_for_a_message_the_reporter_reads(game, alice, bob):
    said = chat.post(game.pk, bob, text="you are bad", action_id="b1")
    carol = make_player("carol")
    with pytest.raises(services.ActionRefused, match="no such message"):
        chat.report(game.pk, carol, said.id)  # the players' room is not hers to read
    with pytest.raises(services.ActionRefused, match="your own"):
        chat.report(game.pk, bob, said.id)
    with pytest.raises(services.ActionRefused, match="no such message"):
        chat.report(game.pk, alice, said.id + 1000)
    assert not ChatReport.objects.exists()

    chat.report(game.pk, alice, said.id)
    with pytest.raises(services.ActionRefused, match="already"):
        chat.report(game.pk, alice, said.id)
    report = ChatReport.objects.get()
    assert (report.message_id, report.reporter, report.handled) == (said.id, alice, False)
    assert chat.panel(game.pk, alice).reported == {said.id}


def test_the_moderation_queue_shows_the_message_its_game_and_the_lines_around_it_escaped(
    game, alice, bob, admin_client
):
    for n in range(7):
        chat.post(game.pk, alice if n % 2 else bob, text=f"line {n}", action_id=f"x{n}")
    bad = chat.post(game.pk, bob, text=HOSTILE, action_id="bad")
    chat.post(game.pk, alice, text="after it", action_id="after")
    chat.report(game.pk, alice, bad.id)
    report = ChatReport.objects.get()

    listing = admin_client.get(reverse("admin:game_chatreport_changelist")).content.decode()
    detail = admin_client.get(
        reverse("admin:game_chatreport_change", args=[report.pk])
    ).content.decode()
    for body in (listing, detail):
        assert "<script>alert" not in body and "<img src=x" not in body
        assert html.escape(HOSTILE)[:40] in body
        assert game.code in body
    # Five lines before, the message marked, the line after.
    context = detail[detail.index('class="chat-context"') :]
    assert [f"line {n}" in context for n in range(7)] == [
        False,
        False,
        True,
        True,
        True,
        True,
        True,
    ]
    assert f"<mark>bob: {html.escape(HOSTILE)}</mark>" in context and "after it" in context

    # Staff mark it handled from the list; it leaves the unhandled filter.
    response = admin_client.post(
        reverse("admin:game_chatreport_changelist"),
        {"action": "mark_handled", "_selected_action": [report.pk]},
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.handled and report.handled_by is not None and report.handled_at is not None
    unhandled = admin_client.get(
        reverse("admin:game_chatreport_changelist") + "?handled__exact=0"
    ).content.decode()
    assert "0 chat reports" in unhandled or "0 results" in unhandled


# limits ------------------------------------------------------------------------------------------
@override_settings(VENTURE_CHAT_MAX_LENGTH=20)
def test_a_message_too_long_empty_or_holding_control_characters_is_refused_and_not_stored(
    game, alice
):
    with pytest.raises(services.ActionRefused, match="at most 20 characters .this one has 21"):
        chat.post(game.pk, alice, text="x" * 21, action_id="a1")
    with pytest.raises(services.ActionRefused, match="Type a message first"):
        chat.post(game.pk, alice, text=" \n\t ", action_id="a2")
    for bad in ("bell\x07", "nul\x00", "rtl \u202egnp.exe", "lone \ud800"):
        with pytest.raises(services.ActionRefused, match="can't hold the character"):
            chat.post(game.pk, alice, text=bad, action_id="a3")
    assert not ChatMessage.objects.exists()
    # White space runs count as one space: twenty characters as stored.
    said = chat.post(game.pk, alice, text="  a   b\n\nc " + "d" * 14, action_id="a4")
    assert said.text == "a b c " + "d" * 14


@override_settings(VENTURE_RATE_LIMITS={"chat": {"player": "3/minute", "address": "3/minute"}})
def test_the_rate_limit_counts_by_player_and_by_address(game, alice, bob):
    for n in range(3):
        chat.post(game.pk, alice, quick="hello", action_id=f"a{n}", address="10.0.0.1")
    with pytest.raises(services.ActionRefused, match="too fast"):
        chat.post(game.pk, alice, quick="hello", action_id="a3", address="10.0.0.2")
    # Bob, from the same address as alice's first three, is past the address's limit too.
    with pytest.raises(services.ActionRefused, match="too fast"):
        chat.post(game.pk, bob, quick="hello", action_id="b1", address="10.0.0.1")
    chat.post(game.pk, bob, quick="hello", action_id="b2", address="10.0.0.3")
    assert ChatMessage.objects.count() == 4
    # A refusal counted for nobody: bob's other address has used one of its three.
    chat.post(game.pk, bob, quick="gg", action_id="b3", address="10.0.0.3")


def test_the_shared_rate_limit_function_counts_each_key_and_refuses_for_none():
    with override_settings(
        VENTURE_RATE_LIMITS={"chat": {"player": "2/minute", "address": "2/minute"}}
    ):
        assert rate_limits.allow("chat", "player:1", "address:a")
        assert rate_limits.allow("chat", "player:1", "address:b")
        assert not rate_limits.allow("chat", "player:1", "address:c")  # player:1 is spent
        assert rate_limits.allow("chat", "player:2", "address:c")  # c was not counted
        assert rate_limits.allow("chat", "player:3", "address:c")
        assert not rate_limits.allow("chat", "player:4", "address:a", "address:c")


def test_a_repeated_action_id_is_stored_once(game, alice):
    chat.post(game.pk, alice, quick="hello", action_id="same")
    with pytest.raises(services.ActionRefused, match="already sent") as refused:
        chat.post(game.pk, alice, quick="hello", action_id="same")
    assert refused.value.code == "repeat"
    assert ChatMessage.objects.count() == 1


# escaping ----------------------------------------------------------------------------------------
def test_a_message_is_escaped_on_every_page_that_shows_it(game, alice, bob):
    carol = make_player(HOSTILE[:30])  # a display name is someone's text too
    chat.post(game.pk, alice, text=HOSTILE, action_id="a1")
    chat.post(game.pk, carol, text=HOSTILE, action_id="c1")
    services.concede(game.pk, bob)
    for who, url in [
        (bob, game.get_absolute_url()),
        (carol, reverse("watch_game", args=[game.code])),
        (bob, reverse("replay", args=[game.code])),
    ]:
        body = page(who, url)
        assert "<script>alert" not in body and "<img src=x" not in body
        words = [
            html.unescape(w) for w in re.findall(r'<span class="chat-text">([^<]*)</span>', body)
        ]
        assert HOSTILE in words, url


# the replay and the computer ---------------------------------------------------------------------
def test_the_replay_shows_the_players_chat_to_that_point_to_the_players_only(game, alice, bob):
    chat.post(game.pk, alice, text="before the first answer", action_id="a1")
    game = answer(game, alice, "cast Keen-Eared Sentry")
    chat.post(game.pk, bob, text="after it", action_id="b1")
    services.concede(game.pk, bob)
    game.refresh_from_db()
    replay = reverse("replay", args=[game.code])
    at_start = page(alice, replay + "?at=0")
    assert "before the first answer" in at_start and "after it" not in at_start
    at_end = page(bob, replay)
    assert "before the first answer" in at_end and "after it" in at_end
    for stranger in (make_player("carol"), None):
        assert "before the first answer" not in page(stranger, replay)
        assert 'class="log-panel chat-replay"' not in page(stranger, replay)
    # The point a step fetches carries it too.
    client = Client()
    client.force_login(alice.user)
    point = client.get(replay + "?at=0", headers={"X-Replay-Point": "1"}).content.decode()
    assert "before the first answer" in point


def test_the_computer_never_chats_and_a_game_against_it_has_no_players_room(alice):
    game = services.create_computer_game(
        alice,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        level="easy",
        computer_deck_name="Crawlers",
        computer_deck=list(BLACK_RED),
    )
    panel = chat.panel(game.pk, alice)
    assert panel.rooms == () and panel.note == chat.COMPUTER
    with pytest.raises(services.ActionRefused, match="The computer does not chat"):
        chat.post(game.pk, alice, quick="hello", action_id="a1")
    computer = services.computer_player("easy")
    with pytest.raises(services.ActionRefused, match="The computer does not chat"):
        chat.post(game.pk, computer, quick="hello", action_id="c1")
    assert not ChatMessage.objects.exists()
    body = page(alice, game.get_absolute_url())
    assert "The computer does not chat." in body and 'name="quick"' not in body


# without JavaScript -------------------------------------------------------------------------------
def test_the_chat_forms_post_without_javascript(game, alice, bob):
    client = Client()
    client.force_login(alice.user)
    url = reverse("game_chat", args=[game.code])
    response = client.post(url, {"action": "chat", "action_id": "p1", "text": "by post"})
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert lines(chat.panel(game.pk, bob)) == {"players": [("alice", "by post")]}
    body = client.get(game.get_absolute_url()).content.decode()
    assert ("players", "alice", "by post") in shown(body)
    # A bad form is a message on the page and stores nothing.
    response = client.post(url, {"action": "chat", "action_id": "p2", "quick": "x", "text": "y"})
    assert "one at a time" in client.get(response.url).content.decode()
    assert ChatMessage.objects.count() == 1
    # Like every POST, it needs the CSRF token.
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice.user)
    assert strict.post(url, {"action": "chat", "action_id": "p3", "quick": "gg"}).status_code == 403
