"""Blocks, planned as a good player plans them (after the structure of Forge's block planner):

1. good blocks: a blocker that kills the attacker and survives, else one that survives it;
2. trades: a blocker that dies killing an attacker worth at least as much (any blocker that
   kills it while the player is in danger);
3. gang blocks: two to four blockers on one attacker when together they kill it for less than
   it is worth with the life its damage would take this turn (a big attacker no two of them
   can kill), or two that stop a menace attacker that neither could block alone; and a blocker
   added to a block that holds an attacker off, so that together they kill it;
4. chump blocks, only while the player is in danger (the damage still coming would leave it at
   DANGER life or less: dead, or within reach of a burn spell or a room's drain): the cheapest
   blockers in front of the attackers whose damage they stop most;
5. enough blockers against a trampler while the player is still in danger;
6. if the player is still in danger, everything is cleared and planned again chump-first (the
   blocks that keep the player alive before the ones that win fights), and the plan that takes
   the least damage is kept;
7. while the player holds the initiative, combat damage to it hands the initiative over (CR
   725.2): if the plan lets some through, the cheapest blockers left are added until none gets
   through, when what they cost is less than keeping the initiative is worth (`keep_clear`).

Every fight is measured with the combat calculator (combat_math.py), which counts trample,
lifelink, first and double strike, deathtouch and menace. An attacker's damage is assumed to go
where its controller would want it: to the most valuable blocker first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from .combat_math import Body, fight, min_blockers, resolve
from .features import life_value

Blocks = dict[int, list[Body]]

# A trade gives a blocker worth up to this much more than the attacker (a fair trade).
TRADE_MARGIN = 0.5
# At this life or less after combat a player is in danger (Forge's AI_IN_DANGER threshold): one
# burn spell, a room's drain or the next attack finishes it, so it trades and chumps to stay
# above it.
DANGER = 4
# The life race (`Race.held`): life is worth the turns it buys against the other side's
# attack, each turn of it less the more there are (1 - e^(-turns / RACE_TURNS)), RACE_WORTH in
# all; an attack under MIN_PRESSURE a turn counts as that much (burn, drains and the creatures
# still to come).
RACE_WORTH = 23.0
RACE_TURNS = 1.5
MIN_PRESSURE = 4
WIN = 1000.0
# What a point of life the attackers gain through lifelink is worth to the defender's opponent.
GAINED = 0.3
# The most blockers put together in front of one big attacker.
GANG_MAX = 4


def plan_blocks(
    attackers: Sequence[Body],
    able: dict[int, list[Body]],
    life: int,
    *,
    at_walkers: frozenset[int] = frozenset(),
    slip: Callable[[float], bool] = lambda chance: False,
    keep_clear: float = 0.0,
    on_hit: int = 0,
    race: Race | None = None,
) -> Blocks:
    """The blocks for `attackers` (`able[attacker id]`: the creatures that may block it), for a
    player at `life`; the attackers in `at_walkers` attack a planeswalker, so their damage
    doesn't count against the life. `slip(chance)` is Easy's: a good block, a trade or a gang
    block missed. `keep_clear` is what taking no combat damage at all is worth beyond the life
    (the initiative the player holds). `on_hit` is the life the player loses besides when any
    combat damage reaches it (the initiative taken by a player whose venture enters Trap!).

    With `race` (Medium), the passes' plan is weighed against other plans (trades first, trades
    down, chump blocks while one makes the plan worth more, no damage through to keep the
    initiative) by what each kills and loses and by the life race it leaves (the life left
    against the attack still to come: an attacker killed is damage that won't come again), and
    the best is kept."""
    order = sorted(attackers, key=lambda a: (-_threat(a), -a.value, a.id))

    def new() -> _Plan:
        return _Plan(order, able, life, slip, at_walkers, on_hit)

    first = new()
    first.good()
    first.trade()
    first.gang()
    first.reinforce()
    first.chump()
    first.trample()
    plan = first
    if first.in_danger():
        again = new()
        again.chump()
        again.trample()
        again.good()
        again.trade()
        again.gang()
        again.reinforce()
        if again.taken() < first.taken():
            plan = again
    if race is None:
        if keep_clear > 0:
            plan.clear(keep_clear)
        return plan.blocks
    trades_first = new()
    trades_first.trade()
    trades_first.good()
    trades_first.gang()
    trades_first.reinforce()
    trades_first.chump()
    trades_first.trample()
    trades_down = new()
    trades_down.good()
    trades_down.trade(down=True)
    trades_down.gang()
    trades_down.reinforce()
    trades_down.chump()
    trades_down.trample()
    candidates = [plan, trades_first, trades_down]
    for base in list(candidates):
        chumped = base.copy()
        chumped.chump_for_value(race, keep_clear)
        candidates.append(chumped)
        if keep_clear > 0:
            cleared = base.copy()
            cleared.clear(math.inf)
            candidates.append(cleared)
    # The first of the best: the passes' own plan on a tie.
    best = max(
        range(len(candidates)),
        key=lambda i: (round(candidates[i].score(race, keep_clear), 6), -i),
    )
    return candidates[best].blocks


def plan_worth(
    attackers: Sequence[Body],
    blocks: dict[int, list[Body]],
    life: int,
    *,
    race: Race,
    keep_clear: float = 0.0,
    on_hit: int = 0,
    at_walkers: frozenset[int] = frozenset(),
) -> float:
    """What a given plan (`blocks[attacker id]`: its blockers) is worth to the defender, by the
    measure `plan_blocks` chooses among its own plans with (`_Plan.score`)."""
    plan = _Plan(list(attackers), {}, life, lambda chance: False, at_walkers, on_hit)
    by_id = {a.id: a for a in attackers}
    for aid, group in blocks.items():
        plan.add(by_id[aid], group)
    return plan.score(race, keep_clear)


@dataclass(frozen=True, slots=True)
class Race:
    """The life race as the defender sees it: `home` is the damage the attacking player's
    creatures not in this combat could deal next turn (unblocked); the attackers that survive
    the combat add theirs."""

    home: int = 0

    def held(self, life: int, pressure: int) -> float:
        """What `life` is worth against `pressure` damage a turn: the turns it buys, each worth
        less the more there are (1 - e^(-turns / RACE_TURNS), RACE_WORTH in all); an attack under
        MIN_PRESSURE a turn counts as that much (burn, drains and the creatures still to come).
        At 0 life the game is lost."""
        if life <= 0:
            return -WIN
        turns = life / max(pressure, MIN_PRESSURE)
        return RACE_WORTH * (1.0 - math.exp(-turns / RACE_TURNS))


def _threat(a: Body) -> int:
    out = fight(a)
    return out.to_defender + out.attacker_gains


def in_danger_unblocked(
    attackers: Sequence[Body], life: int, *, at_walkers: frozenset[int], on_hit: int
) -> bool:
    """Whether the whole attack, left unblocked, would leave the player in danger: the test by
    which `plan_blocks` turns to chump blocks (`_Plan.in_danger`)."""
    return _Plan(list(attackers), {}, life, lambda chance: False, at_walkers, on_hit).in_danger()


def worst_order(a: Body, group: Sequence[Body]) -> list[Body]:
    """The blockers in the order the attacker's damage goes: the most valuable first."""
    return sorted(group, key=lambda b: (-b.value, b.id))


class _Plan:
    def __init__(
        self,
        order: list[Body],
        able: dict[int, list[Body]],
        life: int,
        slip: Callable[[float], bool],
        at_walkers: frozenset[int],
        on_hit: int = 0,
    ) -> None:
        self.order = order
        self.at_me = [a for a in order if a.id not in at_walkers]
        self.able = able
        self.life = life
        self.slip = slip
        self.blocks: Blocks = {}
        self.used: set[int] = set()
        self.on_hit = on_hit

    def copy(self) -> _Plan:
        other = _Plan(self.order, self.able, self.life, self.slip, frozenset(), self.on_hit)
        other.at_me = self.at_me
        other.blocks = {aid: list(group) for aid, group in self.blocks.items()}
        other.used = set(self.used)
        return other

    def score(self, race: Race, keep_clear: float) -> float:
        """What this plan is worth to the defender: the attackers it kills, less its blockers
        that die and the life the attackers gain, and the race it leaves (`Race.held`: the life
        left against the damage of the attackers left and those at home); `keep_clear` more
        when no combat damage reaches it."""
        out = resolve(self.order, self.blocks)
        mine = [b for group in self.blocks.values() for b in group]
        value = out.lost(self.order) - out.lost(mine) - GAINED * out.attacker_gains
        coming = race.home + sum(fight(a).to_defender for a in self.order if a.id not in out.dead)
        value += race.held(self.life - self.taken(), coming)
        if keep_clear > 0 and resolve(self.at_me, self.blocks).to_defender == 0:
            value += keep_clear
        return value

    def free(self, a: Body) -> list[Body]:
        return [b for b in self.able.get(a.id, []) if b.id not in self.used]

    def unblocked(self) -> list[Body]:
        return [a for a in self.order if a.id not in self.blocks]

    def add(self, a: Body, group: Sequence[Body]) -> None:
        self.blocks[a.id] = worst_order(a, [*self.blocks.get(a.id, []), *group])
        self.used |= {b.id for b in group}

    def lost(self) -> float:
        """What this plan's combat costs the defender: its blockers that die, less the attackers
        they kill."""
        out = resolve(self.at_me, self.blocks)
        mine = [b for group in self.blocks.values() for b in group]
        return out.lost(mine) - out.lost(self.at_me)

    def taken(self) -> int:
        """The life this plan costs: the damage it lets through (less the life its blockers
        gain), and the drain that comes with any damage at all (`on_hit`)."""
        out = resolve(self.at_me, self.blocks)
        hit = self.on_hit if out.to_defender > 0 else 0
        return out.to_defender + hit - out.defender_gains

    def in_danger(self) -> bool:
        """Would this plan leave the player at DANGER life or less (dead included)? Only an
        attack that takes some life counts: a player already that low is not made to chump an
        attack that takes none."""
        taken = self.taken()
        return taken > 0 and self.life - taken <= DANGER

    # 1. good blocks --------------------------------------------------------------------------
    def good(self) -> None:
        for a in self.unblocked():
            if min_blockers(a) > 1:
                continue
            kills, safe = [], []
            for b in self.free(a):
                out = fight(a, [b])
                if b.id not in out.dead:
                    (kills if a.id in out.dead else safe).append(b)
            pick = kills or (safe if a.power > 0 else [])
            if pick and not self.slip(0.25):
                self.add(a, [min(pick, key=lambda b: (b.value, b.id))])

    # 2. trades -------------------------------------------------------------------------------
    def trade(self, *, down: bool = False) -> None:
        for a in self.unblocked():
            if min_blockers(a) > 1:
                continue
            # Easy sometimes trades down (its better creature for their lesser one); anyone
            # trades down to stay out of danger, or when asked to (a plan weighed by its worth).
            careless = down or self.slip(0.5) or (a in self.at_me and self.in_danger())
            trades = [
                b
                for b in self.free(a)
                if a.id in fight(a, [b]).dead and (careless or b.value <= a.value + TRADE_MARGIN)
            ]
            if trades and not self.slip(0.4):
                self.add(a, [min(trades, key=lambda b: (b.value, b.id))])

    # 3. gang blocks --------------------------------------------------------------------------
    def gang(self) -> None:
        for a in self.unblocked():
            if self.slip(0.5):
                continue  # Easy doesn't see that two of its creatures together stop it
            # The block also keeps the attacker's damage off the player this turn, which a
            # trade of bodies alone leaves out (an 8/7 Purple Worm hits for 8 at 20 life).
            hit = fight(a).to_defender if a in self.at_me else 0
            kept = life_value(self.life) - life_value(self.life - hit)
            best: tuple[float, list[Body]] | None = None
            free = sorted(self.free(a), key=lambda b: (-b.power, b.value, b.id))[:8]
            for size in range(2, GANG_MAX + 1):
                for combo in combinations(free, size):
                    group = worst_order(a, combo)
                    out = fight(a, group)
                    lost = out.lost(group)
                    if a.id in out.dead:
                        gain = a.value - lost + kept
                    elif size == 2 and min_blockers(a) > 1 and lost == 0:
                        gain = 0.1  # a menace attacker held off at no cost
                    else:
                        continue
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, group)
                if best is not None:
                    break  # the fewest blockers that do it
            if best is not None:
                self.add(a, best[1])

    def reinforce(self) -> None:
        """A blocker added to a block that holds the attacker off, so that together they kill
        it, when that costs less than the attacker is worth."""
        for a in self.order:
            group = self.blocks.get(a.id)
            if not group or self.slip(0.5):
                continue
            before = fight(a, group)
            if a.id in before.dead:
                continue
            best: tuple[float, Body] | None = None
            for b in self.free(a):
                tried = worst_order(a, [*group, b])
                out = fight(a, tried)
                gain = a.value - (out.lost(tried) - before.lost(group))
                if a.id in out.dead and gain > 0 and (best is None or gain > best[0]):
                    best = (gain, b)
            if best is not None:
                self.add(a, [best[1]])

    # 4. chump blocks -------------------------------------------------------------------------
    def chump_groups(self) -> Iterator[tuple[Body, list[Body]]]:
        """Each unblocked attacker coming at the seat, with the cheapest blockers enough to
        block it (two for menace), where there are that many free."""
        for a in self.unblocked():
            if a not in self.at_me:
                continue
            free = sorted(self.free(a), key=lambda b: (b.value, b.id))
            need = min_blockers(a)
            if len(free) >= need:
                yield a, free[:need]

    def chump(self) -> None:
        while self.in_danger():
            best: tuple[int, Body, list[Body]] | None = None
            for a, group in self.chump_groups():
                stopped = fight(a).to_defender - fight(a, group).to_defender
                if stopped > 0 and (best is None or stopped > best[0]):
                    best = (stopped, a, group)
            if best is None:
                return
            self.add(best[1], best[2])

    def chump_for_value(self, race: Race, keep_clear: float) -> None:
        """Chump blocks, one at a time, while the best of them makes the plan worth more: the
        cheapest blockers in front of an attacker, where the life they save costs more than
        they do."""
        while True:
            now = self.score(race, keep_clear)
            best: tuple[float, Body, list[Body]] | None = None
            for a, group in self.chump_groups():
                tried = self.copy()
                tried.add(a, group)
                gain = tried.score(race, keep_clear) - now
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, a, group)
            if best is None:
                return
            self.add(best[1], best[2])

    # 7. no damage through while holding the initiative ----------------------------------------
    def clear(self, worth: float) -> None:
        """Add the cheapest free blockers until no combat damage reaches the player, if that
        can be done for less than `worth` (the blocks made so far stay)."""
        if resolve(self.at_me, self.blocks).to_defender == 0:
            return
        tried = self.copy()
        # The attackers with the fewest blockers to spare first, so that none is left without.
        leaking = [a for a in self.at_me if fight(a, tried.blocks.get(a.id, ())).to_defender > 0]
        for a in sorted(leaking, key=lambda a: (len(tried.free(a)), -a.power, a.id)):
            group = tried.blocks.get(a.id, [])
            free = sorted(tried.free(a), key=lambda b: (b.value, b.id))
            extra: list[Body] = []
            while free and (
                len(group) + len(extra) < min_blockers(a)
                or fight(a, worst_order(a, [*group, *extra])).to_defender > 0
            ):
                if len(group) + len(extra) >= GANG_MAX:
                    return
                extra.append(free.pop(0))
            if len(group) + len(extra) < min_blockers(a):
                return
            if fight(a, worst_order(a, [*group, *extra])).to_defender > 0:
                return  # it can't be stopped: the initiative goes whatever is spent
            tried.add(a, extra)
        if tried.lost() - self.lost() < worth:
            self.blocks, self.used = tried.blocks, tried.used

    # 5. enough blockers against trample ------------------------------------------------------
    def trample(self) -> None:
        while self.in_danger():
            best: tuple[int, Body, Body] | None = None
            for a in self.at_me:
                if a.id not in self.blocks or not a.has("trample"):
                    continue
                now = fight(a, self.blocks[a.id]).to_defender
                for b in self.free(a):
                    stopped = now - fight(a, [*self.blocks[a.id], b]).to_defender
                    if stopped > 0 and (
                        best is None or (stopped, -b.value) > (best[0], -best[2].value)
                    ):
                        best = (stopped, a, b)
            if best is None:
                return
            self.add(best[1], [best[2]])


__all__ = ["Blocks", "plan_blocks", "plan_worth", "worst_order"]
