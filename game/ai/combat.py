"""Combat: which creatures attack and which block which attacker.

Both read the combat calculator (combat_math.py); the blocks are planned in blocks.py. Combat
damage among several blockers is not chosen here: the engine offers the usual division (lethal
damage to each blocker in order, the rest to the last or, with trample, the player) first, and
the safe answer takes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from game.engine.combat import can_block
from game.engine.continuous import chars
from game.engine.decisions import Decision
from game.engine.state import GameState, Obj

from .answers import Answer, valid_subset
from .blocks import plan_blocks, worst_order
from .combat_math import Body, fight, least_damage_through, min_blockers
from .features import body, permanent_value
from .habits import Habits, habits
from .rules import Rules, is_creature

# How far down a trade the attacker offers when ahead or racing for the initiative: the blocker
# it takes must be worth at least this share of the attacker.
TRADE_DOWN = 0.5


class CombatRules(Rules):
    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        me, opp = self.seat, g.opponent(self.seat)
        objs: dict[int, Obj] = {}
        mine: dict[int, Body] = {}
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            objs[obj.id] = obj
            mine[obj.id] = body(g, obj)
        # Medium reads the other player's habits from the log (habits.py); Easy doesn't.
        read = habits(g, opp) if self.sloppy == 0 else Habits()
        blockers = [o for o in g.controlled(opp) if _can_ever_block(g, o)]
        if read.never_blocks:
            blockers = []  # it has let every attacker through so far
        objs.update((o.id, o) for o in blockers)
        theirs = [body(g, o) for o in blockers]

        def legal(a: Body, b: Body) -> bool:
            return can_block(g, objs[b.id], objs[a.id])

        opp_life = g.player(opp).life
        forced = self._forced_attackers(d)
        chosen = set(forced)
        # Lethal first: everything attacks when the damage gets through their best blocks
        # (evasion, menace and trample counted). Easy sees it only with nothing to block.
        if self.sloppy == 0:
            lethal = least_damage_through(list(mine.values()), theirs, legal) >= opp_life
        else:
            lethal = not theirs and sum(fight(b).to_defender for b in mine.values()) >= opp_life
        if lethal:
            return [f"a{oid}" for oid in sorted(mine)]
        my_life = g.player(me).life
        their_all = [body(g, o) for o in g.controlled(opp) if _may_attack_later(g, o)]
        if read.never_attacks:
            their_all = []  # it has kept every creature home so far: no counter-attack to fear
        ahead = self._board(g, me) > self._board(g, opp) + 2 or _wins_race(
            list(mine.values()), their_all, my_life, opp_life
        )
        trades = self.sloppy == 0  # Easy attacks only where nothing can kill it
        for oid, a in sorted(mine.items()):
            able = [b for b in theirs if legal(a, b)]
            if not self._attack_is_good(
                a, able, ahead and trades, g.player(opp).initiative and trades
            ):
                continue
            if self.slip(0.4):
                continue  # held back out of caution
            chosen.add(oid)
        if self.sloppy == 0:
            chosen = self._keep_guard(g, chosen, forced, mine, their_all, my_life)
        return [f"a{oid}" for oid in sorted(chosen)]

    def _keep_guard(
        self,
        g: GameState,
        chosen: set[int],
        forced: set[int],
        mine: dict[int, Body],
        their_all: list[Body],
        my_life: int,
    ) -> set[int]:
        """Call attackers back, the best blockers first, while the other side's next attack
        would be lethal against the creatures left at home."""
        me = self.seat
        home_objs = {
            o.id: o
            for o in g.controlled(me)
            if is_creature(g, o) and not o.tapped and not chars(g, o).cant_block
        }
        their_objs = {o.id: o for o in g.controlled(g.opponent(me))}

        def guards(attacking: set[int]) -> list[Body]:
            return [
                body(g, o)
                for oid, o in home_objs.items()
                if oid not in attacking or "vigilance" in chars(g, o).keywords
            ]

        def legal(a: Body, b: Body) -> bool:
            return _could_block(g, home_objs[b.id], their_objs[a.id])

        chosen = set(chosen)
        for oid in sorted(chosen - forced, key=lambda i: (-mine[i].toughness, i)):
            if least_damage_through(their_all, guards(chosen), legal) < my_life:
                break
            chosen.discard(oid)
        return chosen

    def _forced_attackers(self, d: Decision) -> set[int]:
        forced = set()
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            if obj.goaded_by:
                forced.add(obj.id)
        return forced

    def _attack_is_good(
        self, a: Body, able: list[Body], ahead: bool, they_hold_initiative: bool
    ) -> bool:
        if a.power <= 0:
            return False
        # The blocks they could make: one creature, or two against menace.
        groups: list[Sequence[Body]] = (
            [[b] for b in able] if min_blockers(a) == 1 else list(combinations(able, 2))
        )
        for group in groups:
            out = fight(a, worst_order(a, group))
            if a.id in out.dead:
                lost = out.lost(group)
                if lost == 0:
                    return False  # they would block and win the fight
                # A trade: worth offering for a card as good, or, when ahead or for the
                # initiative, for one worth at least TRADE_DOWN of it; never further down (a 7/5
                # trampler for a 1/2 deathtouch blocker is a loss whatever the board).
                even = lost >= a.value
                pressing = (ahead or they_hold_initiative) and lost >= TRADE_DOWN * a.value
                if not (even or pressing):
                    return False
        return True

    def _board(self, g: GameState, name: str) -> float:
        return sum(permanent_value(g, o) for o in g.controlled(name) if is_creature(g, o))

    def on_declare_blockers(self, g: GameState, d: Decision) -> Answer:
        attackers: dict[int, Body] = {}
        able: dict[int, list[Body]] = {}
        for opt in d.options:
            b, a = opt.data  # type: ignore[misc]
            if a.id not in attackers:
                attackers[a.id] = body(g, a)
            able.setdefault(a.id, []).append(body(g, b))
        # Every attacker counts, the ones nothing can block too: their damage is coming anyway.
        for o in g.battlefield:
            if g.combat and o.id in g.combat.attackers and o.id not in attackers:
                attackers[o.id] = body(g, o)
        aims = g.combat.attackers if g.combat else {}
        at_walkers = frozenset(aid for aid, whom in aims.items() if whom != self.seat)
        blocks = plan_blocks(
            list(attackers.values()),
            able,
            g.player(self.seat).life,
            at_walkers=at_walkers,
            slip=self.slip,
        )
        chosen = [f"b{b.id}:{aid}" for aid, group in blocks.items() for b in group]
        return valid_subset(d, chosen)


def _can_ever_block(g: GameState, o: Obj) -> bool:
    return is_creature(g, o) and not o.tapped and not chars(g, o).cant_block


def _may_attack_later(g: GameState, o: Obj) -> bool:
    """A creature of the other player's that could attack on its next turn."""
    c = chars(g, o)
    return "Creature" in c.types and not c.cant_attack and "defender" not in c.keywords


def _could_block(g: GameState, blocker: Obj, attacker: Obj) -> bool:
    """Whether `blocker` could block `attacker` on the other player's turn (the attacker is
    untapped by then, and may be tapped now)."""
    bc, ac = chars(g, blocker), chars(g, attacker)
    if "flying" in ac.keywords and not ({"flying", "reach"} & bc.keywords):
        return False
    if ac.cant_be_blocked_by_walls and "Wall" in bc.subtypes:
        return False
    return "protection from creatures" not in ac.keywords


def _wins_race(mine: list[Body], theirs: list[Body], my_life: int, their_life: int) -> bool:
    """Does the seat win a race where both sides attack with everything, unblocked?"""
    mine_hit = sum(fight(b).to_defender for b in mine)
    theirs_hit = sum(fight(b).to_defender for b in theirs)
    if mine_hit <= 0:
        return False
    my_turns = -(-their_life // mine_hit)
    if theirs_hit <= 0:
        return True
    their_turns = -(-my_life // theirs_hit)
    return my_turns <= their_turns
