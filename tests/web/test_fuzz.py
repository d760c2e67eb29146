"""Generated hostile input (hypothesis) against the websocket and the HTTP endpoints, the deck
import included. Whatever arrives, the server answers (no unhandled error, no "something went
wrong"), and the game afterwards is exactly its answer log: the version counts the log, the log
replays to the state the server holds, and each action id was applied at most once; the chat's
forms are among the messages, and whatever the chat stored is a message it may hold."""

from __future__ import annotations

import json
import string

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import services
from game.decks import STARTER_DECKS
from game.engine.game import Engine
from game.models import ActionReceipt, ChatMessage, Game, GameAction
from game.services import chat, engines
from tests.sizes import examples

from .helpers import make_player, start_position
from .sockets import FLASH, Socket, db, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

FUZZ = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,  # the same examples on every run: a failure is reproducible in CI
)

FIELD_NAMES = [
    "action", "version", "action_id", "option", "multi", "full_control", "pass_until",
    "pos:pass", "pos:cast:1", "placement", "pos:o1", "HEADERS", "player", "seat", "", "__proto__",
    "pos:pass", "pos:cast:1", "HEADERS", "player", "seat", "", "__proto__",
    "quick", "text", "on", "message",  # the chat's
]  # fmt: skip
ACTIONS = [
    "answer", "concede", "pace", "claim", "dance", "", "ANSWER",
    "chat", "chat_mute", "chat_free_text", "chat_report",
    "takeback", "accept_takeback", "decline_takeback", "withdraw_takeback",
]  # fmt: skip
OPTIONS = ["pass", "cast:1", "cast:2", "cast:9999", "activate:3", "room:0", "dungeon:0", ""]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(OPTIONS + ACTIONS + ["0", "1", "2", "-1", "b", "on", "off", "my_turn"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@st.composite
def forms(draw) -> dict:
    """Mostly form-shaped dicts: the right field names with values right, wrong or absurd."""
    fields = {}
    fields["action"] = draw(st.sampled_from(ACTIONS) | scalars)
    if draw(st.booleans()):
        fields["version"] = draw(st.sampled_from(["0", "1", "3", "99"]) | scalars)
    if draw(st.booleans()):
        fields["action_id"] = draw(
            st.text(string.ascii_letters + string.digits + "-_ ", min_size=0, max_size=70) | scalars
        )
    for name in draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=4)):
        fields[name] = draw(
            st.sampled_from(OPTIONS) | st.lists(st.sampled_from(OPTIONS), max_size=3) | json_values
        )
    return fields


ws_messages = st.one_of(
    forms().map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=64),
)


def check_game(game: Game) -> None:
    """The stored game is consistent: log = version, replay = the server's state, one receipt
    per applied action id."""
    game.refresh_from_db()
    rows = list(
        game.actions.order_by("index").values_list("index", "seat__engine_name", "answer", "note")
    )
    assert [row[0] for row in rows] == list(range(game.version))
    with services.reading(game) as engine:
        held = engine.state_json()
    replayed = Engine(services.engine_setup(game))
    engines.apply_log(replayed, [row[1:] for row in rows])  # as a replay from the log does
    assert replayed.state_json() == held
    ids = list(
        GameAction.objects.filter(game=game)
        .exclude(client_action_id="")
        .values_list("client_action_id", flat=True)
    )
    assert len(ids) == len(set(ids))
    receipts = set(ActionReceipt.objects.filter(game=game).values_list("action_id", flat=True))
    assert set(ids) <= receipts


@pytest.fixture
def table():
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    game = start_position(alice, bob, "varis_fork.yaml")
    return {"game": game, "players": {"alice": alice, "bob": bob, "carol": carol, "anon": None}}


@pytest.mark.timeout(240)  # every example, at the full size
@FUZZ
@given(
    who=st.sampled_from(["alice", "bob", "carol", "anon"]),
    messages=st.lists(ws_messages, max_size=8),
)
def test_generated_websocket_messages_never_break_the_game(table, who, messages):
    """Each message is answered in #flash (an error, or an empty flash once applied)."""
    game = table["game"]
    player = table["players"][who]

    async def play() -> list[str]:
        cookie = await db(session_cookie)(player) if player is not None else None
        sock = Socket(game, cookie)
        await sock.connect()
        for message in messages:
            # Raw frames: the communicator's send_to refuses an empty one, a client may not.
            kind = "bytes" if isinstance(message, bytes) else "text"
            await sock.comm.input_queue.put({"type": "websocket.receive", kind: message})
        # Each message is answered (eight at most: within the socket's burst).
        while sum(f.startswith(FLASH) for f in sock.frames) < len(messages):
            await sock.until(lambda frame: frame.startswith(FLASH))
        await sock.close()
        return sock.frames

    frames = async_to_sync(play)()
    flashes = [f for f in frames if f.startswith('<div id="flash"')]
    assert len(flashes) == len(messages)
    assert not any("Something went wrong" in f for f in flashes)
    check_game(game)
    check_chat(game)


def check_chat(game: Game) -> None:
    """Whatever the chat stored is a message it may hold: a known quick message, or one line of
    text within the length limit."""
    for kind, body in ChatMessage.objects.filter(game=game).values_list("kind", "body"):
        if kind == ChatMessage.QUICK:
            assert body in chat.QUICK_MESSAGES
        else:
            assert body == chat.clean_text(body)
            assert len(body) <= django_settings.VENTURE_CHAT_MAX_LENGTH


@FUZZ
@given(who=st.sampled_from(["alice", "bob", "carol", "anon"]), fields=forms())
def test_generated_posts_to_the_game_never_break_it(table, who, fields):
    game = table["game"]
    client = Client(raise_request_exception=True)  # an unhandled error fails the test
    if table["players"][who] is not None:
        client.force_login(table["players"][who].user)
    data = {k: v if isinstance(v, (str, list)) else json.dumps(v) for k, v in fields.items()}
    data = {k: [x if isinstance(x, str) else json.dumps(x) for x in v] if isinstance(v, list)
            else v for k, v in data.items()}  # fmt: skip
    response = client.post(f"/g/{game.code}/act/", data)
    assert response.status_code == 302
    check_game(game)


deck_lines = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda n, name, suffix: f"{n} {name}{suffix}",
        st.integers(-5, 10**12),
        st.sampled_from(list(STARTER_DECKS["Varis (green-white)"]) + ["Forest", "Black Lotus"]),
        st.sampled_from(["", " (AFR) 242", "x", " // comment"]),
    ),
    st.sampled_from(["Deck", "Sideboard", "SB: 2 Forest", "# note", "4x Forest", "Commander"]),
)


@FUZZ
@given(lines=st.lists(deck_lines, max_size=40), join_instead=st.booleans())
def test_generated_deck_imports_are_refused_or_valid(table, lines, join_instead):
    """A deck text either makes a game with a legal deck of known cards or is refused with a
    form error; nothing in between, and never a server error."""
    from game.decklists import MAX_CARDS, MIN_DECK
    from game.engine.cards import CARDS

    client = Client(raise_request_exception=True)
    client.force_login(table["players"]["carol"].user)
    text = "\n".join(lines)
    before = set(Game.objects.values_list("pk", flat=True))
    if join_instead:
        host = make_player(f"host{len(before)}")
        open_game = services.create_game(host, deck_name="x", deck=["Forest"] * 40)
        response = client.post(
            f"/g/{open_game.code}/join/", {"deck": "__imported__", "decklist": text}
        )
    else:
        response = client.post("/games/new/", {"deck": "__imported__", "decklist": text})
    assert response.status_code in (200, 302)
    created = Game.objects.exclude(pk__in=before)
    seat = (
        open_game.seats.filter(position=1).first()
        if join_instead
        else (created.first().seats.first() if created.exists() else None)
    )
    if response.status_code == 200:
        assert seat is None
        assert 'class="errors' in response.content.decode() or "errorlist" in (
            response.content.decode()
        )
    else:
        assert seat is not None
        assert MIN_DECK <= len(seat.deck) <= MAX_CARDS
        assert all(name in CARDS for name in seat.deck)
