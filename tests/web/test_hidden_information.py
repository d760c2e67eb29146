"""Hidden information, frame by frame, over whole random games played through the real
consumers: no frame sent to a player or a spectator names a card that viewer may not know.

A viewer may know: its own hand, what is or was public (battlefields, graveyards, exile, the
stack, revealed cards) and the cards named in its own decisions (a scry shows the top of its
library). It may not know: the other hand, any library's contents or order. What a viewer may
know is read from the engine's state after every logged answer; the frames are checked after
each step against the hidden zones at that moment."""

from __future__ import annotations

import random
import re

import pytest

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.engine.bot import random_answer
from game.engine.cards import CARDS
from game.engine.game import Engine
from game.models import Game
from game.services import engines, lifecycle
from tests.sizes import sized

from .helpers import make_player
from .sockets import Socket, connect, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MAX_ANSWERS = 1500  # a whole game ends well before (it is asserted)


def fields_for(d, answer) -> dict:
    """The form fields a page sends for `answer` to decision `d`."""
    if d.ordered:
        return {f"pos:{oid}": str(i) for i, oid in enumerate(answer, 1)}
    if d.multi:
        return {"multi": "1", "option": list(answer)}
    return {"option": answer}


def known_to(engine, viewer: str | None) -> set[str]:
    """Card names `viewer` may know now, read from the engine's state itself (not from the
    view the pages are made of, which is what is under test)."""
    g = engine.state
    out = {o.name for o in g.battlefield} | {item.name for item in g.stack}
    for p in g.players:
        out.update(o.name for o in p.graveyard + p.exile)
        out.update(o.name for o in p.hand if o.revealed or p.name == viewer)
    return out


class Viewer:
    def __init__(self, name: str | None, sock: Socket) -> None:
        self.name = name  # engine name; None for a spectator
        self.sock = sock
        self.known: set[str] = set()
        self.checked = 0

    def learn(self, engine) -> None:
        self.known |= known_to(engine, self.name)
        d = engine.pending
        if d is not None and d.player == self.name:
            for o in d.options:  # e.g. a scry names the top card of its own library
                self.known.update(n for n in CARD_NAMES if n in o.label)

    def secrets(self, engine) -> set[str]:
        hidden: set[str] = set()
        for p in engine.state.players:
            hidden.update(o.name for o in p.library)
            if p.name != self.name:
                hidden.update(o.name for o in p.hand if not o.revealed)
        return hidden - self.known

    def check(self, engine) -> None:
        secret = self.secrets(engine)
        patterns = [(n, re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])")) for n in secret]
        for frame in self.sock.frames[self.checked :]:
            for name, pattern in patterns:
                assert not pattern.search(frame), (
                    f"{self.name or 'the spectator'} was sent {name!r}, which it may not know"
                )
        self.checked = len(self.sock.frames)


CARD_NAMES = sorted(CARDS, key=len, reverse=True)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("seed", sized(small=[2], full=[1, 2]))
async def test_no_frame_names_a_card_its_viewer_may_not_know(seed, monkeypatch):
    # The game's shuffle seed too, so a failure replays exactly.
    monkeypatch.setattr(lifecycle, "new_secret_seed", lambda: 1000 + seed)
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
    # The game again, one logged answer at a time: what became public in between two pages
    # (a spell cast and back in hand within one step) was public, and is known from then on.
    shadow = Engine(await db(services.engine_setup)(game))
    for v in viewers.values():
        v.learn(shadow)

    def engine_step() -> tuple:
        game.refresh_from_db()
        new = game.actions.filter(index__gte=len(shadow.answers)).order_by("index")
        for entry in new.values_list("seat__engine_name", "answer", "note"):
            # As a replay applies it (the log's lines for explained passes and losses too).
            engines.apply_log(shadow, [entry])
            for v in viewers.values():
                v.learn(shadow)
        with services.reading(game) as engine:
            assert engine.state_json() == shadow.state_json()
            for v in viewers.values():
                v.check(engine)
            return game.status, game.version, engine.pending

    refused = 0
    for _ in range(MAX_ANSWERS):
        status, version, d = await db(engine_step)()
        if status == Game.FINISHED:
            break
        sock = viewers[d.player].sock
        answer = random_answer(d, rng)
        await sock.send(action="answer", version=str(version), **fields_for(d, answer))
        await sock.reply()
        reply = sock.frames[-1]  # the #flash itself
        if "hidden></div>" not in reply:  # refused: a random multi-pick the rules forbid
            assert "not" in reply or "must" in reply, reply
            refused += 1
            continue
        for v in viewers.values():
            await v.sock.caught_up(game)
    else:
        pytest.fail(f"the game did not end within {MAX_ANSWERS} answers")
    await db(engine_step)()
    assert all(v.checked > 10 for v in viewers.values())
    # The check can fail: each seat's own frames name the cards in its own hand.
    assert any(n in viewers["alice"].sock.text for n in set(GREEN_WHITE_VARIS) - {"Forest"})
    for v in viewers.values():
        await v.sock.close()
