"""The puzzle checker: proves that a puzzle can be won and that its published solution wins
against every defence, by trying every line (docs/puzzles.md, "The checker").

The game from the puzzle's position is a tree of decisions. At the defender's decisions every
legal answer is tried (the solution must beat each); at the solver's, the published solution says
what to answer. A second search, free on the solver's side too, looks for other winning first
moves and, when the solution fails, for whether the puzzle can be won at all. Mana abilities are
left out of both sides' choices: mana is paid automatically when a spell or ability needs it, so
tapping a land by hand only adds lines that end the same way.

Every position visited is a replay of the game's answers from the puzzle's start (the engine
runs its rules as a generator, which cannot be copied); the bound counts these replays, and a
search that reaches it says so instead of guessing.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine.decisions import Decision, IllegalAnswer
from game.engine.game import Engine, GameSetup, replay
from game.engine.kinds import PRIORITY
from game.scenario.loader import Scenario, ScenarioError, Step, load_scenario
from game.scenario.puzzle_spec import PuzzleSpec, SolutionStep
from game.scenario.runner import build_game, match_answer, play_script

# The most answers one multi-select or ordering may offer the search (subsets of blocks, orders
# of triggers); a puzzle needing more is refused as too wide rather than searched in part.
MAX_ANSWERS_PER_DECISION = 512

Line = list[tuple[str, Any]]


class BoundReached(Exception):
    """The search visited as many positions as the puzzle's bound allows."""


class PuzzleError(Exception):
    """A puzzle that cannot be checked: no `puzzle` block, or its script cannot be played."""


@dataclass
class Report:
    path: str
    name: str
    goal: str
    solver: str
    solution_wins: bool | None = None  # None: the bound was reached first
    winnable: bool | None = None
    refutation: list[str] = field(default_factory=list)  # the line that beats the solution
    problem: str = ""  # why that line beats it
    other_wins: list[list[str]] = field(default_factory=list)  # other winning lines found
    positions: int = 0
    bound: int = 0
    bound_reached: bool = False
    seconds: float = 0.0

    @property
    def sound(self) -> bool:
        return bool(self.solution_wins)

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "goal": self.goal,
            "solver": self.solver,
            "sound": self.sound,
            "solution_wins": self.solution_wins,
            "winnable": self.winnable,
            "refutation": self.refutation,
            "problem": self.problem,
            "other_wins": self.other_wins,
            "positions": self.positions,
            "bound": self.bound,
            "bound_reached": self.bound_reached,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class _Fail:
    line: Line
    problem: str


class Search:
    """The tree of one puzzle from its position: replays, outcomes and the answers to try."""

    def __init__(self, scenario: Scenario, *, bound: int | None = None) -> None:
        if scenario.puzzle is None:
            raise PuzzleError(f"{scenario.path}: the file has no 'puzzle' block")
        self.scenario = scenario
        self.path = scenario.path
        self.spec: PuzzleSpec = scenario.puzzle
        game = build_game(scenario)
        try:
            play_script(scenario, game, checks=False)
        except ScenarioError as e:
            raise PuzzleError(str(e)) from None
        if game.over:
            raise PuzzleError(f"{scenario.path}: the game is over before the puzzle starts")
        self.setup = game.setup
        self.start: Line = list(game.answers)
        self.start_turn = game.state.turn
        self.solver = self.spec.solver
        self.bound = bound if bound is not None else self.spec.bound
        self.positions = 0

    @classmethod
    def resumed(
        cls,
        setup: GameSetup,
        start: Line,
        *,
        goal: str,
        solver: str,
        start_turn: int,
        bound: int,
        path: str = "the puzzle",
    ) -> Search:
        """The tree of a puzzle being played as a game of its own (a training game,
        game/services/training.py): `setup` is that game's (its players' names, its seed),
        `start` the answers that reached the puzzle's position, `solver` the solver's name
        there. Only `outcome`, the free search (`wins`, `best_defence`) and `words` are meant
        for it: the published solution names the file's players, not the game's."""
        search = cls.__new__(cls)
        search.scenario = None  # type: ignore[assignment]
        search.path = path
        search.spec = PuzzleSpec(goal, solver, "")
        search.setup = setup
        search.start = list(start)
        search.start_turn = start_turn
        search.solver = solver
        search.bound = bound
        search.positions = 0
        return search

    # positions --------------------------------------------------------------------------------
    def game(self, line: Line) -> Engine:
        self.positions += 1
        if self.positions > self.bound:
            raise BoundReached
        return replay(self.setup, self.start + line)

    def outcome(self, game: Engine) -> bool | None:
        """True when the solver has reached the goal, False when it can no longer, None while
        the puzzle goes on. A draw is not a win; surviving means not having lost."""
        g = game.state
        if game.over:
            solver_lost = g.player(self.solver).lost
            if self.spec.goal == "win":
                return g.winner == self.solver
            return not solver_lost
        if g.turn > self.start_turn:
            return self.spec.goal == "survive"
        return None

    def answers(self, game: Engine, d: Decision) -> list[Any]:
        """Every legal answer to try at `d`; mana abilities left out (paid automatically)."""
        if d.kind == PRIORITY:
            return ["pass", *(o.id for o in d.options if o.id != "pass" and o.data != "mana")]
        ids = [o.id for o in d.options]
        if d.ordered:
            found = list(
                itertools.islice(itertools.permutations(ids), MAX_ANSWERS_PER_DECISION + 1)
            )
            out = [list(p) for p in found]
        elif d.multi:
            out = []
            low, high = d.min_count, min(d.max_count, len(ids))
            for size in range(low, high + 1):
                for combo in itertools.combinations(ids, size):
                    out.append(list(combo))
                    if len(out) > MAX_ANSWERS_PER_DECISION * 8:
                        raise PuzzleError(
                            f"{self.path}: a {d.kind} decision offers too many answers "
                            f"to try (more than {MAX_ANSWERS_PER_DECISION})"
                        )
        else:
            return ids
        legal = [a for a in out if _legal(d, a)]
        if len(legal) > MAX_ANSWERS_PER_DECISION:
            raise PuzzleError(
                f"{self.path}: a {d.kind} decision offers {len(legal)} answers to try "
                f"(at most {MAX_ANSWERS_PER_DECISION})"
            )
        return legal

    def words(self, line: Line) -> list[str]:
        """The line as a person reads it, from the puzzle's position: `player: label` for each
        answer but priority passes, and the step's name where the game enters a new one."""
        game = replay(self.setup, self.start)
        out = []
        serial = game.state.step_serial
        for who, answer in line:
            d = game.pending
            assert d is not None
            if game.state.step_serial != serial:
                serial = game.state.step_serial
                out.append(f"({game.state.step.replace('_', ' ')})")
            if not (d.kind == PRIORITY and answer == "pass"):
                out.append(f"{who}: {_label(d, answer)}")
            game.answer(who, answer)
        if game.over:
            out.append(f"(the game is over: {game.state.winner or 'nobody'} won)")
        elif game.state.turn > self.start_turn:
            out.append(f"(turn {game.state.turn} begins)")
        return out

    # the published solution -------------------------------------------------------------------
    def follow(self, line: Line, at: int, advancing: tuple[str, int] | None) -> _Fail | None:
        """None when the solution, from entry `at`, wins from `line` against every defence;
        else the line that beats it."""
        game = self.game(line)
        done = self.outcome(game)
        if done is not None:
            return None if done else _Fail(line, self._why_not(game))
        d = game.pending
        assert d is not None
        if d.player != self.solver:
            for answer in self.answers(game, d):
                fail = self.follow([*line, (d.player, answer)], at, advancing)
                if fail is not None:
                    return fail
            return None
        move = self._solution_move(game, d, at, advancing)
        if isinstance(move, str):
            return _Fail(line, move)
        answer, at, advancing = move
        return self.follow([*line, (self.solver, answer)], at, advancing)

    def _solution_move(
        self, game: Engine, d: Decision, at: int, advancing: tuple[str, int] | None
    ) -> tuple[Any, int, tuple[str, int] | None] | str:
        """The solver's answer at `d` by the solution, and where the solution then stands; or
        why the solution cannot answer `d`."""
        g = game.state
        steps = self.spec.solution
        if advancing is not None:
            step_name, serial = advancing
            arrived = g.step == step_name and g.step_serial > serial
            if d.kind == PRIORITY and not arrived:
                return "pass", at, advancing
            advancing = None  # arrived, or stopped early at a real decision (as `advance` does)
        if at < len(steps) and steps[at].kind == "advance" and d.kind == PRIORITY:
            return "pass", at + 1, (steps[at].value, g.step_serial)
        entry = steps[at] if at < len(steps) else None
        matched = self._match(game, d, entry)
        if matched is not None:
            return matched, at + 1, advancing
        if d.kind == PRIORITY:
            return "pass", at, advancing
        only = self.answers(game, d)
        if len(only) == 1:
            return only[0], at, advancing
        said = (
            f"the solution's next step ({entry.value!r}, line {entry.line})"
            if entry
            else ("the solution, which has no steps left,")
        )
        return (
            f"{said} does not answer {d.player}'s {d.kind} decision ({d.prompt}); its options: "
            + "; ".join(o.label for o in d.options)
        )

    def _match(self, game: Engine, d: Decision, entry: SolutionStep | None) -> Any:
        if entry is None or entry.kind != "answer":
            return None
        step = Step(entry.line, "answer", self.solver, entry.value)
        try:
            answer = match_answer(game, d, step, self.scenario.path)
        except ScenarioError:
            return None
        return answer if _legal(d, answer, self.solver) else None

    def _why_not(self, game: Engine) -> str:
        g = game.state
        if game.over:
            return f"the game ended: {g.winner or 'nobody'} won"
        if self.spec.goal == "win":
            return f"turn {self.start_turn} ended without {self.solver} winning"
        return "the turn ended"

    # the free search --------------------------------------------------------------------------
    def wins(self, line: Line) -> Line | None:
        """A line of the solver's answers (with the defender's first replies) that wins from
        `line` against every defence, or None when none does."""
        game = self.game(line)
        done = self.outcome(game)
        if done is not None:
            return line if done else None
        d = game.pending
        assert d is not None
        if d.player == self.solver:
            for answer in self._solver_order(d, self.answers(game, d)):
                found = self.wins([*line, (self.solver, answer)])
                if found is not None:
                    return found
            return None
        first: Line | None = None
        for answer in self.answers(game, d):
            found = self.wins([*line, (d.player, answer)])
            if found is None:
                return None
            first = first or found
        return first

    @staticmethod
    def _solver_order(d: Decision, answers: list[Any]) -> Iterator[Any]:
        # Acting before passing: a puzzle is solved by doing something, so the winning line is
        # usually found sooner by trying the actions first.
        if d.kind == PRIORITY:
            yield from answers[1:]
            yield answers[0]
        else:
            yield from answers


def _same_answer_key(d: Decision, answer: Any) -> Any:
    """An answer as a value that two ways of writing it share: a multi-select is a set (the
    solution may list blocks in any order), an ordering stays a list."""
    if isinstance(answer, list) and d.multi and not d.ordered:
        return frozenset(answer)
    return tuple(answer) if isinstance(answer, list) else answer


def _legal(d: Decision, answer: Any, player: str | None = None) -> bool:
    try:
        d.validate(player or d.player, answer)
    except IllegalAnswer:
        return False
    return True


def _label(d: Decision, answer: Any) -> str:
    if isinstance(answer, list):
        return "[" + ", ".join(d.option(a).label for a in answer) + "]"
    return d.option(answer).label


def check(scenario: Scenario, *, bound: int | None = None, others: bool = True) -> Report:
    """Prove the puzzle sound (the solution wins against every defence) and look for other
    winning first moves; the report says where the bound stopped a search."""
    began = time.process_time()
    search = Search(scenario, bound=bound)
    spec = search.spec
    report = Report(scenario.path, scenario.name, spec.goal, spec.solver, bound=search.bound)
    try:
        fail = search.follow([], 0, None)
        report.solution_wins = fail is None
        if fail is not None:
            report.refutation = search.words(fail.line)
            report.problem = fail.problem
    except BoundReached:
        report.bound_reached = True
    if report.solution_wins:
        report.winnable = True
    elif not report.bound_reached:
        try:
            report.winnable = search.wins([]) is not None
        except BoundReached:
            report.bound_reached = True
    if others and report.solution_wins:
        try:
            report.other_wins = _other_first_moves(search)
        except BoundReached:
            report.bound_reached = True
    report.positions = search.positions
    report.seconds = time.process_time() - began
    return report


def _other_first_moves(search: Search) -> list[list[str]]:
    """Winning lines that begin with another answer than the solution's at the solver's first
    real choice (the first decision where the solution's move is not the only one)."""
    line: Line = []
    at, advancing = 0, None
    while True:
        game = search.game(line)
        if search.outcome(game) is not None:
            return []
        d = game.pending
        assert d is not None
        if d.player != search.solver:
            replies = search.answers(game, d)
            line = [*line, (d.player, replies[0])]
            continue
        options = search.answers(game, d)
        move = search._solution_move(game, d, at, advancing)
        assert not isinstance(move, str)
        if len(options) > 1:
            break
        answer, at, advancing = move
        line = [*line, (search.solver, answer)]
    chosen = _same_answer_key(d, move[0])
    found = []
    for answer in options:
        if _same_answer_key(d, answer) == chosen:
            continue
        won = search.wins([*line, (search.solver, answer)])
        if won is not None:
            found.append(search.words(won))
    return found


def check_file(path: str | Path, *, bound: int | None = None) -> Report:
    return check(load_scenario(path), bound=bound)


def best_defence(search: Search, line: Line) -> Any:
    """The defender's answer at the decision `line` reaches: one after which the solver can no
    longer force the goal, when there is one (the first found, in the decision's order); when
    every answer loses, the one after which the solver's forced line is longest, so a player
    who solves the puzzle has met the whole defence. BoundReached when the search is cut off."""
    game = search.game(line)
    d = game.pending
    assert d is not None and d.player != search.solver
    longest: tuple[int, Any] | None = None
    for answer in search.answers(game, d):
        won = search.wins([*line, (d.player, answer)])
        if won is None:
            return answer
        if longest is None or len(won) > longest[0]:
            longest = (len(won), answer)
    assert longest is not None
    return longest[1]


def still_winnable(search: Search, line: Line) -> Line | None:
    """A winning line for the solver from `line` (its moves with the defender's first replies),
    or None when the defence can now stop the goal."""
    return search.wins(line)
