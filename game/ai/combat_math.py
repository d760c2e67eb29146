"""A fast combat calculator: who dies and how much damage gets through, for a set of blocks.

Pure and small: it knows creatures only as `Body` numbers (power, toughness left, keywords), never
a game, so the rules of thumb, the tricks and Hard's search can all ask it "what if" cheaply
(about 10 µs a fight). `features.body` makes a `Body` of a creature on the battlefield.

    from game.ai.combat_math import Body, resolve, least_damage_through

    bear = Body(1, 2, 2)
    wall = Body(2, 0, 4)
    out = resolve([bear], {1: [wall]})      # Outcome(dead=frozenset(), to_defender=0, ...)
    least_damage_through([bear], [wall])    # 0: the wall stops it

What it models (CR 510, 702): a first-strike damage step when any creature in a fight has first
strike or double strike, then the regular step (double strike deals in both, a creature killed
in the first step deals nothing in the second); deathtouch (any damage is lethal, and one point
is lethal damage to assign); trample (lethal damage to each blocker, the rest to the defender,
and everything when its blockers are gone); lifelink (life for the creature's controller);
indestructible (damage doesn't destroy it); menace and flying/reach as who may block whom.
What it leaves out: abilities that trigger in combat, damage prevention, and the attacker
choosing an unusual division: an attacker assigns lethal damage to its blockers in the order
given (the engine's usual division), so a caller lists first the blocker the attacker would
most want dead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

FIRST = frozenset({"first strike", "double strike"})


@dataclass(frozen=True, slots=True)
class Body:
    """A creature as combat sees it. `toughness` is what is left of it (damage already marked
    is subtracted); `id` is the caller's name for it (an object id)."""

    id: int
    power: int
    toughness: int
    keywords: frozenset[str] = frozenset()
    value: float = 0.0  # what losing it costs its controller (features.creature_value)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a combat: the ids of the creatures that die, the combat damage dealt to
    the defending player, and the life each player gains from lifelink."""

    dead: frozenset[int]
    to_defender: int
    attacker_gains: int = 0
    defender_gains: int = 0

    def lost(self, bodies: Iterable[Body]) -> float:
        """The value of those of `bodies` that die."""
        return sum(b.value for b in bodies if b.id in self.dead)


def can_block(attacker: Body, blocker: Body) -> bool:
    """What keywords allow: a flyer only by flying or reach; protection from creatures by none.
    (The engine's own check, `combat.can_block`, adds walls and "attacking alone".)"""
    if attacker.has("flying") and not (blocker.has("flying") or blocker.has("reach")):
        return False
    return not attacker.has("protection from creatures")


def min_blockers(attacker: Body) -> int:
    """How many creatures it takes to block it (menace: two, CR 702.110b)."""
    return 2 if attacker.has("menace") else 1


def fight(attacker: Body, blockers: Sequence[Body] = ()) -> Outcome:
    """One attacker and the creatures blocking it (none: it is unblocked)."""
    return _fight(attacker, tuple(blockers))


@functools.lru_cache(maxsize=8192)
def _fight(attacker: Body, blockers: tuple[Body, ...]) -> Outcome:
    """`fight`, cached for speed: a fight depends on its bodies alone, and Hard's sampled games
    ask the same fights over and over (the same board in world after world), so the cache
    answers about 96% of them (docs/performance.md, "The computer's combat calculator")."""
    hurt = {attacker.id: 0}  # damage marked on each creature in this fight
    touched: set[int] = set()  # dealt damage by a creature with deathtouch
    for b in blockers:
        hurt[b.id] = 0
    dead: set[int] = set()
    to_defender = attacker_gains = defender_gains = 0
    everyone = [attacker, *blockers]
    split = any(c.keywords & FIRST for c in everyone)
    for step in ("first", "regular") if split else ("only",):

        def deals(c: Body, step: str = step) -> bool:
            if c.id in dead or c.power <= 0:
                return False
            if step == "only":
                return True
            strikes_first = bool(c.keywords & FIRST)
            return strikes_first if step == "first" else not strikes_first or c.has("double strike")

        events: list[tuple[Body, int | None, int]] = []  # (source, creature hit or None, amount)
        if deals(attacker):
            events += _assign(attacker, blockers, hurt, dead)
        for b in blockers:
            if deals(b) and attacker.id not in dead:
                events.append((b, attacker.id, b.power))
        for source, hit, amount in events:
            if source.has("lifelink"):
                if source is attacker:
                    attacker_gains += amount
                else:
                    defender_gains += amount
            if hit is None:
                to_defender += amount
                continue
            hurt[hit] += amount
            if source.has("deathtouch") and amount > 0:
                touched.add(hit)
        for c in everyone:
            if c.id in dead or c.has("indestructible"):
                continue
            if hurt[c.id] >= c.toughness or c.id in touched:
                dead.add(c.id)
    return Outcome(frozenset(dead), to_defender, attacker_gains, defender_gains)


def _assign(
    attacker: Body, blockers: Sequence[Body], hurt: dict[int, int], dead: set[int]
) -> list[tuple[Body, int | None, int]]:
    """The attacker's combat damage in the usual division (CR 510.1c, 702.19)."""
    trample = attacker.has("trample")
    if not blockers:
        return [(attacker, None, attacker.power)]
    alive = [b for b in blockers if b.id not in dead]
    if not alive:
        return [(attacker, None, attacker.power)] if trample else []
    out: list[tuple[Body, int | None, int]] = []
    left = attacker.power
    for b in alive:
        need = 1 if attacker.has("deathtouch") else max(0, b.toughness - hurt[b.id])
        give = min(left, need)
        if give:
            out.append((attacker, b.id, give))
        left -= give
    if left:
        out.append((attacker, None if trample else alive[-1].id, left))
    return out


def resolve(attackers: Iterable[Body], blocks: Mapping[int, Sequence[Body]]) -> Outcome:
    """The whole combat: `blocks` maps an attacker's id to its blockers (in the order its
    damage is assigned); an attacker missing from it is unblocked."""
    dead: set[int] = set()
    through = gained = defended = 0
    for a in attackers:
        out = fight(a, blocks.get(a.id, ()))
        dead |= out.dead
        through += out.to_defender
        gained += out.attacker_gains
        defended += out.defender_gains
    return Outcome(frozenset(dead), through, gained, defended)


Legal = Callable[[Body, Body], bool]

# Past this many creatures on a side the exact search of the defender's best blocks would take
# too long for a rule of thumb; a quick upper bound of what blocks can stop is used instead.
EXACT_LIMIT = 8


def least_damage_through(
    attackers: Sequence[Body], blockers: Sequence[Body], legal: Legal = can_block
) -> int:
    """The least the defender can take from these attackers (damage through minus the life its
    blockers gain), whatever it blocks: its best blocks for survival. `legal(attacker, blocker)`
    says who may block whom. Lethal when this is at least the defender's life."""
    if not attackers:
        return 0
    total = sum(fight(a).to_defender for a in attackers)
    if not blockers:
        return total
    if len(attackers) > EXACT_LIMIT or len(blockers) > EXACT_LIMIT:
        # Each blocker stops at most one attacker: a bound that never overstates the damage.
        biggest = sorted((fight(a).to_defender for a in attackers), reverse=True)
        return total - sum(biggest[: len(blockers)])
    # The least damage so far for each set of blockers used (a bit mask), one attacker at a
    # time: a loop rather than a recursion, about twice as fast (docs/performance.md).
    least = {0: 0}
    for a in sorted(attackers, key=lambda a: -a.power):
        options = _block_options(a, blockers, legal)
        after: dict[int, int] = {}
        for used, so_far in least.items():
            for mask, taken in options:
                if mask & used:
                    continue
                key = used | mask
                known = after.get(key)
                if known is None or so_far + taken < known:
                    after[key] = so_far + taken
        least = after
    return min(least.values())


def _block_options(a: Body, blockers: Sequence[Body], legal: Legal) -> list[tuple[int, int]]:
    """The ways to block `a` worth considering, as (mask of blockers used, damage taken), the
    unblocked way first: as few blockers as may block it (one; two for menace), and up to three
    against a trampler (each soaks some); more never stops more of the others."""
    able = [i for i, b in enumerate(blockers) if legal(a, b)]
    out = [(0, fight(a).to_defender)]
    fewest = min_blockers(a)
    most = 3 if a.has("trample") else fewest
    for k in range(fewest, min(most, len(able)) + 1):
        for group in combinations(able, k):
            out_k = _fight(a, tuple(blockers[i] for i in group))
            mask = sum(1 << i for i in group)
            out.append((mask, out_k.to_defender - out_k.defender_gains))
    return out


__all__ = [
    "Body",
    "Outcome",
    "can_block",
    "fight",
    "least_damage_through",
    "min_blockers",
    "resolve",
]
