"""Hard: search over sampled worlds, guided by the position evaluation (docs/ai.md).

For a decision with a real choice, the candidate answers are listed (candidates.py: every legal
answer where they are few). When there are more than `MAX_CANDIDATES`, they are pruned: an
attack or a block is scored by the combat calculator (`PRUNERS`), anything else looked at one
step ahead in the first sampled world (the spell resolved), and the best few go on, with
Medium's answer always among them. Each of those is then tried in the
same sampled worlds (common random numbers: every candidate meets the same guessed hands and
draws): the candidate is applied to a copy of the world, the players play to the end of the next
turn (the search's own side Medium, the other side in the style of that world, opponents.py),
and the position is evaluated. The candidate with the best mean wins if it beats Medium's answer
clearly, world by world (`CLEAR`); otherwise Medium's answer stands.

The game is replayed once per search, and each world's copies resume from a snapshot near the
decision (copies.py), so a long game costs little more than a short one.

How much is searched is counted in engine decisions, not seconds, so the answer depends only on
the visible position and the seed: a budget of decisions is shared among the candidates and
worlds, and every size the search takes (candidates, worlds) follows from the decision, the
length of the log and the budget, all of which the seat sees. A `deadline` (a `time.monotonic()`
instant) can cut the search short: it then answers with the best mean over the worlds it has
finished; before the first, with the best look one step ahead, or Medium's answer. With no
deadline, or one not reached, the answer is the same on any machine; the tests leave it out.
Where the deadline cuts depends on how long the sampled worlds take, and they are built from the
seat's view and the seed alone, so the cut carries no hidden information either.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from game.engine import kinds
from game.engine.decisions import Decision, IllegalAnswer
from game.engine.game import Engine
from game.engine.state import AFTER_COMBAT, GameState

from .answers import Answer
from .block_problem import block_answer_worth
from .candidates import candidate_answers
from .combat import all_in_is_safe, attack_answer_worth
from .copies import Fork
from .features import evaluate
from .opponents import rollout_players
from .policy import Policy
from .worlds import determinize

# The work a search may spend, in decisions played by the policy (about 0.1 ms of CPU each):
# replaying an answer costs REPLAY_COST of that, copying a world from its snapshot COPY_COST, a
# sampled game about ROLLOUT_ESTIMATE decisions (to the end of the next turn), a look one step
# ahead LOOK_ESTIMATE; all measured on this machine's games. 6000 is about 0.45 s of CPU; twice
# as much measured no stronger (docs/ai.md, "Sizing and the deadline").
BUDGET = 6000
REPLAY_COST = 0.25
COPY_COST = 5
ROLLOUT_ESTIMATE = 80
LOOK_ESTIMATE = 12
MAX_WORLDS = 10
MIN_WORLDS = 2
MAX_CANDIDATES = 5
ROLLOUT_DECISIONS = 300  # a sampled game stops here even if the turn hasn't ended
LOOK_DECISIONS = 60  # a look one step ahead stops here
SEARCHED = frozenset(
    {
        kinds.PRIORITY,
        kinds.DECLARE_ATTACKERS,
        kinds.DECLARE_BLOCKERS,
        kinds.CHOOSE_TARGETS,
        kinds.CHOOSE_ROOM,
        kinds.UNLESS,
        kinds.YES_NO,
        kinds.DIVIDE,
        kinds.CAST_FREE,
    }
)
# Not searched: which dungeon to enter (CHOOSE_DUNGEON). Its worth is the whole path to a
# completion and what waits on one (Nadaar, a Cloister Gargoyle), which Medium's rule reads
# (rooms.py) and a sampled game, ending with the next turn, never reaches: the search saw only
# the first room, and took Dungeon of the Mad Mage's 1 life over Lost Mine of Phandelver.
COMBAT = frozenset({kinds.DECLARE_ATTACKERS, kinds.DECLARE_BLOCKERS})


class OutOfTime(Exception):
    """The deadline came."""


class Clock:
    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline

    def check(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime


def searches(game: Engine, seat: str, seed: int) -> bool:
    """Whether Hard searches this decision (more than one candidate) rather than answering at
    once with Medium's answer."""
    d = game.pending
    if d is None or d.kind not in SEARCHED:
        return False
    medium = Policy(seat, random.Random(seed)).answer(game)
    if _keeps_medium(game, seat, d, medium):
        return False
    return len(candidate_answers(game, seat, d, medium)) > 1


def _keeps_medium(game: Engine, seat: str, d: Decision, medium: Answer) -> bool:
    """Whether Medium's answer stands without a search: an attack with everything that is lethal
    unblocked and that the crack-back cannot punish (`combat.all_in_is_safe`), which the
    sampled games, ending before the seat's next attack, undervalue."""
    return d.kind == kinds.DECLARE_ATTACKERS and all_in_is_safe(game.state, d, seat, medium)


def search_answer(game: Engine, seat: str, seed: int, deadline: float | None = None) -> Answer:
    d = game.pending
    assert d is not None
    rng = random.Random(seed)
    medium = Policy(seat, random.Random(seed)).answer(game)
    if d.kind not in SEARCHED or _keeps_medium(game, seat, d, medium):
        return medium
    candidates = candidate_answers(game, seat, d, medium)
    if len(candidates) <= 1:
        return medium
    clock = Clock(deadline)
    # The looks one step ahead, by candidate: what the search answers from should the deadline
    # come before a world is finished.
    looked: list[float] = []
    try:
        fork, candidates, worlds, world_seeds = plan(game, seat, candidates, rng, clock, looked)
    except OutOfTime:
        return _best(candidates[: len(looked)], looked) if looked else medium
    rows: list[list[float]] = []  # each world's evaluation of each candidate
    try:
        for w in range(worlds):
            row = []
            for answer in candidates:
                clock.check()
                row.append(_try(fork, game, seat, answer, w, world_seeds[w], clock))
            rows.append(row)
    except OutOfTime:
        if not rows:
            return _best(candidates, looked) if looked else medium
    return _chosen(candidates, rows)


# How clearly the best candidate must beat Medium's answer to be played instead: its mean gain
# over the worlds, world by world, above CLEAR standard errors of that gain. A playtest: Hard
# kept a 4/4 flier home against a lone 3/3 with reach, where attacking was free; the worlds
# differed by the other player's rollout attacking into it or not (a gain of 0.5 against a
# standard error of 1.2), and Medium attacked.
CLEAR = 1.0


def _chosen(candidates: list[Answer], rows: list[list[float]]) -> Answer:
    """The candidate with the best total over the worlds (`_rank`), if it beats Medium's (the
    first) clearly (CLEAR); else Medium's."""
    totals = [sum(column) for column in zip(*rows, strict=True)]
    best = min(range(len(totals)), key=lambda i: _rank(totals, i))
    n = len(rows)
    if best == 0 or n < 2:
        return candidates[best]
    gains = [row[best] - row[0] for row in rows]
    mean = sum(gains) / n
    spread = (sum((x - mean) ** 2 for x in gains) / (n - 1)) ** 0.5
    return candidates[best] if mean > CLEAR * spread / n**0.5 else candidates[0]


def plan(
    game: Engine,
    seat: str,
    candidates: list[Answer],
    rng: random.Random,
    clock: Clock,
    looked: list[float],
) -> tuple[Fork, list[Answer], int, list[int]]:
    """The search's plan for `candidates` (Medium's first): the fork its worlds are copied from,
    the candidates left after pruning, how many worlds each is tried in, and the seed of each
    world. `looked` gets the pruning's looks one step ahead (bench/search_allocation.py shares
    the worlds otherwise, from the same plan)."""
    d = game.pending
    assert d is not None
    world_seeds = [rng.getrandbits(64) for _ in range(MAX_WORLDS)]
    fork = Fork(game)
    budget = BUDGET - len(game.answers) * REPLAY_COST
    one_copy = COPY_COST + len(fork.tail) * REPLAY_COST
    if len(candidates) > MAX_CANDIDATES:
        # A pruner's score costs a fraction of a look (docs/performance.md): left out.
        if d.kind not in PRUNERS:
            budget -= len(candidates) * (one_copy + LOOK_ESTIMATE)
        candidates = prune(fork, game, seat, candidates, world_seeds[0], clock, looked)
    per_world = len(candidates) * (one_copy + ROLLOUT_ESTIMATE)
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, int(budget // per_world)))
    return fork, candidates, worlds, world_seeds


def _rank(totals: list[float], i: int) -> tuple[float, bool, int]:
    """A candidate's place, best first: the best total; a tie goes to Medium's (the first), then
    the earlier."""
    return (-round(totals[i], 6), i != 0, i)


def _best(candidates: list[Answer], totals: list[float]) -> Answer:
    """The candidate with the best total (`_rank`)."""
    return candidates[min(range(len(totals)), key=lambda i: _rank(totals, i))]


def _world(fork: Fork, game: Engine, seat: str, world_seed: int) -> tuple[Engine, random.Random]:
    """A copy of the game with every hidden card guessed, the same for every candidate."""
    world_rng = random.Random(world_seed)
    world = fork.copy()
    determinize(world, game, seat, world_rng)
    return world, world_rng


def _try(
    fork: Fork, game: Engine, seat: str, answer: Answer, w: int, world_seed: int, clock: Clock
) -> float:
    world, world_rng = _world(fork, game, seat, world_seed)
    try:
        world.answer(seat, answer)
    except IllegalAnswer:
        return -1e9
    play_out(world, seat, w, world_rng.getrandbits(32), ROLLOUT_DECISIONS, clock)
    return evaluate(world.state, seat)


# A sampled game looks at the clock every this many decisions (about 1 ms of CPU), so a
# deadline is overrun by little more than that.
CLOCK_EVERY = 10


def play_out(
    world: Engine, seat: str, w: int, seed: int, max_decisions: int, clock: Clock | None = None
) -> None:
    """Play both sides (Medium for `seat`, world `w`'s style for the other) to the end of the
    other player's next turn when `seat` is active (its answer to what the seat did), or to the
    end of this turn when it is the other player's; or until the game ends, or `max_decisions`
    answers. `clock` is checked every CLOCK_EVERY decisions. Playing on through the seat's next
    turn when it defends measured no stronger (docs/ai.md, "Hard")."""
    g = world.state
    stop_turn = g.turn + 2 if g.active == seat else g.turn + 1
    players = rollout_players(g, seat, w, seed)
    n = 0
    while world.pending is not None and n < max_decisions and g.turn < stop_turn:
        if clock is not None and n % CLOCK_EVERY == CLOCK_EVERY - 1:
            clock.check()
        d = world.pending
        world.answer(d.player, players[d.player].answer(world))
        n += 1


# Pruning ---------------------------------------------------------------------------------------
# How a candidate is scored before the worlds are sampled, by kind of decision. The default is a
# look one step ahead (`look_ahead`), a few milliseconds a candidate. An attack or a block is
# scored by the combat calculator instead (`combat.attack_answer_worth`,
# `block_problem.block_answer_worth`): what dies on each side and the life race, without
# playing. A pruner is made once per decision and scores one answer at a time, on the seat's
# view of the real game (no sampled world).
Pruner = Callable[[GameState, Decision, str], Callable[[Answer], float]]


PRUNERS: dict[str, Pruner] = {
    kinds.DECLARE_BLOCKERS: block_answer_worth,
    kinds.DECLARE_ATTACKERS: attack_answer_worth,
}


def look_ahead(
    fork: Fork, game: Engine, seat: str, answer: Answer, world_seed: int, clock: Clock
) -> float:
    """The position one step after `answer` in the first sampled world, Medium on both sides:
    after the combat for an attack or a block, else once the stack is empty again or the step
    is over."""
    clock.check()
    world, world_rng = _world(fork, game, seat, world_seed)
    d = world.pending
    assert d is not None
    g = world.state
    combat = d.kind in COMBAT
    turn, serial = g.turn, g.step_serial
    try:
        world.answer(seat, answer)
    except IllegalAnswer:
        return -1e9
    players = rollout_players(g, seat, 0, world_rng.getrandbits(32))
    for n in range(LOOK_DECISIONS):
        if n % CLOCK_EVERY == CLOCK_EVERY - 1:
            clock.check()
        now = world.pending
        if now is None or g.turn != turn:
            break
        if combat and g.step in AFTER_COMBAT:
            break
        if not combat and g.step_serial != serial:
            break
        if not combat and not g.stack and now.player == seat and now.kind == kinds.PRIORITY:
            break
        world.answer(now.player, players[now.player].answer(world))
    return evaluate(g, seat)


def prune(
    fork: Fork,
    game: Engine,
    seat: str,
    candidates: list[Answer],
    world_seed: int,
    clock: Clock,
    scores: list[float],
) -> list[Answer]:
    """Medium's answer (the first) and the best `MAX_CANDIDATES - 1` others by their score,
    appending each candidate's score to `scores` as it comes (so that what was scored before a
    deadline can still be used), then leaving there the scores of those kept, in their order."""
    d = game.pending
    assert d is not None
    pruner = PRUNERS.get(d.kind)
    if pruner is not None:
        worth = pruner(game.state, d, seat)
        for answer in candidates:
            clock.check()
            scores.append(worth(answer))
    else:
        for answer in candidates:
            scores.append(look_ahead(fork, game, seat, answer, world_seed, clock))
    order = sorted(range(1, len(scores)), key=lambda i: (-round(scores[i], 6), i))
    kept = [0, *order[: MAX_CANDIDATES - 1]]
    scores[:] = [scores[i] for i in kept]
    return [candidates[i] for i in kept]


__all__: list[str] = [
    "PRUNERS",
    "candidate_answers",
    "look_ahead",
    "play_out",
    "search_answer",
    "searches",
]
