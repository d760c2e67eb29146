"""Training games: a lesson or a puzzle played at the table against the computer
(docs/puzzles.md, "At the table").

A training game is an ordinary game against the computer started from the lesson's or the
puzzle's file, like a game from an uploaded position (lifecycle.start_game) and like "Try it"
(practice.py): stored, replayed, shown by the same table. The file's script, if any, is played
as the game's first answers (lesson 6 starts with a combat damage division pending). Across the
table sits, for a lesson, its `opponent`: the practice partner (`passive`: the computer at Easy
that passes priority and never attacks) or the computer at that level; for a puzzle, the
puzzles' defender (`Player.DEFENDER`), which answers with the checker's best defence
(game/puzzles/defence.py) and may stop at every step. The learner plays the file's first player
in a lesson, the puzzle's solver in a puzzle.

What the learner sees is what any player sees: the defender's hand and both libraries stay
hidden, and the file (which holds the solution) is not offered while the game runs
(Game.position_file_open_to). A puzzle whose defence turns on a card in the defender's hand says
so in its text, as a Forge puzzle's description does.

The game ends when its lesson or puzzle is decided (training_state.judge, called by
store.commit). A player has at most one running game per lesson or puzzle: starting it again
goes back to that game. Games against a passive partner are practice games and do not count
against the cap on games against the computer (computer_limit.py); the others count.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from game.engine.dungeon import dungeon_spec
from game.engine.game import Engine, GameSetup
from game.models import Game, Player, Seat
from game.puzzles.catalog import Lesson, lesson, lessons
from game.scenario.loader import Scenario, ScenarioError, parse_scenario
from game.scenario.runner import play_script
from learn.models import Puzzle, Training

from .actions import concede
from .computer import computer_player
from .computer_limit import check_room_for_computer_game
from .errors import ActionRefused
from .lifecycle import dungeon_dicts_in_play, start_game
from .practice_seat import NEVER


def start_lesson(player: Player, slug: str, *, at: datetime | None = None) -> Game:
    """The player's game of lesson `slug`: the running one, or a new one."""
    found = lesson(slug)
    if found is None:
        raise ActionRefused(f"There is no lesson {slug!r}.", "bad_input")
    return _start(player, Training.LESSON, found.text, found.scenario, slug=slug, at=at)


def start_puzzle(player: Player, puzzle: Puzzle, *, at: datetime | None = None) -> Game:
    """The player's game of `puzzle` (published, or a draft for staff to try): the running one,
    or a new one against the best defence."""
    try:
        scenario = parse_scenario(puzzle.text, f"{puzzle.slug}.yaml")
    except ScenarioError as e:
        raise ActionRefused(f"This puzzle can't be played: {e}", "scenario") from None
    if scenario.puzzle is None:
        raise ActionRefused("This puzzle has no puzzle block yet.", "scenario")
    return _start(player, Training.PUZZLE, puzzle.text, scenario, puzzle=puzzle, at=at)


def again(old: Game, at: datetime | None = None) -> Game | None:
    """A fresh game of the lesson or puzzle `old` played (its "Try again", its rematch), or
    None when `old` is not a training game."""
    training = Training.objects.filter(game_id=old.pk).select_related("player", "puzzle").first()
    if training is None:
        return None
    if training.kind == Training.LESSON:
        return start_lesson(training.player, training.lesson, at=at)
    assert training.puzzle is not None
    return start_puzzle(training.player, training.puzzle, at=at)


def try_again(game_id: int, player: Player | None, *, at: datetime | None = None) -> Game:
    """ "Try again": the learner's fresh game of the same lesson or puzzle; one still running is
    given up first."""
    game = Game.objects.filter(pk=game_id).first()
    training = Training.objects.filter(game_id=game_id).first()
    if game is None or training is None:
        raise ActionRefused("That game is not a lesson or a puzzle.", "no_game")
    if player is None or training.player_id != player.pk:
        raise ActionRefused("Only the player learning here can start it again.", "no_seat")
    if game.status == Game.ACTIVE:
        give_up(game_id, player, at=at)
    new = again(game, at)
    assert new is not None
    return new


def give_up(game_id: int, player: Player | None, *, at: datetime | None = None) -> Game:
    """End the learner's attempt as failed ("Give up"): a concession (CR 104.3a), which the
    training's judge records as failed; a puzzle's solution is shown then."""
    training = Training.objects.filter(game_id=game_id).first()
    if training is None or player is None or training.player_id != player.pk:
        raise ActionRefused("Only the player learning here can give up.", "no_seat")
    return concede(game_id, player, at=at)


def _start(
    player: Player,
    kind: str,
    text: str,
    scenario: Scenario,
    *,
    slug: str = "",
    puzzle: Puzzle | None = None,
    at: datetime | None = None,
) -> Game:
    if player.is_computer:
        raise ActionRefused("The computer does not take lessons.", "bad_input")
    at = at or timezone.now()
    if kind == Training.LESSON:
        assert scenario.lesson is not None
        learner = scenario.players[0]
        level = scenario.lesson.opponent
    else:
        assert scenario.puzzle is not None
        learner = scenario.puzzle.solver
        level = Player.DEFENDER
    dungeons = dungeon_dicts_in_play()
    script, start_turn = script_answers(scenario, dungeons)
    with transaction.atomic():
        running = Training.objects.filter(
            player=player,
            kind=kind,
            lesson=slug,
            puzzle=puzzle,
            game__status=Game.ACTIVE,
        ).select_related("game")
        if (found := running.first()) is not None:
            return found.game
        opponent = computer_player(Player.EASY if level == "passive" else level)
        if level != "passive":
            check_room_for_computer_game(player)
        game = Game.objects.create(
            created_by=player,
            scenario_name=scenario.name[: Game._meta.get_field("scenario_name").max_length],
            scenario_text=text,
            dungeons=dungeons,
        )
        mine = scenario.players.index(learner)
        Seat.objects.create(game=game, player=player, position=mine)
        partner = (
            {"pass_until": Seat.PASS_MY_TURN, "pass_turn": NEVER} if level == "passive" else {}
        )
        Seat.objects.create(game=game, player=opponent, position=1 - mine, **partner)
        Training.objects.create(
            game=game,
            player=player,
            kind=kind,
            lesson=slug,
            puzzle=puzzle,
            start=len(script),
            start_turn=start_turn,
        )
        start_game(game, at, script=script)
    return game


def script_answers(
    scenario: Scenario, dungeons: list[dict[str, Any]]
) -> tuple[list[tuple[str, Any]], int]:
    """The answers the file's script gives (each by a player of the file) and the turn where it
    stops: played once here, on the file's own players, then given to the game as its first
    answers. A game numbers the objects of a position alike whatever its players are called
    (in seat order), so the answers mean the same there."""
    engine = Engine(
        GameSetup(
            players=scenario.players,
            seed=scenario.seed,
            dungeons={d["name"]: dungeon_spec(d) for d in dungeons},
            position=json.loads(json.dumps(scenario.position)),
        )
    )
    try:
        play_script(scenario, engine, checks=False)
    except ScenarioError as e:
        raise ActionRefused(f"This file's script can't be played: {e}", "scenario") from None
    return list(engine.answers), engine.state.turn


def lessons_done(player: Player | None) -> set[str]:
    if player is None:
        return set()
    return set(player.lessons_done.values_list("lesson", flat=True))


def lesson_list(player: Player | None) -> list[tuple[Lesson, bool]]:
    done = lessons_done(player)
    return [(found, found.slug in done) for found in lessons()]
