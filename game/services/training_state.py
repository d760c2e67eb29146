"""Where a training game stands (a lesson or a puzzle played at the table, services/training.py),
and the hook that ends it: `judge`, called by `store.commit` for every change of a game, the one
place all answers pass through (docs/puzzles.md, "At the table").

After the answers of an action (before the pace feature plays on, and again after it), a training
game's lesson or puzzle is judged by game/puzzles/progress.py. Once it is solved or failed the
game ends the way every game ends, through the engine: the side that lost the lesson or the
puzzle concedes (CR 104.3a), logged with the note `solved` or `failed` so a replay writes the same
line, and the game's end reason is the lesson's words ("done" or the mistake) or the puzzle's
("Solved!", or why it failed). A game that ended otherwise (the player conceded: gave up) is
judged the same way, without a concession. Then the result is recorded: the training row, the
lesson done, the puzzle attempt and its ratings (services/puzzle_ratings.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.engine.game import Engine
from game.models import Game, Player, Seat
from game.puzzles.checker import Search
from game.puzzles.defence import Defence, search_for
from game.puzzles.progress import FAILED, PLAYING, SOLVED, Status, lesson_status, puzzle_status
from game.runtime.lru import LRU
from game.scenario.loader import Scenario, parse_scenario
from learn.models import LessonDone, Training

from .engines import loss_line
from .puzzle_ratings import record_attempt

# GameAction.note of the concession that ends a training game (engines.loss_line's words).
SOLVED_NOTE, FAILED_NOTE = "solved", "failed"
GAVE_UP = "You gave up."


@dataclass(frozen=True)
class Info:
    """What a training game plays, fixed when it starts (kept per process)."""

    training_id: int
    player_id: int
    kind: str
    slug: str  # the lesson's, or the puzzle's
    puzzle_id: int | None
    title: str
    text: str
    goal_text: str
    scenario: Scenario
    names: dict[str, str]  # the file's players -> the game's (engine names)
    solver: str  # the learner's engine name
    defender: str
    start: int  # answers of the file's script
    start_turn: int

    @property
    def is_puzzle(self) -> bool:
        return self.kind == Training.PUZZLE


_NOT_TRAINING = object()
_INFO: LRU[tuple[int, str], object] = LRU(512)


def info_of(game: Game) -> Info | None:
    """The training this game plays, or None for any other game (without a query: a game that
    did not start from a file)."""
    if not game.is_scenario:
        return None
    key = (game.pk, game.code)
    found = _INFO.get(key)
    if found is None:
        found = _read_info(game) or _NOT_TRAINING
        _INFO.put(key, found)
    return found if isinstance(found, Info) else None


def _read_info(game: Game) -> Info | None:
    training = Training.objects.filter(game_id=game.pk).select_related("puzzle").first()
    if training is None:
        return None
    scenario = parse_scenario(game.scenario_text, game.scenario_name or "training")
    seats = list(Seat.objects.filter(game_id=game.pk).order_by("position"))
    names = {p: s.engine_name for p, s in zip(scenario.players, seats, strict=True)}
    solver = next(s.engine_name for s in seats if s.player_id == training.player_id)
    defender = next(s.engine_name for s in seats if s.player_id != training.player_id)
    if training.kind == Training.LESSON:
        spec = scenario.lesson
        assert spec is not None
        title, text, goal_text = spec.title, spec.text, spec.goal_text
    else:
        puzzle = scenario.puzzle
        assert puzzle is not None and training.puzzle is not None
        title, text = training.puzzle.title, puzzle.text
        goal_text = (
            f"Win before turn {training.start_turn} ends."
            if puzzle.goal == "win"
            else f"Still be in the game when turn {training.start_turn + 1} begins."
        )
    return Info(
        training.pk,
        training.player_id,
        training.kind,
        training.lesson or (training.puzzle.slug if training.puzzle else ""),
        training.puzzle_id,
        title,
        text,
        goal_text,
        scenario,
        names,
        solver,
        defender,
        training.start,
        training.start_turn,
    )


def defence_for(game: Game) -> Defence | None:
    """What the puzzle's defender needs besides the game (game/puzzles/defence.py), for a
    puzzle's training game; None for any other game."""
    info = info_of(game)
    return _defence(info) if info is not None and info.is_puzzle else None


def search_of(info: Info, engine: Engine) -> Search:
    return search_for(engine.setup, engine.answers, _defence(info))


def _defence(info: Info) -> Defence:
    spec = info.scenario.puzzle
    assert spec is not None
    return Defence(spec.goal, info.solver, info.start, info.start_turn, spec.bound, info.title)


def status_of(info: Info, engine: Engine) -> Status:
    if info.is_puzzle:
        status = puzzle_status(search_of(info, engine), engine)
    else:
        status = lesson_status(info.scenario, engine, info.start_turn, info.names)
    if status.state == FAILED and engine.state.over and engine.state.player(info.solver).conceded:
        return Status(FAILED, GAVE_UP)
    if status.state == SOLVED and info.is_puzzle:
        survive = info.scenario.puzzle is not None and info.scenario.puzzle.goal == "survive"
        return Status(
            SOLVED,
            "You survived the best defence." if survive else "You won against the best defence.",
        )
    if status.state == FAILED and info.is_puzzle:  # in the learner's words
        g = engine.state
        if g.over:
            why = "The game ended with your loss." if g.winner != "draw" else "The game is a draw."
        elif info.scenario.puzzle and info.scenario.puzzle.goal == "survive":
            why = "You did not survive the turn."
        else:
            why = f"Turn {info.start_turn} ended before you won."
        return Status(FAILED, why, status.line)
    return status


def decided(game: Game) -> Callable[[Engine], bool] | None:
    """For a training game: whether its lesson or puzzle is decided in an engine (the pace
    feature stops there, store.commit); None for any other game."""
    info = info_of(game)
    if info is None or game.status == Game.FINISHED:
        return None
    return lambda engine: status_of(info, engine).state != PLAYING


@dataclass(frozen=True)
class Ended:
    """A training game decided by the answers being committed: its end reason, and the index in
    the answer log of the concession that ended it (None: the game was over already)."""

    reason: str
    index: int | None
    note: str


def judge(game: Game, engine: Engine) -> Ended | None:
    """The hook of `store.commit`: end a training game whose lesson or puzzle is decided."""
    info = info_of(game)
    if info is None or game.status == Game.FINISHED or len(engine.answers) < info.start:
        return None
    status = status_of(info, engine)
    if status.state == PLAYING:
        return None
    line = _line_in_words(info, engine) if info.is_puzzle and status.state == FAILED else []
    index, note = None, ""
    if not engine.state.over:
        index, note = len(engine.answers), SOLVED_NOTE if status.state == SOLVED else FAILED_NOTE
        loser = info.defender if status.state == SOLVED else info.solver
        engine.concede(loser, line=loss_line(engine, loser, note))
    _record(info, game, status, line)
    return Ended(status.message, index, note)


def _line_in_words(info: Info, engine: Engine) -> list[str]:
    """The line played from the puzzle's position, as the checker words a line."""
    played = [(who, a) for who, a in engine.answers[info.start :] if a != "!concede"]
    try:
        return search_of(info, engine).words(played)
    except Exception:  # the words are an explanation: never a reason for the game not to end
        return []


def _record(info: Info, game: Game, status: Status, line: list[str]) -> None:
    Training.objects.filter(pk=info.training_id).update(
        state=status.state, message=status.message, line=line
    )
    player = Player.objects.get(pk=info.player_id)
    if info.is_puzzle:
        assert info.puzzle_id is not None
        record_attempt(player, info.puzzle_id, solved=status.state == SOLVED, game=game)
    elif status.state == SOLVED:
        LessonDone.objects.get_or_create(player=player, lesson=info.slug)
