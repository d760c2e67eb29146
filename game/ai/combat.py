"""Combat: which creatures attack and which block which attacker.

Combat damage among several blockers is not chosen here: the engine offers the usual division
(lethal damage to each blocker in order, the rest to the last or, with trample, the player)
first, and the safe answer takes it.
"""

from __future__ import annotations

from game.engine.combat import can_block
from game.engine.continuous import chars
from game.engine.decisions import Decision, Option
from game.engine.state import GameState, Obj

from .answers import Answer, valid_subset
from .features import Fighter, fighter, permanent_value
from .rules import Rules, is_creature


class CombatRules(Rules):
    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        me, opp = self.seat, g.opponent(self.seat)
        mine: dict[int, Fighter] = {}
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            mine[obj.id] = fighter(g, obj)
        blockers = [
            fighter(g, o)
            for o in g.controlled(opp)
            if not o.tapped and is_creature(g, o) and not chars(g, o).cant_block
        ]
        opp_life = g.player(opp).life
        forced = self._forced_attackers(d)
        chosen = set(forced)
        # All in when the damage gets through whatever they block.
        total = sum(f.power for f in mine.values())
        stopped = sorted((f.power for f in mine.values()), reverse=True)[: len(blockers)]
        if total - sum(stopped) >= opp_life and self.sloppy == 0:
            chosen |= set(mine)
        else:
            my_life = g.player(me).life
            their_power = sum(fighter(g, o).power for o in g.controlled(opp) if is_creature(g, o))
            ahead = self._board(g, me) > self._board(g, opp) + 2
            for oid, f in sorted(mine.items()):
                able = [b for b in blockers if can_block(g, b.obj, f.obj)]
                trades = self.sloppy == 0  # Easy attacks only where nothing can kill it
                if not self._attack_is_good(
                    f, able, ahead and trades, g.player(opp).initiative and trades
                ):
                    continue
                if self.slip(0.4):
                    continue  # held back out of caution
                chosen.add(oid)
            # Keep enough at home when their counter-attack would be lethal.
            home = [f for oid, f in mine.items() if oid not in chosen or "vigilance" in f.keywords]
            if their_power >= my_life and self.sloppy == 0:
                for oid in sorted(
                    chosen - set(forced), key=lambda i: mine[i].toughness, reverse=True
                ):
                    guard = sum(f.toughness > 0 for f in home)
                    if their_power - 3 * guard < my_life:
                        break
                    chosen.discard(oid)
                    home.append(mine[oid])
        return [f"a{oid}" for oid in sorted(chosen)]

    def _forced_attackers(self, d: Decision) -> set[int]:
        forced = set()
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            if obj.goaded_by:
                forced.add(obj.id)
        return forced

    def _attack_is_good(
        self, f: Fighter, able: list[Fighter], ahead: bool, they_hold_initiative: bool
    ) -> bool:
        if f.power <= 0:
            return False
        for b in able:
            if b.kills(f):
                if not f.kills(b) or (b.first_strike and not f.first_strike):
                    return False  # they would block and win the fight
                # A trade: worth offering when ahead, or for the initiative, or for a better card.
                if not (ahead or they_hold_initiative or b.value >= f.value):
                    return False
        return True

    def _board(self, g: GameState, name: str) -> float:
        return sum(permanent_value(g, o) for o in g.controlled(name) if is_creature(g, o))

    def on_declare_blockers(self, g: GameState, d: Decision) -> Answer:
        me = self.seat
        pairs: dict[int, list[tuple[Obj, Option]]] = {}
        attackers: dict[int, Obj] = {}
        for opt in d.options:
            b, a = opt.data  # type: ignore[misc]
            pairs.setdefault(a.id, []).append((b, opt))
            attackers[a.id] = a
        fa = {aid: fighter(g, a) for aid, a in attackers.items()}
        incoming = sum(
            fighter(g, a).power for a in g.battlefield if g.combat and a.id in g.combat.attackers
        )
        life = g.player(me).life
        used: set[int] = set()
        chosen: list[str] = []
        order = sorted(fa, key=lambda aid: (-fa[aid].power, aid))
        for aid in order:
            a = fa[aid]
            if "menace" in a.keywords:
                continue
            options = [(fighter(g, b), opt) for b, opt in pairs[aid] if b.id not in used]
            pick = None
            good = [(bf, o) for bf, o in options if bf.kills(a) and bf.survives_against(a)]
            safe = [(bf, o) for bf, o in options if bf.survives_against(a)]
            # A trade is for a blocker worth no more than the attacker; Easy sometimes trades
            # down (its better creature for their lesser one), as a beginner does.
            careless = self.slip(0.5)
            trade = [
                (bf, o)
                for bf, o in options
                if bf.kills(a) and (careless or bf.value <= a.value + 0.5)
            ]
            if good:
                pick = min(good, key=lambda x: (x[0].value, x[1].id))
            elif safe and a.power > 0:
                pick = min(safe, key=lambda x: (x[0].value, x[1].id))
            elif trade and not self.slip(0.4):
                pick = min(trade, key=lambda x: (x[0].value, x[1].id))
            if pick is not None and self.slip(0.25):
                pick = None
            if pick is not None:
                used.add(pick[0].obj.id)
                chosen.append(pick[1].id)
                incoming -= a.power
        # Chump-block the biggest attackers while the rest would kill us.
        if incoming >= life:
            for aid in order:
                if incoming < life:
                    break
                a = fa[aid]
                if any(c.endswith(f":{aid}") for c in chosen) or "menace" in a.keywords:
                    continue
                spare = [(fighter(g, b), opt) for b, opt in pairs[aid] if b.id not in used]
                if spare:
                    bf, opt = min(spare, key=lambda x: (x[0].value, x[1].id))
                    used.add(bf.obj.id)
                    chosen.append(opt.id)
                    incoming -= a.power
        return valid_subset(d, chosen)
