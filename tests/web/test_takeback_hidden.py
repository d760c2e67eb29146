"""Hidden information across takebacks, frame by frame, over a whole random game played through
the real consumers (as tests/web/test_hidden_information.py, whose checks it reuses): after an
answer, its player asks to take it back whenever the game allows it, and the other player
accepts or declines at random. No frame sent to a player or a spectator names a card that
viewer may not know; the takebacks' refusals, requests and log lines included."""

from __future__ import annotations

import random
import re

import pytest

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.engine.bot import random_answer
from game.engine.game import Engine
from game.models import Game, Seat
from game.services import engines, lifecycle
from tests.sizes import sized

from .helpers import make_player
from .sockets import connect, db
from .test_hidden_information import Viewer, fields_for

# Slow: a whole random game through three sockets, as the hidden-information test plays one
# (`make test` runs that one; this one, the same game with takebacks, runs in `make test-all`).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.slow]

MAX_ACTIONS = 2500
VERSIONS = re.compile(r'id="(?:topbar|board)"[^>]*?data-version="(\d+)"')


def last_version(sock) -> int:
    found = [int(v) for f in sock.frames for v in VERSIONS.findall(f)]
    return found[-1] if found else -1


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", sized(small=[3], full=[3, 4]))
async def test_takebacks_never_send_a_card_its_viewer_may_not_know(seed, monkeypatch):
    monkeypatch.setattr(lifecycle, "new_secret_seed", lambda: 2000 + seed)
    alice = await db(make_player)("alice")
    bob = await db(make_player)("bob")
    carol = await db(make_player)("carol")
    game = await db(services.create_game)(alice, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))
    await db(services.join_game)(game.pk, bob, deck_name="Crawlers", deck=list(BLACK_RED))
    viewers = {
        "alice": Viewer("alice", await connect(game, alice)),
        "bob": Viewer("bob", await connect(game, bob)),
        None: Viewer(None, await connect(game, carol)),
    }
    rng = random.Random(seed)
    await db(game.refresh_from_db)()
    setup = await db(services.engine_setup)(game)
    shadow = {"engine": Engine(setup), "epoch": 0}
    for v in viewers.values():
        v.learn(shadow["engine"])

    def engine_step() -> tuple:
        game.refresh_from_db()
        if game.log_epoch != shadow["epoch"]:
            # A takeback rewrote the log: the game again from its setup, what each viewer
            # learnt before kept (what was seen stays known).
            shadow["engine"] = Engine(setup)
            shadow["epoch"] = game.log_epoch
            engines.write_lines(shadow["engine"], engines.takeback_lines(game))
        e = shadow["engine"]
        lines = engines.takeback_lines(game)
        new = game.actions.filter(index__gte=len(e.answers)).order_by("index")
        for entry in new.values_list("seat__engine_name", "answer", "note"):
            engines.apply_log(e, [entry], lines)
            for v in viewers.values():
                v.learn(e)
        with services.reading(game) as engine:
            assert engine.state_json() == e.state_json()
            for v in viewers.values():
                v.check(engine)
            seats = list(game.seats.select_related("player"))
            allowed = {
                s.engine_name: services.takeback_view(game, seats, s, engine).allowed for s in seats
            }
            return game.status, game.version, engine.pending, allowed

    async def synced() -> None:
        """Every page shows the game's version now (the last one sent: after a takeback the
        version goes down, so not the highest seen)."""
        await db(game.refresh_from_db)()
        for v in viewers.values():
            if last_version(v.sock) != game.version:
                await v.sock.until(lambda _, v=v: last_version(v.sock) == game.version)

    async def settle(sock, action: str, words: str) -> None:
        """`action` on `sock`, applied, and every page sent the change (`words`)."""
        await db(game.refresh_from_db)()
        seen = {id(v): len(v.sock.frames) for v in viewers.values()}
        await sock.send(action=action, version=str(game.version))
        await sock.reply()
        assert sock.frames[-1].endswith("hidden></div>"), sock.frames[-1]
        for v in viewers.values():
            if not any(words in f for f in v.sock.frames[seen[id(v)] :]):
                await v.sock.wait_for(words)
        await synced()

    asked = accepted = 0
    last = None
    for _ in range(MAX_ACTIONS):
        status, version, d, allowed = await db(engine_step)()
        if status == Game.FINISHED:
            break
        if last is not None and allowed[last] and rng.random() < 0.5:
            asker, other = viewers[last].sock, viewers["bob" if last == "alice" else "alice"].sock
            await settle(asker, "takeback", "to take back an answer")
            asked += 1
            await db(engine_step)()  # the request on every page, checked
            if rng.random() < 0.5:
                await settle(other, "accept_takeback", "accepted")
                accepted += 1
            else:
                await settle(other, "decline_takeback", "declined")
            last = None
            continue
        sock = viewers[d.player].sock
        answer = random_answer(d, rng)
        await sock.send(action="answer", version=str(version), **fields_for(d, answer))
        await sock.reply()
        if "hidden></div>" not in sock.frames[-1]:  # a random multi-pick the rules forbid
            continue
        last = d.player
        await synced()
    else:
        pytest.fail(f"the game did not end within {MAX_ACTIONS} actions")
    await db(engine_step)()
    assert asked > 5 and accepted > 0, (asked, accepted)
    # Each player used their asks (the limit held).
    counts = await db(lambda: list(Seat.objects.filter(game=game).values_list("takebacks_asked")))()
    assert all(n <= 3 for (n,) in counts)
    for v in viewers.values():
        await v.sock.close()
