"""Hard: search over sampled worlds, guided by the position evaluation (docs/ai.md).

For a decision with a real choice, a few candidate answers are drawn up (Medium's own, and the
alternatives that matter for the kind of decision). Each candidate is tried in the same sampled
worlds (common random numbers: every candidate meets the same guessed hands and draws): the
world is a replayed copy of the game with every hidden card sampled (worlds.py), the candidate
is applied, Medium plays both sides to the end of the next turn, and the position is evaluated.
The candidate with the best mean wins; a tie goes to Medium's answer.

The work is counted in engine decisions, not in seconds, so the answer depends only on the
visible position and the seed: a budget of decisions is shared among the candidates and worlds,
and a decision with a single sensible answer is answered at once.
"""

from __future__ import annotations

import random

from game.engine import kinds
from game.engine.decisions import Decision, IllegalAnswer
from game.engine.game import Engine

from .answers import Answer, safe_answer
from .features import evaluate
from .policy import Policy
from .priority import face_of_option
from .spells import pointless
from .worlds import sample_world

# The work a search may spend, in decisions played by the policy (about 0.1 ms of CPU each):
# replaying the log costs REPLAY_COST of that per answer, a sampled game about
# ROLLOUT_ESTIMATE decisions (to the end of the next turn), both measured on this machine's
# games. 6000 is about 0.6 s of CPU, which keeps the slowest searches under the target of 1 s
# at p95 (docs/ai.md, "The figures").
BUDGET = 6000
REPLAY_COST = 0.25
ROLLOUT_ESTIMATE = 80
MAX_WORLDS = 10
MIN_WORLDS = 2
MAX_CANDIDATES = 5
ROLLOUT_DECISIONS = 300  # a sampled game stops here even if the turn hasn't ended
SEARCHED = frozenset(
    {
        kinds.PRIORITY,
        kinds.DECLARE_ATTACKERS,
        kinds.DECLARE_BLOCKERS,
        kinds.CHOOSE_TARGETS,
        kinds.CHOOSE_ROOM,
        kinds.CHOOSE_DUNGEON,
        kinds.UNLESS,
        kinds.YES_NO,
        kinds.DIVIDE,
        kinds.CAST_FREE,
    }
)


def search_answer(game: Engine, seat: str, seed: int) -> Answer:
    d = game.pending
    assert d is not None
    rng = random.Random(seed)
    medium = Policy(seat, random.Random(seed)).answer(game)
    if d.kind not in SEARCHED:
        return medium
    candidates = candidate_answers(game, seat, d, medium)
    if len(candidates) <= 1:
        return medium
    rollout = ROLLOUT_DECISIONS
    one = len(game.answers) * REPLAY_COST + ROLLOUT_ESTIMATE  # one candidate in one world
    # A very long game (replays cost more) drops the last candidates before going over twice
    # the budget with the fewest worlds.
    while len(candidates) > 2 and MIN_WORLDS * len(candidates) * one > 2 * BUDGET:
        candidates.pop()
    per_world = len(candidates) * one
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, int(BUDGET // per_world)))
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world_seed = rng.getrandbits(64)
        for i, answer in enumerate(candidates):
            totals[i] += _try(game, seat, answer, world_seed, rollout)
    best = max(range(len(candidates)), key=lambda i: (round(totals[i], 6), i == 0, -i))
    return candidates[best]


def _try(game: Engine, seat: str, answer: Answer, world_seed: int, rollout: int) -> float:
    world_rng = random.Random(world_seed)
    world = sample_world(game, seat, world_rng)
    try:
        world.answer(seat, answer)
    except IllegalAnswer:
        return -1e9
    play_out(world, seat, world_rng.getrandbits(32), rollout)
    return evaluate(world.state, seat)


def play_out(world: Engine, seat: str, seed: int, max_decisions: int) -> None:
    """Medium plays both sides to the end of the turn after this one (or the game's end)."""
    g = world.state
    stop_turn = g.turn + 2 if g.active == seat else g.turn + 1
    players = {p.name: Policy(p.name, random.Random(seed + i)) for i, p in enumerate(g.players)}
    n = 0
    while world.pending is not None and n < max_decisions and g.turn < stop_turn:
        d = world.pending
        world.answer(d.player, players[d.player].answer(world))
        n += 1


def candidate_answers(game: Engine, seat: str, d: Decision, medium: Answer) -> list[Answer]:
    """Medium's answer first, then the alternatives worth comparing, without repeats."""
    g = game.state
    out: list[Answer] = [medium]

    def add(answer: Answer) -> None:
        key = _key(answer)
        if len(out) < MAX_CANDIDATES and all(_key(a) != key for a in out):
            try:
                d.validate(seat, answer)
            except IllegalAnswer:
                return
            out.append(answer)

    if d.kind == kinds.PRIORITY:
        options = [o for o in d.options if o.data != "mana"]
        real = [o for o in options if o.id != "pass"]
        if not real:
            return ["pass"]
        # Searched where choices matter: one's own main phase, an opposing spell or ability to
        # answer, the other turn's end step. Elsewhere (an instant held through every step)
        # Medium's answer stands, or the budget would go on steps where nothing happens.
        my_main = g.active == seat and g.step in ("precombat_main", "postcombat_main")
        responding = bool(g.stack) and g.stack[-1].controller != seat
        their_end = g.active != seat and g.step == "end" and not g.stack
        if not (my_main and not g.stack) and not responding and not their_end:
            return [medium]
        add("pass")
        seen_labels: set[str] = set()
        for o in real:
            if o.label in seen_labels:
                continue  # two copies of a card are one choice
            face = face_of_option(g, o)
            if face is not None and pointless(g, seat, face):
                continue  # a cast never worth its card (spells.py) is not worth a search
            seen_labels.add(o.label)
            add(o.id)
        return out
    if d.kind == kinds.DECLARE_ATTACKERS:
        ids = [o.id for o in d.options if ":" not in o.id]
        chosen = set(medium) if isinstance(medium, list) else set()
        add([])
        add(sorted(ids))
        for i in sorted(chosen):
            add(sorted(chosen - {i}))
        for i in ids:
            if i not in chosen:
                add(sorted(chosen | {i}))
        return out
    if d.kind == kinds.DECLARE_BLOCKERS:
        chosen = list(medium) if isinstance(medium, list) else []
        add([])
        for i in chosen:
            add([x for x in chosen if x != i])
        for o in d.options:
            if o.id not in chosen:
                add(chosen + [o.id])
        return out
    if not d.multi and not d.ordered:
        for o in d.options:
            add(o.id)
        return out
    add(safe_answer(d))
    return out


def _key(answer: Answer) -> tuple[str, ...]:
    return (answer,) if isinstance(answer, str) else tuple(sorted(answer))


__all__: list[str] = ["candidate_answers", "play_out", "search_answer"]
