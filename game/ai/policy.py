"""The heuristic player: one rule of thumb per kind of decision (docs/ai.md).

`Policy(seat, rng, sloppy=...)` answers the seat's pending decision from the position as the
seat sees it. Medium is `sloppy=0`; Easy is the same player with human-like slips (missed
attacks, a spell forgotten, a careless target), never nonsense: the slips only ever leave out a
good play or take a reasonable second-best one. The search (search.py) uses Medium as the
players of its sampled games.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from game.engine.cards import CARDS
from game.engine.combat import can_block
from game.engine.continuous import chars
from game.engine.decisions import Decision, Option
from game.engine.game import Engine
from game.engine.state import GameState, Obj, StackItem

from .features import (
    Fighter,
    card_value,
    fighter,
    permanent_value,
    step_harms,
)
from .rooms import best_dungeon, room_score

Answer = str | list[str]

# The kinds of decision that choose among objects (engine/choices.py, choose_objects): the
# things chosen are lost in the first group (so the least valuable are chosen), kept or
# gained in the second (the most valuable). Kinds without an `on_<kind>` method are listed here
# (tests/ai/test_decisions.py checks every kind the engine asks has a rule).
LOSING_KINDS = frozenset({"sacrifice", "discard", "tap_cost", "escape_exile", "mulligan_bottom"})
GAINING_KINDS = frozenset({"choose_card", "legend_rule", "untap"})
OBJECT_KINDS = LOSING_KINDS | GAINING_KINDS

# Tests set this to see a rule of thumb's error instead of the safe answer that hides it.
STRICT = False


class Policy:
    def __init__(self, seat: str, rng: random.Random, *, sloppy: float = 0.0) -> None:
        self.seat = seat
        self.rng = rng
        self.sloppy = sloppy

    def slip(self, chance: float) -> bool:
        """An Easy player's slip, at `chance` times its sloppiness."""
        return self.sloppy > 0 and self.rng.random() < chance * self.sloppy

    # entry -----------------------------------------------------------------------------------
    def answer(self, game: Engine) -> Answer:
        d = game.pending
        assert d is not None and d.player == self.seat
        g = game.state
        handler: Callable[[GameState, Decision], Answer] = getattr(
            self, "on_" + d.kind, self.on_other
        )
        with g.reading():
            try:
                answer = handler(g, d)
                d.validate(self.seat, answer)
            except Exception:  # noqa: BLE001 - an unforeseen case gets the safe answer below
                if STRICT:
                    raise
                answer = safe_answer(d)
        return answer

    # the opening ------------------------------------------------------------------------------
    def on_mulligan(self, g: GameState, d: Decision) -> Answer:
        p = g.player(self.seat)
        lands = sum(1 for o in p.hand if "Land" in o.card.types)
        size = len(p.hand) - p.mulligans
        if p.mulligans >= 2 or size <= 5:
            return "keep"
        low, high = (2, 5) if self.sloppy == 0 else (1, 6)
        return "keep" if low <= lands <= high else "mulligan"

    # priority ---------------------------------------------------------------------------------
    def on_priority(self, g: GameState, d: Decision) -> Answer:
        options = [o for o in d.options if o.id != "pass" and o.data != "mana"]
        if not options:
            return "pass"
        me = self.seat
        my_main = g.active == me and g.step in ("precombat_main", "postcombat_main")
        if g.stack:
            return self._respond(g, options)
        if my_main:
            lands = [o for o in options if o.id.startswith("play:")]
            if lands and not self.slip(0.1):  # (Easy now and then forgets its land)
                return self._pick_land(g, lands)
            spells = [o for o in options if o.id.split(":")[0] in ("cast", "castadv", "escape")]
            scored = [(self._spell_score(g, o), o) for o in spells]
            scored = [(s, o) for s, o in scored if s > 0]
            if scored:
                if self.slip(0.3):
                    return "pass"  # forgot a spell this turn
                scored.sort(key=lambda so: (-so[0], so[1].id))
                if self.slip(0.6):
                    return self.rng.choice(scored)[1].id  # no thought for the curve
                return scored[0][1].id
            if g.step == "postcombat_main":
                acts = [o for o in options if o.id.startswith("act:") and self._ability_ok(g, o)]
                if acts:
                    return acts[0].id
            if g.step == "precombat_main":
                walker = [o for o in options if o.id.startswith("act:") and self._loyalty(g, o)]
                if walker:
                    return walker[0].id
            return "pass"
        # Someone else's turn, nothing on the stack: flash creatures and instants at the end step
        # (Easy doesn't think of it).
        if g.active != me and g.step == "end" and not self.sloppy:
            spells = [o for o in options if o.id.startswith("cast:")]
            scored = [(self._spell_score(g, o), o) for o in spells]
            scored = [(s, o) for s, o in scored if s > 0]
            if scored:
                scored.sort(key=lambda so: (-so[0], so[1].id))
                return scored[0][1].id
            acts = [o for o in options if o.id.startswith("act:") and self._ability_ok(g, o)]
            if acts:
                return acts[0].id
        return "pass"

    def _respond(self, g: GameState, options: list[Option]) -> Answer:
        """Something is on the stack: counter a worthwhile spell of the opponent's."""
        top = g.stack[-1]
        if self.sloppy or top.controller == self.seat or top.kind != "spell" or top.card is None:
            return "pass"
        if top.card.card.mana_value < 3 and "Creature" not in top.card.card.types:
            return "pass"
        for o in options:
            face = self._face(g, o)
            if face is not None and any(s.get("op") == "counter" for s in face.spell):
                return o.id
        return "pass"

    def _face(self, g: GameState, o: Option):  # noqa: ANN202 - a CardDef or None
        kind = o.id.split(":")[0]
        if kind not in ("cast", "castadv", "escape"):
            return None
        obj = g.find(o.objs[0])
        if obj is None:
            return None
        if kind == "castadv" and obj.card.adventure is not None:
            return obj.card.adventure
        return obj.card

    def _spell_score(self, g: GameState, o: Option) -> float:
        face = self._face(g, o)
        if face is None:
            return 0.0
        opp = g.opponent(self.seat)
        score = 1.0 + face.mana_value  # use the mana: the biggest castable spell first
        if "Creature" in face.types:
            score += 1.0
        if face.spell_targets:
            harmful = any(step_harms(s) for s in face.spell)
            theirs = [x for x in g.battlefield if x.controller == opp and _creature(g, x)]
            mine = [x for x in g.battlefield if x.controller == self.seat and _creature(g, x)]
            if harmful:
                can_hit_player = any(
                    t.kind in ("any", "player", "opponent") for t in face.spell_targets
                )
                creature_only = all(t.kind != "stack" for t in face.spell_targets)
                if any(t.kind.endswith("spell") or t.kind == "stack" for t in face.spell_targets):
                    return 0.0  # a counterspell waits for something to counter
                if creature_only and not theirs and not can_hit_player:
                    return 0.0
                if theirs:
                    score += max(permanent_value(g, x) for x in theirs) * 0.5
            elif not mine and all("you_control" in t.kind for t in face.spell_targets):
                return 0.0
        return score

    def _pick_land(self, g: GameState, lands: list[Option]) -> str:
        """The land that makes the colour the hand lacks most (a basic fixes one colour)."""
        need: Counter[str] = Counter()
        for o in g.player(self.seat).hand:
            if o.card.cost is not None:
                for color, n in o.card.cost.colored:
                    need[color] += n
        have: Counter[str] = Counter()
        for o in g.controlled(self.seat):
            for a in o.card.activated:
                if a.is_mana_ability:
                    for c in a.produces:
                        have[c] += 1

        def score(opt: Option) -> tuple[float, str]:
            obj = g.find(opt.objs[0])
            produces = "".join(a.produces for a in obj.card.activated) if obj else ""
            gain = sum(need[c] / (1 + have[c]) for c in set(produces))
            return (-gain - (0 if obj and obj.card.enters_tapped else 0.1), opt.id)

        return min(lands, key=score).id

    def _ability_ok(self, g: GameState, o: Option) -> bool:
        obj = g.find(o.objs[0])
        if obj is None:
            return False
        ability = obj.card.activated[int(o.id.split(":")[2])]
        if ability.sacrifice_self or ability.discard_self or ability.is_mana_ability:
            return False
        if ability.loyalty is not None:
            return self._loyalty(g, o)
        if any(step_harms(s) for s in ability.effect) and ability.targets:
            opp = g.opponent(self.seat)
            if not any(x.controller == opp and _creature(g, x) for x in g.battlefield):
                return False
        # Only abilities with a real cost: a free untapped ability could be repeated forever.
        return ability.tap or (ability.mana is not None and ability.mana.mana_value > 0)

    def _loyalty(self, g: GameState, o: Option) -> bool:
        obj = g.find(o.objs[0])
        if obj is None:
            return False
        ability = obj.card.activated[int(o.id.split(":")[2])]
        if ability.loyalty is None:
            return False
        if ability.loyalty >= 0:
            return True
        # A minus ability only when it leaves the planeswalker alive.
        return obj.counters.get("loyalty", 0) + ability.loyalty > 0

    # combat -----------------------------------------------------------------------------------
    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        me, opp = self.seat, g.opponent(self.seat)
        mine: dict[int, Fighter] = {}
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            mine[obj.id] = fighter(g, obj)
        blockers = [
            fighter(g, o)
            for o in g.controlled(opp)
            if not o.tapped and _creature(g, o) and not chars(g, o).cant_block
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
            their_power = sum(fighter(g, o).power for o in g.controlled(opp) if _creature(g, o))
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
        return sum(permanent_value(g, o) for o in g.controlled(name) if _creature(g, o))

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
        return _valid_subset(d, chosen)

    # targets, division ------------------------------------------------------------------------
    def on_choose_targets(self, g: GameState, d: Decision) -> Answer:
        item = _item_for(g, d, self.seat)
        harmful = True
        amount = 0
        if item is not None:
            index = len(item.targets)
            steps = [s for s in item.effect if s.get("target") == index] or item.effect
            harmful = any(step_harms(s) for s in steps)
            amount = max(
                (int(s.get("amount", 0) or 0) for s in steps if s.get("op") == "damage"), default=0
            )
        scored = sorted(
            ((self._target_score(g, o.data, harmful, amount), o.id) for o in d.options),
            reverse=True,
        )
        want = d.max_count if d.multi else 1
        picks = [oid for s, oid in scored if s > 0][:want]
        if self.slip(0.3) and len(scored) > 1:
            positive = [oid for s, oid in scored if s > 0]
            if len(positive) > 1:
                picks = [self.rng.choice(positive)]
        if len(picks) < d.min_count:
            picks = [oid for _, oid in scored][: max(d.min_count, 1)]
        return picks if d.multi else picks[0]

    def _target_score(self, g: GameState, ref: object, harmful: bool, amount: int) -> float:
        me = self.seat
        kind, what = ref  # type: ignore[misc]
        sign = 1.0 if harmful else -1.0
        if kind == "player":
            mine = what == me
            base = 1.5 if amount else 0.5
            if amount and g.player(what).life <= amount:
                base = 100.0
            return (-base if mine else base) * sign
        if kind == "stack":
            item = g.stack_item(what)
            theirs = item is not None and item.controller != me
            return (2.0 if theirs else -2.0) * sign
        obj = g.permanent(what)
        if obj is None:
            return 0.0
        value = permanent_value(g, obj)
        if amount and _creature(g, obj):
            c = chars(g, obj)
            if amount < c.toughness - obj.damage and "deathtouch" not in c.keywords:
                value *= 0.2  # damage that doesn't kill is mostly wasted
        return value * sign * (1.0 if obj.controller != me else -1.0)

    def on_divide(self, g: GameState, d: Decision) -> Answer:
        item = _item_for(g, d, self.seat)
        if item is None or not item.targets:
            return d.options[0].id
        refs = [r for refs in item.targets for r in refs]
        splits = [_parse_split(o.label) for o in d.options]

        def value(split: list[int]) -> float:
            total = 0.0
            for ref, n in zip(refs, split, strict=False):
                if ref[0] == "obj":
                    obj = g.permanent(ref[1])
                    if obj is None:
                        continue
                    c = chars(g, obj)
                    killed = n >= c.toughness - obj.damage
                    total += (permanent_value(g, obj) if killed else 0.0) * (
                        1 if obj.controller != self.seat else -1
                    )
                elif ref[0] == "player":
                    total += 0.3 * n * (1 if ref[1] != self.seat else -1)
            return total

        best = max(range(len(d.options)), key=lambda i: (value(splits[i]), -i))
        return d.options[best].id

    # dungeons ---------------------------------------------------------------------------------
    def on_choose_room(self, g: GameState, d: Decision) -> Answer:
        p = g.player(self.seat)
        assert p.dungeon is not None
        spec = p.dungeon.spec
        if self.slip(0.5):
            return self.rng.choice(d.options).id
        return max(
            d.options,
            key=lambda o: (room_score(g, self.seat, spec, o.id.removeprefix("room:")), o.id),
        ).id

    def on_choose_dungeon(self, g: GameState, d: Decision) -> Answer:
        names = [o.id.removeprefix("dungeon:") for o in d.options]
        return "dungeon:" + best_dungeon(g, self.seat, names)

    # payments and small choices ---------------------------------------------------------------
    def on_unless(self, g: GameState, d: Decision) -> Answer:
        life = g.player(self.seat).life
        prompt = d.prompt.lower()
        if "discard" in prompt:
            hand = g.player(self.seat).hand
            worst = min((card_value(o.card) for o in hand), default=9.0)
            return "pay" if worst <= 1.0 or life <= 6 else "dont"
        if "zombie" in prompt:
            mine = [o for o in g.controlled(self.seat) if _creature(g, o)]
            cheap = min((permanent_value(g, o) for o in mine), default=99.0)
            return "pay" if cheap <= 3.5 else "dont"
        if "sacrifice" in prompt:
            stuff = g.controlled(self.seat)
            lands = sum(1 for o in stuff if "Land" in o.card.types)
            tokens = [o for o in stuff if o.token]
            return "pay" if tokens or lands >= 6 or life <= 5 else "dont"
        return "pay" if life <= 8 else "dont"

    def on_pay_ward(self, g: GameState, d: Decision) -> Answer:
        return "pay"

    def on_yes_no(self, g: GameState, d: Decision) -> Answer:
        prompt = d.prompt
        if prompt.startswith("Put ") and prompt.endswith("into your graveyard?"):
            name = prompt[4:].removesuffix(" into your graveyard?")
            card = CARDS.get(name)
            return "yes" if card is not None and "Land" in card.types else "no"
        return "yes"

    def on_cast_free(self, g: GameState, d: Decision) -> Answer:
        real = [o for o in d.options if o.id != "none"]
        if not real:
            return "none"

        def score(o: Option) -> tuple[float, str]:
            obj = o.data
            face = obj.card.adventure if o.id.startswith("adv:") else obj.card  # type: ignore[union-attr]
            return (face.mana_value if face else 0, o.id)

        return max(real, key=score).id

    def on_choose_color(self, g: GameState, d: Decision) -> Answer:
        need: Counter[str] = Counter()
        for o in g.player(self.seat).hand:
            if o.card.cost is not None:
                for color, n in o.card.cost.colored:
                    need[color] += n
        return max(d.options, key=lambda o: (need[o.id], o.id)).id

    def on_search(self, g: GameState, d: Decision) -> Answer:
        real = [o for o in d.options if o.id != "none"]
        if not real:
            return d.options[0].id
        need: Counter[str] = Counter()
        for o in g.player(self.seat).hand:
            if o.card.cost is not None:
                for color, n in o.card.cost.colored:
                    need[color] += n
        lands = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
        return max(real, key=lambda o: (need[lands.get(o.label.split(" #")[0], "")], o.id)).id

    def on_scry(self, g: GameState, d: Decision) -> Answer:
        p = g.player(self.seat)
        lands_out = sum(1 for o in g.controlled(self.seat) if "Land" in o.card.types)
        lands_hand = sum(1 for o in p.hand if "Land" in o.card.types)
        bottom = []
        for opt in d.options:
            obj = g.find(opt.objs[0])
            if obj is None:
                continue
            is_land = "Land" in obj.card.types
            if (
                is_land
                and lands_out + lands_hand >= 5
                or not is_land
                and lands_out + lands_hand < 3
                and obj.card.mana_value > 3
            ):
                bottom.append(opt.id)
        return bottom

    def on_scry_order(self, g: GameState, d: Decision) -> Answer:
        return [o.id for o in d.options]

    def on_order_triggers(self, g: GameState, d: Decision) -> Answer:
        return [o.id for o in d.options]

    def on_other(self, g: GameState, d: Decision) -> Answer:
        """choose_objects kinds (sacrifice, discard, choose_card, legend_rule, …) and anything
        new: the least valuable things are given up, the most valuable ones taken."""
        if d.ordered:
            return [o.id for o in d.options]
        if all(o.id.startswith("o") and o.objs for o in d.options):
            losing = d.kind in LOSING_KINDS
            scored = sorted(
                d.options, key=lambda o: (self._obj_value(g, o.objs[0]), o.id), reverse=not losing
            )
            if not d.multi:
                return scored[0].id
            n = d.min_count if losing else d.max_count
            return _valid_subset(d, [o.id for o in scored[:n]]) if n else []
        return safe_answer(d)

    def _obj_value(self, g: GameState, oid: int) -> float:
        obj = g.find(oid)
        if obj is None:
            return 0.0
        if obj.zone == "battlefield":
            return permanent_value(g, obj)
        return card_value(obj.card)


def _creature(g: GameState, o: Obj) -> bool:
    return "Creature" in chars(g, o).types


def _item_for(g: GameState, d: Decision, seat: str) -> StackItem | None:
    """The spell or ability whose targets (or division) `d` asks for."""
    name = d.prompt.split(": ", 1)[0]
    for item in reversed(g.stack):
        if item.controller == seat and item.name == name:
            return item
    return None


def _parse_split(label: str) -> list[int]:
    return [
        int(part.strip().split(" ", 1)[0])
        for part in label.split(", ")
        if part.strip()[:1].isdigit()
    ]


def _valid_subset(d: Decision, ids: list[str]) -> list[str]:
    """Drop chosen options, last first, until the decision's own check accepts the rest."""
    ids = list(dict.fromkeys(ids))[: d.max_count]
    while ids:
        chosen = [d.option(i) for i in ids]
        if (d.check is None or d.check(chosen) is None) and len(ids) >= d.min_count:
            return ids
        ids.pop()
    return safe_answer(d)  # type: ignore[return-value]


def safe_answer(d: Decision) -> Answer:
    """A legal answer for any decision: pass, the smallest legal choice, or the first option."""
    if d.ordered:
        return [o.id for o in d.options]
    ids = [o.id for o in d.options]
    if not d.multi:
        for cautious in ("pass", "keep", "dont", "none", "no"):
            if cautious in ids:
                return cautious
        return ids[0]
    for k in range(d.min_count, d.max_count + 1):
        pick = ids[:k]
        if d.check is None or d.check([d.option(i) for i in pick]) is None:
            return pick
    return ids[: d.min_count]
