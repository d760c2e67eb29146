"""Playing a training game through the services, as the table would: the learner's moves by
label, the computer's answers as a server gives them (without the delay)."""

from __future__ import annotations

from game import services
from game.models import Game, Player
from game.runtime import thinking


def computer_answers(game: Game) -> int:
    applied = 0
    while (turn := services.computer_turn(game.pk)) is not None:
        assert services.answer_for_computer(turn, thinking.think(turn.job))
        applied += 1
    return applied


def walk(game: Game, player: Player, moves: list, *, most: int = 300) -> Game:
    """Play `moves` (labels of the learner's answers, in order; a list of labels for a
    multi-select) until the game ends: the learner's other priority decisions pass, a decision
    with nothing to pick picks nothing, any other takes its first option; the computer answers
    for itself."""
    moves = list(moves)
    for _ in range(most):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            return game
        me = game.seats.get(player=player).engine_name
        with services.reading(game) as engine:
            d = engine.pending
        if d.player != me:
            assert computer_answers(game), f"nobody answers {d.player}'s {d.kind}"
            continue
        labels = {o.label: o.id for o in d.options}
        wanted = moves[0] if moves else None
        if isinstance(wanted, list) and all(label in labels for label in wanted):
            answer = [labels[label] for label in moves.pop(0)]
        elif isinstance(wanted, str) and wanted in labels:
            chosen = labels[moves.pop(0)]
            answer = [chosen] if (d.multi or d.ordered) else chosen
        elif d.kind == "priority":
            answer = "pass"
        elif d.multi and d.min_count == 0:
            answer = []
        else:
            answer = [d.options[0].id] if (d.multi or d.ordered) else d.options[0].id
        services.submit_answer(game.pk, player, answer, version=game.version)
    raise AssertionError(f"the game never ended; moves left: {moves}")
