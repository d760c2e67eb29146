"""The heuristic player: one rule of thumb per kind of decision (docs/ai.md).

`Policy(seat, rng, sloppy=...)` answers the seat's pending decision from the position as the
seat sees it. Medium is `sloppy=0`; Easy is the same player with human-like slips (missed
attacks, a spell forgotten, a careless target), never nonsense: the slips only ever leave out a
good play or take a reasonable second-best one. The search (search.py) uses Medium as the
players of its sampled games.

The rules for priority, combat and targets live in their own modules (priority.py, combat.py,
targets.py); the opening, the dungeons and the small choices are here.
"""

from __future__ import annotations

from collections.abc import Callable

from game.engine.cards import CARDS
from game.engine.continuous import chars
from game.engine.decisions import Decision, Option
from game.engine.effects_permanents import explored_card
from game.engine.game import Engine
from game.engine.kinds import KINDS
from game.engine.state import GameState
from game.engine.worth import land_worth, lands_of, permanent_value

from .answers import Answer, safe_answer, valid_subset
from .combat import CombatRules
from .damage_division import DivisionRules
from .features import HAND_SHARE, card_value, lands_in_hand, life_value
from .opening import bottom, keeps
from .priority import PriorityRules
from .rooms import best_dungeon, initiative_drain, room_score
from .rules import colors_needed, is_creature
from .targets import TargetRules

# Tests set this to see a rule of thumb's error instead of the safe answer that hides it.
STRICT = False
# A spell in hand loses this share of its worth for each land it is short of by the next turn.
OUT_OF_REACH = 0.5


def in_reach(g: GameState, seat: str, mana_value: int) -> float:
    """The share of a spell's worth in hand that its cost leaves: whole when the seat's lands, with
    next turn's land drop, can pay for it; halved for each land short. Stuck on two lands, a good
    player discards a 4-drop, not the 2-drop it can cast
    (`discards_what_it_cannot_cast_soon.yaml`)."""
    short = mana_value - (lands_of(g, seat) + 1)
    return OUT_OF_REACH ** max(0, short)


class Policy(PriorityRules, CombatRules, TargetRules, DivisionRules):
    # entry -----------------------------------------------------------------------------------
    def answer(self, game: Engine) -> Answer:
        d = game.pending
        assert d is not None and d.player == self.seat
        g = game.state
        with g.reading():
            try:
                # The kind's rule, as the registry names it (game/engine/kinds.py, `computer`).
                rule: Callable[[GameState, Decision], Answer] = getattr(
                    self, KINDS[d.kind].computer
                )
                answer = rule(g, d)
                d.validate(self.seat, answer)
            except Exception:
                if STRICT:
                    raise
                answer = safe_answer(d)
        return answer

    # the opening ------------------------------------------------------------------------------
    def on_mulligan(self, g: GameState, d: Decision) -> Answer:
        p = g.player(self.seat)
        hand = [o.card for o in p.hand]
        return "keep" if keeps(hand, p.mulligans, sloppy=self.sloppy > 0) else "mulligan"

    def on_mulligan_bottom(self, g: GameState, d: Decision) -> Answer:
        if self.sloppy > 0:
            return self.choose_least_valuable(g, d)
        cards = [g.find(o.objs[0]) for o in d.options]
        hand = [o.card for o in cards if o is not None]
        if len(hand) != len(d.options):
            return self.choose_least_valuable(g, d)
        picks = [d.options[i].id for i in bottom(hand, d.max_count)]
        return picks if d.multi else picks[0]

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
        """ "Lose N life unless you …": pay with the least valuable thing the payment takes when
        it is worth less than the life (both in the evaluation's units, `features.life_value`);
        "unless you sacrifice a Zombie" keeps its own rule of thumb."""
        me = g.player(self.seat)
        prompt = d.prompt.lower()
        if "zombie" in prompt:
            mine = [o for o in g.controlled(self.seat) if is_creature(g, o)]
            cheap = min((permanent_value(g, o) for o in mine), default=99.0)
            return "pay" if cheap <= 3.5 else "dont"
        words = prompt.split()
        lost = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
        # The life is weighed where it will stand after the drain the seat cannot stop before
        # its next turn: the other player, holding the initiative, ventures into Undercity at
        # its upkeep (CR 725.2), and Trap! takes 5. Two points of 10 are worth more than a spare
        # card then (Hard lost 2 to Veils of Fear at 10 life with Trap! coming, and died).
        opp = g.opponent(self.seat)
        coming = 0
        if g.active == self.seat and g.player(opp).initiative:
            coming = initiative_drain(g, opp, self.seat)
        life_cost = life_value(me.life - coming) - life_value(me.life - coming - lost)
        if "discard" in prompt:
            cheapest = min((self._obj_value(g, o.id) for o in me.hand), default=99.0)
            return "pay" if cheapest * HAND_SHARE <= life_cost else "dont"
        if "sacrifice" in prompt:
            payable = [
                o
                for o in g.controlled(self.seat)
                if {"Artifact", "Creature", "Land"} & chars(g, o).types
            ]
            cheapest = min((permanent_value(g, o) for o in payable), default=99.0)
            return "pay" if cheapest <= life_cost else "dont"
        return "pay" if me.life <= 8 else "dont"

    def on_pay_ward(self, g: GameState, d: Decision) -> Answer:
        return "pay"

    def on_yes_no(self, g: GameState, d: Decision) -> Answer:
        name = explored_card(d.prompt)
        if name is not None:
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
        need = colors_needed(g, self.seat)
        return max(d.options, key=lambda o: (need[o.id], o.id)).id

    def on_search(self, g: GameState, d: Decision) -> Answer:
        real = [o for o in d.options if o.id != "none"]
        if not real:
            return d.options[0].id
        need = colors_needed(g, self.seat)
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

    # choices among objects (engine/choices.py, choose_objects), and the rest -----------------
    def choose_least_valuable(self, g: GameState, d: Decision) -> Answer:
        """What is chosen is lost (discard, sacrifice, a cost): the least valuable, as few as
        allowed."""
        return self._by_value(g, d, losing=True)

    def choose_most_valuable(self, g: GameState, d: Decision) -> Answer:
        """What is chosen is kept or gained (a card to take, the legend to keep): the most
        valuable, as many as allowed."""
        return self._by_value(g, d, losing=False)

    def choose_safely(self, g: GameState, d: Decision) -> Answer:
        """No judgement needed: pass, keep, don't, or the first option (the usual amount, for a
        division of combat damage asked part by part)."""
        return safe_answer(d)

    def _by_value(self, g: GameState, d: Decision, *, losing: bool) -> Answer:
        if d.ordered or not all(o.id.startswith("o") and o.objs for o in d.options):
            return safe_answer(d)
        scored = sorted(
            d.options, key=lambda o: (self._obj_value(g, o.objs[0]), o.id), reverse=not losing
        )
        if not d.multi:
            return scored[0].id
        n = d.min_count if losing else d.max_count
        return valid_subset(d, [o.id for o in scored[:n]]) if n else []

    def _obj_value(self, g: GameState, oid: int) -> float:
        obj = g.find(oid)
        if obj is None:
            return 0.0
        if obj.zone == "battlefield":
            return permanent_value(g, obj)
        if obj.zone == "hand" and "Land" in obj.card.types:
            return land_worth(lands_of(g, self.seat) + lands_in_hand(g, self.seat))
        if obj.zone == "hand" and obj.controller == self.seat:
            return card_value(obj.card) * in_reach(g, self.seat, obj.card.mana_value)
        return card_value(obj.card)
