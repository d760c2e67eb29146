"""Priority: what the seat does when it may act. On its own main phase a land, then the best
spell it can cast, then an ability worth its cost; once blocks are known a combat trick or
removal where it changes the fight; on the other player's end step a flash creature or an
instant; against the other player's spell a counterspell when one is worth it."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from game.engine.carddef import CardDef
from game.engine.combat import can_attack, can_block
from game.engine.continuous import chars
from game.engine.decisions import Decision, Option
from game.engine.ops import reading
from game.engine.state import GameState, Obj
from game.engine.worth import permanent_value

from .answers import Answer
from .combat_math import fight
from .combat_removal import combat_removal
from .features import body
from .lethal import lethal_play
from .rules import Rules, colors_needed, is_creature
from .spells import harms_its_target, is_counterspell, lost_unless_cast, pointless
from .tricks import combat_trick, is_trick

# A land of a colour none of the seat's lands makes yet, when the hand is short of no colour
# it makes: less than any colour a spell in hand is short of (a third of a shortfall of one).
NEW_COLOUR = 0.3


class PriorityRules(Rules):
    def on_priority(self, g: GameState, d: Decision) -> Answer:
        options = [o for o in d.options if o.id != "pass" and o.data != "mana"]
        if not options:
            return "pass"
        win = lethal_play(g, self.seat, options)  # lethal first
        if win is not None:
            return win
        # A combat trick is played by its own rule, where it changes a fight, and nowhere else.
        trick = combat_trick(g, self.seat, options)
        if trick is not None and not self.slip(0.5):
            return trick
        # So is removal in a fight, once blocks are known (combat_removal.py).
        removal = combat_removal(g, self.seat, options)
        if removal is not None and not self.slip(0.5):
            return removal
        options = [o for o in options if not is_trick(g, o)]
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
            if not self.sloppy:
                spells = [o for o in spells if not self._for_a_combat_not_fought(g, o)]
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
                acts = [
                    o
                    for o in options
                    if o.id.startswith("act:")
                    and self._ability_ok(g, o)
                    and not self._equipment_already_worn(g, o)
                ]
                if acts:
                    return acts[0].id
            if g.step == "precombat_main":
                walker = [o for o in options if o.id.startswith("act:") and self._loyalty(g, o)]
                if walker:
                    return walker[0].id
                # Equipment goes on before the attack, where it makes the attack stronger.
                equip = [o for o in options if self._equips_an_attacker(g, o)]
                if equip:
                    return equip[0].id
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
        """Something is on the stack: counter the other player's spell or ability when it is
        worth countering (spells.worth_countering)."""
        if self.sloppy or g.stack[-1].controller == self.seat:
            return "pass"
        for o in options:
            face = face_of_option(g, o)
            if face is not None and is_counterspell(face) and not pointless(g, self.seat, face):
                return o.id
        return "pass"

    def _face(self, g: GameState, o: Option) -> CardDef | None:
        return face_of_option(g, o)

    def _spell_score(self, g: GameState, o: Option) -> float:
        face = face_of_option(g, o)
        if face is None:
            return 0.0
        if pointless(g, self.seat, face, card_lost=option_lost_unless_cast(g, o)):
            return 0.0
        opp = g.opponent(self.seat)
        score = 1.0 + face.mana_value  # use the mana: the biggest castable spell first
        if "Creature" in face.types:
            score += 1.0
        if face.spell_targets:
            harmful = harms_its_target(face)
            theirs = [x for x in g.battlefield if x.controller == opp and is_creature(g, x)]
            mine = [x for x in g.battlefield if x.controller == self.seat and is_creature(g, x)]
            # Whether the targets gain anything was judged by `pointless` above (a removal spell
            # with no creature of theirs to take is refused there, a card in a graveyard to
            # return is not).
            if harmful:
                if any(t.kind.endswith("spell") or t.kind == "stack" for t in face.spell_targets):
                    return 0.0  # a counterspell waits for something to counter
                if theirs:
                    score += max(permanent_value(g, x) for x in theirs) * 0.5
            elif not mine and all("you_control" in t.kind for t in face.spell_targets):
                return 0.0
        return score

    def _for_a_combat_not_fought(self, g: GameState, o: Option) -> bool:
        """A sorcery that gives a creature something for this turn's combat (Kick in the Door's
        haste) waits for the main phase after combat when no creature of the seat's could
        attack well even with it (no blocker of the other player's would kill it and live):
        cast before combat and the creature then kept home, it reads as a blunder and shows what
        is coming; after combat its lasting parts (the counter, the venture) are the same.
        Hard cast Kick in the Door twice before combats it then sat out (a playtest)."""
        if g.step != "precombat_main":
            return False
        face = face_of_option(g, o)
        if face is None or "Sorcery" not in face.types:
            return False
        gifts = [s for s in face.spell if s.get("op") == "modify"]
        if not any("haste" in s.get("keywords", ()) or s.get("power") for s in gifts):
            return False
        shield = sum(s.get("amount", 0) for s in face.spell if s.get("counter") == "+1/+1")
        grow = sum(s.get("power", 0) for s in gifts) + shield
        opp = g.opponent(self.seat)
        blockers = [y for y in g.controlled(opp) if is_creature(g, y) and not y.tapped]
        for x in g.controlled(self.seat):
            if not is_creature(g, x) or x.tapped or chars(g, x).cant_attack:
                continue
            b = body(g, x)
            a = replace(b, power=b.power + grow, toughness=b.toughness + shield)
            if a.power <= 0:
                continue
            if all(
                not (x.id in (out := fight(a, [body(g, y)])).dead and y.id not in out.dead)
                for y in blockers
                if can_block(g, y, x, alone=False)
            ):
                return False
        return True

    def _pick_land(self, g: GameState, lands: list[Option]) -> str:
        """The land that makes the colour the hand lacks most (a basic fixes one colour): a
        colour its spells ask for more of than the seat's lands make, else a colour none of
        them makes yet, for the deck's cards still to come. A playtest's Hard played a fourth
        Swamp with three Mountains in hand and only {B} spells, none of them short of black."""
        need = colors_needed(g, self.seat)
        have: Counter[str] = Counter()
        for o in g.controlled(self.seat):
            for a in o.card.activated:
                if a.is_mana_ability:
                    for c in a.produces:
                        have[c] += 1

        def score(opt: Option) -> tuple[float, str]:
            obj = g.find(opt.objs[0])
            produces = "".join(a.produces for a in obj.card.activated) if obj else ""
            gain = sum(
                need[c] / (1 + have[c]) if need[c] > have[c] else NEW_COLOUR * (have[c] == 0)
                for c in set(produces)
            )
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
        if any(reading(s).hurts(s) for s in ability.effect) and ability.targets:
            opp = g.opponent(self.seat)
            if not any(x.controller == opp and is_creature(g, x) for x in g.battlefield):
                return False
        # Only abilities with a real cost: a free untapped ability could be repeated forever.
        return ability.tap or (ability.mana is not None and ability.mana.mana_value > 0)

    def _equips_an_attacker(self, g: GameState, o: Option) -> bool:
        """An equip ability worth its cost, of Equipment not yet on a creature of the seat's
        that can attack, while one can: equipped after combat, it would sit out the attack."""
        if not o.id.startswith("act:") or not self._ability_ok(g, o):
            return False
        equipment = _equipment_of(g, o)
        if equipment is None:
            return False
        holder = _holder(g, equipment)
        if holder is not None and holder.controller == self.seat and can_attack(g, holder):
            return False
        return any(can_attack(g, x) for x in g.controlled(self.seat))

    def _equipment_already_worn(self, g: GameState, o: Option) -> bool:
        """An equip ability of Equipment already on a creature of the seat's: after combat,
        moving it gains nothing, and equipping the creature that wears it does nothing at all
        (CR 701.3b). Hard paid {3} to equip Plate Armor to the creature wearing it (a playtest)."""
        equipment = _equipment_of(g, o)
        holder = _holder(g, equipment) if equipment is not None else None
        return holder is not None and holder.controller == self.seat

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


def _equipment_of(g: GameState, o: Option) -> Obj | None:
    """The permanent whose ability `o` activates, when that ability attaches it (equip)."""
    obj = g.find(o.objs[0]) if o.objs else None
    if obj is None:
        return None
    ability = obj.card.activated[int(o.id.split(":")[2])]
    return obj if any(s.get("op") == "attach" for s in ability.effect) else None


def _holder(g: GameState, equipment: Obj) -> Obj | None:
    return g.find(equipment.attached_to) if equipment.attached_to is not None else None


def option_lost_unless_cast(g: GameState, o: Option) -> bool:
    """Whether the card an option casts is lost at the end of the turn unless cast now."""
    obj = g.find(o.objs[0]) if o.objs else None
    return obj is not None and lost_unless_cast(g, obj)


def face_of_option(g: GameState, o: Option) -> CardDef | None:
    """The face a priority option casts (the adventure for "castadv"), or None."""
    kind = o.id.split(":")[0]
    if kind not in ("cast", "castadv", "escape"):
        return None
    obj = g.find(o.objs[0])
    if obj is None:
        return None
    if kind == "castadv" and obj.card.adventure is not None:
        return obj.card.adventure
    return obj.card
