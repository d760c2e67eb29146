"""Blocks, planned as a good player plans them (after the structure of Forge's block planner):

1. good blocks: a blocker that kills the attacker and survives, else one that survives it;
2. trades: a blocker that dies killing an attacker worth at least as much (any blocker that
   kills it while the player is in danger);
3. gang blocks: two to four blockers on one attacker when together they kill it for less than
   it is worth (a big attacker no two of them can kill), or two that stop a menace attacker
   that neither could block alone; and a blocker added to a block that holds an attacker off,
   so that together they kill it;
4. chump blocks, only while the player is in danger (the damage still coming would leave it at
   DANGER life or less: dead, or within reach of a burn spell or a room's drain): the cheapest
   blockers in front of the attackers whose damage they stop most;
5. enough blockers against a trampler while the player is still in danger;
6. if the player is still in danger, everything is cleared and planned again chump-first (the
   blocks that keep the player alive before the ones that win fights), and the plan that takes
   the least damage is kept.

Every fight is measured with the combat calculator (combat_math.py), which counts trample,
lifelink, first and double strike, deathtouch and menace. An attacker's damage is assumed to go
where its controller would want it: to the most valuable blocker first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from .combat_math import Body, fight, min_blockers, resolve

Blocks = dict[int, list[Body]]

# A trade gives a blocker worth up to this much more than the attacker (a fair trade).
TRADE_MARGIN = 0.5
# At this life or less after combat a player is in danger (Forge's AI_IN_DANGER threshold): one
# burn spell, a room's drain or the next attack finishes it, so it trades and chumps to stay
# above it.
DANGER = 4
# The most blockers put together in front of one big attacker.
GANG_MAX = 4


def plan_blocks(
    attackers: Sequence[Body],
    able: dict[int, list[Body]],
    life: int,
    *,
    at_walkers: frozenset[int] = frozenset(),
    slip: Callable[[float], bool] = lambda chance: False,
) -> Blocks:
    """The blocks for `attackers` (`able[attacker id]`: the creatures that may block it), for a
    player at `life`; the attackers in `at_walkers` attack a planeswalker, so their damage
    doesn't count against the life. `slip(chance)` is Easy's: a good block, a trade or a gang
    block missed."""
    order = sorted(attackers, key=lambda a: (-_threat(a), -a.value, a.id))
    first = _Plan(order, able, life, slip, at_walkers)
    first.good()
    first.trade()
    first.gang()
    first.reinforce()
    first.chump()
    first.trample()
    if not first.in_danger():
        return first.blocks
    again = _Plan(order, able, life, slip, at_walkers)
    again.chump()
    again.trample()
    again.good()
    again.trade()
    again.gang()
    again.reinforce()
    return again.blocks if again.taken() < first.taken() else first.blocks


def _threat(a: Body) -> int:
    out = fight(a)
    return out.to_defender + out.attacker_gains


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
    ) -> None:
        self.order = order
        self.at_me = [a for a in order if a.id not in at_walkers]
        self.able = able
        self.life = life
        self.slip = slip
        self.blocks: Blocks = {}
        self.used: set[int] = set()

    def free(self, a: Body) -> list[Body]:
        return [b for b in self.able.get(a.id, []) if b.id not in self.used]

    def unblocked(self) -> list[Body]:
        return [a for a in self.order if a.id not in self.blocks]

    def add(self, a: Body, group: Sequence[Body]) -> None:
        self.blocks[a.id] = worst_order(a, [*self.blocks.get(a.id, []), *group])
        self.used |= {b.id for b in group}

    def taken(self) -> int:
        """The damage this plan lets through (less the life its blockers gain)."""
        out = resolve(self.at_me, self.blocks)
        return out.to_defender - out.defender_gains

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
    def trade(self) -> None:
        for a in self.unblocked():
            if min_blockers(a) > 1:
                continue
            # Easy sometimes trades down (its better creature for their lesser one); anyone
            # trades down to stay out of danger.
            careless = self.slip(0.5) or (a in self.at_me and self.in_danger())
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
            best: tuple[float, list[Body]] | None = None
            free = sorted(self.free(a), key=lambda b: (-b.power, b.value, b.id))[:8]
            for size in range(2, GANG_MAX + 1):
                for combo in combinations(free, size):
                    group = worst_order(a, combo)
                    out = fight(a, group)
                    lost = out.lost(group)
                    if a.id in out.dead:
                        gain = a.value - lost
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
    def chump(self) -> None:
        while self.in_danger():
            best: tuple[int, Body, list[Body]] | None = None
            for a in self.unblocked():
                if a not in self.at_me:
                    continue
                free = sorted(self.free(a), key=lambda b: (b.value, b.id))
                need = min_blockers(a)
                if len(free) < need:
                    continue
                group = free[:need]
                stopped = fight(a).to_defender - fight(a, group).to_defender
                if stopped > 0 and (best is None or stopped > best[0]):
                    best = (stopped, a, group)
            if best is None:
                return
            self.add(best[1], best[2])

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


__all__ = ["Blocks", "plan_blocks", "worst_order"]
