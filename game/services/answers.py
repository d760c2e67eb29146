"""Answering the pending decision: one answer (`submit_answer`), or a scry placed in one
prompt (`submit_scry`: the engine's `scry` answer and the `scry_order` it asks next, in one
transaction). Each runs in the frame every action shares (acting.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.utils import timezone

from game.engine.decisions import Decision, IllegalAnswer
from game.engine.game import Engine
from game.engine.kinds import SCRY, SCRY_ORDER
from game.models import Game, Player

from .acting import _begin, _check_no_takeback, _run
from .engines import engine_for_update, remember
from .errors import ActionRefused
from .store import commit, completed_counts

log = logging.getLogger(__name__)


def submit_answer(
    game_id: int,
    player: Player | None,
    answer: str | list[str],
    *,
    version: int,
    action_id: str = "",
    at: datetime | None = None,
    epoch: int | None = None,
) -> Game:
    """Answer the pending decision with option id(s) as the player saw it at `version` (and at
    the log's `epoch`, when given: the computer's answer, thought about before a takeback, is
    not for the decision at the same version after it)."""

    def apply(engine: Engine, d: Decision, name: str) -> None:
        try:
            engine.answer(name, answer)
        except IllegalAnswer as e:
            raise ActionRefused(str(e), "illegal") from None

    return _answering(
        game_id, player, apply, version=version, action_id=action_id, at=at, epoch=epoch
    )


def submit_scry(
    game_id: int,
    player: Player | None,
    bottom: list[str],
    top: list[str],
    *,
    version: int,
    action_id: str = "",
    at: datetime | None = None,
) -> Game:
    """A scry answered in one prompt (the page's placement, forms/actions.Placement): `bottom` the
    cards put on the bottom, in that order, `top` the cards kept on top, top first, every card
    of the pending `scry` decision named once. Applied as the engine asks it (CR 701.22a): the
    `scry` answer (the bottom cards), then, when two or more stay on top, the `scry_order`
    answer the engine asks next of the same player, and nothing else; one transaction, and the
    answer log records both answers as if given one by one. Anything that does not fit changes
    nothing."""

    def apply(engine: Engine, d: Decision, name: str) -> None:
        if d.kind != SCRY:
            raise ActionRefused(
                f"That form places the cards of a scry; the decision now is another "
                f"({d.kind.replace('_', ' ')}).",
                "illegal",
            )
        cards = [o.id for o in d.options]
        placed = bottom + top
        unknown = [c for c in placed if c not in cards]
        if unknown:
            raise ActionRefused(
                f"{unknown[0][:40]!r} is not one of the cards this scry looks at.", "illegal"
            )
        if len(placed) != len(set(placed)) or len(placed) != len(cards):
            raise ActionRefused(
                f"Place each of the {len(cards)} cards once: on top at a position, or on the "
                "bottom.",
                "illegal",
            )
        try:
            engine.answer(name, bottom)
        except IllegalAnswer as e:
            raise ActionRefused(str(e), "illegal") from None
        after = engine.pending
        if len(top) < 2:
            return  # one card or none on top: no order is asked (effects_players.scry)
        if after is None or after.player != name or after.kind != SCRY_ORDER:
            raise _Changed("The scry did not ask the order of the cards kept on top.")
        try:
            engine.answer(name, top)
        except IllegalAnswer as e:
            raise _Changed(str(e)) from None

    return _answering(game_id, player, apply, version=version, action_id=action_id, at=at)


class _Changed(ActionRefused):
    """A refusal after the engine was changed: the engine is not put back in the cache (the
    next action replays the game from its log, which the rollback left as it was)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "illegal")


def _answering(
    game_id: int,
    player: Player | None,
    apply: Callable[[Engine, Decision, str], None],
    *,
    version: int,
    action_id: str,
    at: datetime | None,
    epoch: int | None = None,
) -> Game:
    """Answer the pending decision of the player's seat: `apply(engine, decision, name)` gives
    the engine its answer(s) or raises ActionRefused, then the whole is committed at once."""
    at = at or timezone.now()

    def body() -> Game:
        a = _begin(game_id, player, version=version, action_id=action_id, kind="answer", at=at)
        if epoch is not None and epoch != a.game.log_epoch:
            raise ActionRefused("A takeback changed the game since that answer.", "stale")
        _check_no_takeback(a)
        engine = engine_for_update(a.game)
        d = engine.pending
        # A refusal below leaves the engine as it was (IllegalAnswer is raised before any
        # change), so it goes back to the cache at once; one after a change (_Changed) leaves
        # it out, to be rebuilt from the log.
        if d is None:
            remember(a.game, engine)
            raise ActionRefused("The game is over.", "over")
        if d.player != a.seat.engine_name:
            remember(a.game, engine)
            raise ActionRefused(
                f"It is {d.player}'s decision ({d.kind.replace('_', ' ')}), not yours.",
                "not_yours",
            )
        before = completed_counts(engine)
        try:
            apply(engine, d, a.seat.engine_name)
        except _Changed:
            log.warning("game %s: a combined answer failed halfway; replaying", a.game.pk)
            raise
        except ActionRefused:
            remember(a.game, engine)
            raise
        commit(a.game, engine, a.seats, before=before, action_id=action_id, at=at, actor=a.seat)
        return a.game

    return _run(body)
