"""The answers Hard compares: every legal answer where they are few, else those near Medium's.

Where the choices are few (at most `ENUMERATE_MAX`), every one is listed: every assignment of
blockers (each blocker blocks nothing or one attacker it may block, the decision's own check
ruling out what menace forbids), every set of attackers with each attacker's target, every set of
targets, every division of damage, every distinct action at priority. Where they are many, the
list is Medium's answer and its neighbours: no attack or every attacker, one attacker more or
less; no blocks, one block more or less, a blocker moved to another attacker, a second blocker on
an attacker (a gang block); each single target. The search prunes the list (search.py) before it
samples worlds. Medium's answer is always first, and the order is fixed by the decision alone.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable

from game.engine import kinds
from game.engine.continuous import chars
from game.engine.decisions import Decision, IllegalAnswer, Option, without_copy_number
from game.engine.game import Engine
from game.engine.state import GameState, Obj

from .answers import Answer, safe_answer
from .block_problem import block_problem
from .blocks import in_danger_unblocked, worst_order
from .combat_math import fight
from .features import body
from .priority import face_of_option, option_lost_unless_cast
from .spells import pointless
from .targets import option_gains
from .tricks import boosts, combat_trick, effect_of, is_trick

ENUMERATE_MAX = 48


def candidate_answers(game: Engine, seat: str, d: Decision, medium: Answer) -> list[Answer]:
    """Medium's answer first, then the alternatives worth comparing, legal and without repeats."""
    out: list[Answer] = [medium]
    keys = {_key(medium)}

    def add_all(answers: Iterable[Answer]) -> None:
        for answer in answers:
            if len(out) >= ENUMERATE_MAX:
                return
            key = _key(answer)
            if key in keys:
                continue
            try:
                d.validate(seat, answer)
            except IllegalAnswer:
                continue
            keys.add(key)
            out.append(answer)

    if d.kind == kinds.PRIORITY:
        add_all(_priority(game, seat, d, medium))
    elif d.kind == kinds.DECLARE_ATTACKERS:
        add_all(filter(combat_kept(game.state, seat, d, medium), _attacks(d, medium)))
    elif d.kind == kinds.DECLARE_BLOCKERS:
        add_all(filter(combat_kept(game.state, seat, d, medium), _blocks(d, medium)))
    elif d.kind == kinds.CHOOSE_TARGETS and not d.ordered:
        add_all(_targets(game, seat, d, medium))
    elif not d.multi and not d.ordered:
        add_all(o.id for o in d.options)
    elif d.multi and not d.ordered:
        add_all(_subsets(d))
    else:
        add_all([safe_answer(d)])
    return out


def _priority(game: Engine, seat: str, d: Decision, medium: Answer) -> list[Answer]:
    g = game.state
    real = [o for o in d.options if o.id != "pass" and o.data != "mana"]
    if not real:
        return []
    if isinstance(medium, str) and medium.startswith("play:"):
        # The land for the turn first: its mana is there for whatever comes after, and a spell
        # cast first taps what the land would have spared (a playtest's Caves of Chaos
        # Adventurer took the only Island, and the blue card its attack exiled went unplayed).
        # In a sampled game the order can come out ahead by noise alone.
        return []
    # Searched where choices matter: one's own main phase, an opposing spell or ability to
    # answer, combat once blockers are declared (a trick), the other turn's end step. Elsewhere
    # (an instant held through every step) Medium's answer stands, or the search would go on
    # steps where nothing happens.
    my_main = g.active == seat and g.step in ("precombat_main", "postcombat_main") and not g.stack
    responding = bool(g.stack) and g.stack[-1].controller != seat
    tricks = g.step == "declare_blockers" and not g.stack and g.combat is not None
    their_end = g.active != seat and g.step == "end" and not g.stack
    if not (my_main or responding or tricks or their_end):
        return []
    out: list[Answer] = ["pass"]
    hand = {o.id: o for o in g.player(seat).hand}

    def choice(o: Option) -> tuple[str, bool]:
        """Two copies of a card in hand are one choice: their options differ only by the number
        that tells their labels apart ("cast Dungeon Crawler #2"; three copies had crowded
        passing out of the five candidates kept). A revealed copy stays apart from a hidden
        one: which is played changes what the other player knows."""
        card = hand.get(o.objs[0]) if o.objs else None
        if card is None:
            return o.label, False
        return without_copy_number(o.label), card.revealed

    # Medium's answer is first in the list already: a copy of it is the same choice.
    seen_labels = {choice(o) for o in real if o.id == medium}
    for o in real:
        label = choice(o)
        if label in seen_labels:
            continue
        face = face_of_option(g, o)
        if face is not None and pointless(g, seat, face, card_lost=option_lost_unless_cast(g, o)):
            continue  # a cast never worth its card (spells.py) is not worth a search
        if is_trick(g, o) and not _trick_may_matter(g, seat, o, responding):
            continue
        seen_labels.add(label)
        out.append(o.id)
    return out


def _trick_may_matter(g: GameState, seat: str, o: Option, responding: bool) -> bool:
    """Whether a combat trick (tricks.py) can change anything now: where the trick rule would
    play it, or in answer to the other player's spell or ability when it adds toughness (a save
    from damage). Elsewhere (menace and haste at an end step, on a defender, twice on one
    creature) it does nothing, and in a sampled game doing nothing can still come out ahead by
    the noise of the rollouts: a player sees a card tapped for no reason."""
    if combat_trick(g, seat, [o]) == o.id:
        return True
    found = effect_of(g, o)
    gains = boosts(found[0]) if found is not None else None
    return responding and gains is not None and any(b.toughness > 0 for b in gains.values())


def combat_kept(g: GameState, seat: str, d: Decision, medium: Answer) -> Callable[[Answer], bool]:
    """Which attacks (or blocks) are worth a search: none sending a creature that would do
    nothing by attacking (`_idle_attackers`), none with a chump block the seat does not need
    (`_chumps_allowed`), unless Medium's own answer does the same."""
    if d.kind == kinds.DECLARE_ATTACKERS:
        idle = _idle_attackers(g, seat, d) - _chosen_objects(d, medium)
        return lambda answer: not idle & _chosen_objects(d, answer)
    if _chumps_allowed(g, seat, d, medium):
        return lambda answer: True
    return lambda answer: not _chumps(g, d, answer)


def _chosen_objects(d: Decision, answer: Answer) -> set[int]:
    """The attackers (or blockers) an answer names."""
    ids = [answer] if isinstance(answer, str) else answer
    return {d.option(i).objs[0] for i in ids}


def _idle_attackers(g: GameState, seat: str, d: Decision) -> set[int]:
    """Creatures that would do nothing by attacking: no power (no combat damage, so no life and
    no initiative taken) and nothing that triggers on an attack. Tapped, such a creature is only
    a blocker lost for the other turn. Hard's sampled games can still rate its attack higher
    (its own side's Medium blocks better without it: a playtest's 0/4 Cloister Gargoyle attacked
    alone), so it is no candidate unless Medium's own attack sends it."""
    if any(t.trigger == "you_attack" for o in g.controlled(seat) for t in o.card.triggers):
        return set()
    idle = set()
    for opt in d.options:
        obj = opt.data[0]  # type: ignore[index]
        if chars(g, obj).power <= 0 and not any(
            t.trigger == "self_attacks" for t in obj.card.triggers
        ):
            idle.add(obj.id)
    return idle


def _chumps(g: GameState, d: Decision, answer: Answer) -> bool:
    """Whether a block assignment has a chump block: blockers in front of an attacker that lose
    one of theirs and do not kill it (by the combat calculator)."""
    groups: dict[int, tuple[Obj, list[Obj]]] = {}
    for i in [answer] if isinstance(answer, str) else answer:
        blocker, attacker = d.option(i).data  # type: ignore[misc]
        groups.setdefault(attacker.id, (attacker, []))[1].append(blocker)
    for attacker, blockers in groups.values():
        a = body(g, attacker)
        out = fight(a, worst_order(a, [body(g, b) for b in blockers]))
        if a.id not in out.dead and any(b.id in out.dead for b in blockers):
            return True
    return False


def _chumps_allowed(g: GameState, seat: str, d: Decision, medium: Answer) -> bool:
    """Whether Hard may weigh chump blocks: when Medium's blocks chump too, when the seat holds
    the initiative (combat damage to it would take the initiative, CR 725.2), when a creature
    attacks one of its planeswalkers or has an ability that triggers on combat damage to a
    player, or when the whole attack unblocked would leave it in danger (the test Medium's own
    planner turns to chump blocks by, `blocks.in_danger_unblocked`). Otherwise a chump trades a
    creature for life it can spare, and the sampled games, which end with the other player's
    turn, cannot see what the creature would have done next: a playtest's Goblin chump-blocked
    a 5/5 lifelinker at 20 life instead of attacking for the initiative on its own turn."""
    if _chumps(g, d, medium) or g.player(seat).initiative:
        return True
    problem = block_problem(g, d, seat, careful=False)
    if problem.at_walkers:
        return True  # an attack at a planeswalker of the seat's: a chump may save it
    for oid in g.combat.attackers if g.combat is not None else ():
        attacker = g.find(oid)
        if attacker is not None and any(
            t.trigger == "self_combat_damage_player" for t in attacker.card.triggers
        ):
            return True  # its damage to the seat does more than the life (a venture)
    return in_danger_unblocked(
        problem.attackers, problem.life, at_walkers=problem.at_walkers, on_hit=problem.on_hit
    )


def _choices_by_object(d: Decision) -> list[list[str]]:
    """For each attacker (or blocker), the options that name it first, in the decision's order."""
    by: dict[int, list[str]] = {}
    for o in d.options:
        by.setdefault(o.objs[0], []).append(o.id)
    return list(by.values())


def _assignments(groups: list[list[str]]) -> Iterable[list[str]]:
    """Every choice of at most one option from each group (the fewest chosen first)."""
    for combo in itertools.product(*([None, *ids] for ids in groups)):
        yield [i for i in combo if i is not None]


def _few(groups: list[list[str]]) -> bool:
    return math.prod(len(ids) + 1 for ids in groups) <= ENUMERATE_MAX


def _attacks(d: Decision, medium: Answer) -> Iterable[Answer]:
    groups = _choices_by_object(d)
    if _few(groups):
        yield from sorted(_assignments(groups), key=len)
        return
    chosen = list(medium) if isinstance(medium, list) else []
    at_player = [ids[0] for ids in groups]  # each attacker's first option attacks the player
    yield []
    yield at_player
    for i in chosen:
        yield [x for x in chosen if x != i]
    taken = {d.option(i).objs[0] for i in chosen}
    for i in at_player:
        if d.option(i).objs[0] not in taken:
            yield [*chosen, i]


def _blocks(d: Decision, medium: Answer) -> Iterable[Answer]:
    groups = _choices_by_object(d)
    if _few(groups):
        yield from sorted(_assignments(groups), key=len)
        return
    chosen = list(medium) if isinstance(medium, list) else []
    blocking = {d.option(i).objs[0]: i for i in chosen}
    yield []
    for i in chosen:
        yield [x for x in chosen if x != i]
    for ids in groups:
        blocker = d.option(ids[0]).objs[0]
        for i in ids:
            if blocker not in blocking:
                yield [*chosen, i]  # one more block, or a second blocker on an attacker
            elif blocking[blocker] != i:
                yield [x for x in chosen if x != blocking[blocker]] + [i]  # moved


def _targets(game: Engine, seat: str, d: Decision, medium: Answer) -> Iterable[Answer]:
    """Every target (set), but none that gives away (a harmful effect on the seat's own thing,
    a helpful one on the other player's) while Medium's answer gives nothing away, and none that
    leaves out a target that gains while Medium's takes every one it may: the sampled games
    can't always tell such a target from a good one (goading its own creature that attacks
    anyway changes nothing in them), and a player calls it a bug."""
    answers = _subsets(d) if d.multi else (o.id for o in d.options)
    gains = option_gains(game.state, d, seat)
    if gains is None:
        yield from answers
        return

    def chosen(answer: Answer) -> list[str]:
        return [answer] if isinstance(answer, str) else list(answer)

    def gives_away(answer: Answer) -> bool:
        return any(gains[i] < 0 for i in chosen(answer))

    def leaves_a_gain(answer: Answer) -> bool:
        """Fewer targets than "up to N" allows while a target it leaves out gains: a Fates'
        Reversal cast at nothing with a creature card in the graveyard. The sampled games may
        rate it the same (the second copy returns the card instead) while it spends a card for
        nothing a player can see."""
        taken = chosen(answer)
        return len(taken) < d.max_count and any(
            gains[o.id] > 0 for o in d.options if o.id not in taken
        )

    fair = not gives_away(medium)
    full = not leaves_a_gain(medium)
    yield from (
        a for a in answers if not (fair and gives_away(a)) and not (full and leaves_a_gain(a))
    )


def _subsets(d: Decision) -> Iterable[Answer]:
    ids = [o.id for o in d.options]
    low, high = d.min_count, min(d.max_count, len(ids))
    total = sum(math.comb(len(ids), k) for k in range(low, high + 1))
    if total <= ENUMERATE_MAX:
        for k in range(low, high + 1):
            for combo in itertools.combinations(ids, k):
                yield list(combo)
        return
    yield safe_answer(d)
    for i in ids:
        yield [i]


def _key(answer: Answer) -> tuple[str, ...]:
    return (answer,) if isinstance(answer, str) else tuple(sorted(answer))


__all__ = ["ENUMERATE_MAX", "candidate_answers", "combat_kept"]
