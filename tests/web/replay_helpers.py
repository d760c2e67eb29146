"""Played games for the replay tests (tests/web/test_replays.py, tests/e2e/test_replay.py): a
game started through the services, then played by the random bot on an engine of its own setup,
its answers written to the log as the services would (one `GameAction` per answer) and the row
brought to the end, finished or not. The play itself is made once per process."""

from __future__ import annotations

import random

from django.utils import timezone

from game import services
from game.engine.bot import random_answer
from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine
from game.models import Game, GameAction, Player

from .helpers import start_game

# Each game's answers, played once per pytest process (one per xdist worker) however many tests
# and files ask for it: random play through the engine is the cost, writing the rows is not.
_PLAYED: dict[tuple[str, int, bool], tuple[Engine, list[tuple[str, object]]]] = {}


def played_game(
    host: Player, guest: Player, *, seed: int, answers: int, finish: bool = True
) -> tuple[Game, Engine]:
    """A game between the seed decks with `answers` random answers in its log (fewer if it
    ends first); `finish` concedes for the guest at the end if it has not ended. Returns the
    row and the engine at its last point, which tests share: read it, never change it."""
    game = start_game(host, guest, seed=seed)
    seats = {s.engine_name: s for s in game.seats.all()}
    guest_name = next(n for n, s in seats.items() if s.player_id == guest.pk)
    setup = services.engine_setup(game)
    key = (repr(setup), answers, finish)
    if key not in _PLAYED:
        engine = _play(Engine(setup), seed, answers)
        if finish and not engine.over:
            engine.concede(guest_name)
        _PLAYED[key] = (engine, list(engine.answers))
    engine, log = _PLAYED[key]
    GameAction.objects.bulk_create(
        GameAction(game=game, index=i, seat=seats[who], answer=answer)
        for i, (who, answer) in enumerate(log)
    )
    game.version = len(log)
    game.turn = engine.state.turn
    if engine.over:
        game.status = Game.FINISHED
        game.finished = timezone.now()
        game.winner = engine.state.winner or ""
        game.end_reason = engine.state.end_reason
    game.deciding = engine.pending.player if engine.pending else ""
    game.save()
    services.clear_engine_cache()
    return game, engine


def _play(engine: Engine, seed: int, answers: int) -> Engine:
    rng = random.Random(seed)
    while engine.pending is not None and len(engine.answers) < answers:
        d = engine.pending
        try:
            engine.answer(d.player, random_answer(d, rng))
        except IllegalAnswer:
            engine.answer(d.player, [] if d.multi else d.options[0].id)
    return engine
