"""Whether a spell is worth casting, and where its targets go.

Every target a phrase may name is scored by what the text's steps on it gain the seat, read from
the steps' readings (`ops.reading`, nothing else): a step that hurts gains when it names the
other player's thing and gives away when it names one's own, a helpful step the other way round;
a step that removes what it names (destroy, counter, return to hand) and damage that kills are
worth the thing's whole value, an Aura that hurts what it takes from the creature it will
enchant (`aura_takes`), any other step what its reading says it is worth to the player it
helps. A card in a graveyard that a phrase names comes back to the seat (every such phrase of
the pool returns it). Divided damage is scored split by split.

A spell with targets is cast when its targets gain something: a removal spell only at a threat
(a creature that can hurt the seat) unless nothing better can come, divided damage only where it
kills something or is lethal. A spell whose targets gain nothing, or give something away, is
cast only when the whole play (its untargeted steps too: a venture is worth the room it enters,
`rooms.venture_value`) is worth more than the card it spends. A counterspell waits for a spell
or ability worth countering.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from game.engine.carddef import CardDef, Static, Step, TargetSpec
from game.engine.continuous import chars
from game.engine.ops import reading
from game.engine.state import AFTER_COMBAT, ATTACK_STEPS, GameState, Obj, StackItem
from game.engine.targets import TARGET_KINDS, Ref, candidates
from game.engine.worth import (
    creature_value,
    held_tapped,
    lasting_value,
    permanent_value,
)

from .features import card_value, life_value
from .new_base import new_base_worth
from .rooms import venture_value

# A creature worth a removal spell or a counterspell: a 3-power creature, or a 2/2 with a
# keyword that matters (deathtouch, lifelink, flying); a plain 2/2 (4.2) or a 0/4 wall is not.
THREAT = 5.0
# At this life or less anything that can attack is worth removing.
LOW_LIFE = 8
# With no creature of its own, anything that can attack is worth removing when the other side's
# creatures would kill the seat within this many of their attacks.
UNOPPOSED_TURNS = 3
# An ability worth a counterspell: more than about a card's worth.
ABILITY_WORTH = 1.5


@dataclass(frozen=True, slots=True)
class Text:
    """What a spell or ability does, as its targets are chosen: its steps, its target phrases,
    and for an Aura spell its face, whose statics act on the creature it will enchant (None: not
    an Aura)."""

    effect: list[Step]
    specs: list[TargetSpec]
    aura: CardDef | None = None

    @staticmethod
    def of_face(face: CardDef) -> Text:
        aura = face if "Aura" in face.subtypes else None
        return Text(list(face.spell), list(face.spell_targets), aura)

    @staticmethod
    def of_item(item: StackItem) -> Text:
        if item.kind == "spell" and item.card is not None and not item.adventure:
            face = Text.of_face(item.card.card)
            return Text(list(item.effect), list(item.target_specs), face.aura)
        return Text(list(item.effect), list(item.target_specs))

    def steps(self, index: int) -> list[Step]:
        """The steps that act on target phrase `index`: those naming it; when none does (a step
        that finds its target itself), every untargeted step of a text with one phrase."""
        named = [s for s in self.effect if s.get("target") == index]
        if named or len(self.specs) != 1:
            return named
        return [s for s in self.effect if "target" not in s and not reading(s).ventures]


# what one target gains -----------------------------------------------------------------------
def gain(
    g: GameState, seat: str, text: Text, index: int, ref: Ref, damage: int | None = None
) -> float:
    """What the text's steps on target phrase `index` gain `seat` when they name `ref`
    (negative: what they give away). `damage` is the part of divided damage `ref` gets."""
    kind, what = ref
    steps = text.steps(index)
    if kind == "player":
        return _on_player(g, seat, steps, what, damage)
    if kind == "stack":
        item = g.stack_item(what)
        if item is None:
            return 0.0
        worth = stack_worth(g, item)
        hurts = any(reading(s).hurts(s) for s in steps)
        return worth * (1 if (item.controller != seat) == hurts else -1)
    obj = g.find(what)
    if obj is None:
        return 0.0
    if obj.zone == "graveyard":
        return card_value(obj.card)
    aura = text.aura if index == 0 else None
    return _on_permanent(g, seat, steps, aura, obj, damage)


def _on_permanent(
    g: GameState, seat: str, steps: list[Step], aura: CardDef | None, obj: Obj, damage: int | None
) -> float:
    theirs = obj.controller != seat
    value = permanent_value(g, obj)
    whole = value if theirs else -value  # taking it away from its controller
    total = 0.0
    if aura is not None:
        total += aura_takes(g, seat, aura, obj) * (1 if theirs else -1)
    for s in steps:
        r = reading(s)
        if r.damage:
            if dies(g, obj, _amount(s, damage)):
                total += whole
        elif r.removes:
            total += whole if r.hurts(s) else -whole
        elif s.get("set_base") and "Creature" in chars(g, obj).types:
            total += new_base_worth(g, seat, obj, s)
        elif not held_tapped(g, obj) and (
            r.hurts(s) or not _unused_before_it_ends(g, seat, obj, s)
        ):
            total += _helped(g, seat, r.hurts(s), obj.controller, s)
        # A creature held tapped gains or loses nothing by a counter or a boost: it is in no fight.
    return total


def _unused_before_it_ends(g: GameState, seat: str, obj: Obj, step: Step) -> bool:
    """Whether a helpful change until end of turn ("gains haste", "gets +2/+0") on the seat's
    own creature, on the seat's turn, ends unused: there the creature fights only as an
    attacker, and this one won't attack: tapped and not attacking, a defender, its turn's attack
    declared without it or over, or summoning sick with no haste, the step's own counted. Medium
    gave Kick in the Door's haste to its tapped defender (Stirring Bard) with an untapped Yuan-Ti
    Fang-Blade beside it, against the scripted aggro player. Toughness answering the other
    player's spell or ability on the stack is a save, used wherever the creature is."""
    if step.get("op") != "modify" or step.get("duration", "end_of_turn") != "end_of_turn":
        return False
    if g.active != seat or obj.controller != seat or step.get("set_base"):
        return False
    if step.get("toughness", 0) > 0 and any(item.controller != seat for item in g.stack):
        return False
    if g.step in AFTER_COMBAT:
        return True
    if g.step in ATTACK_STEPS:  # attackers declared, none of them it (or none at all)
        return g.combat is None or obj.id not in g.combat.attackers
    c = chars(g, obj)
    if obj.tapped or c.cant_attack or "defender" in c.keywords:
        return True
    return obj.sick and "haste" not in c.keywords and "haste" not in step.get("keywords", ())


@dataclass(frozen=True, slots=True)
class _Attached:
    """An Aura spell as it will be once it enchants `attached_to`: what its statics' conditions,
    P/T functions and entering triggers read of their source."""

    attached_to: int
    controller: str
    zone: str = "battlefield"


def _enchanting(aura: CardDef) -> list[Static]:
    return [s for s in aura.statics if s.affects == "enchanted"]


def aura_takes(g: GameState, seat: str, aura: CardDef, obj: Obj) -> float:
    """What `seat`'s Aura spell takes from the creature `obj` by enchanting it, in `obj`'s worth
    (negative: what a helpful Aura gives it, a fifth of its worth).

    All of it when the creature dies of the Aura (toughness 0, CR 704.5f) or can never untap
    and is tapped, now or by the Aura as it enters (Ray of Frost taps a red one): it is out of
    every fight. Otherwise what its changed power, toughness and abilities take from its worth:
    keeping an untapped creature from untapping takes nothing yet, since it still blocks and
    its controller need never attack with it; the Aura waits for it to tap (a flash Aura at the
    end step of a turn it attacked). What the statics cannot say (a `harms` with no P/T
    function) reads as all of it."""
    value = permanent_value(g, obj)
    statics = _enchanting(aura)
    if not any(s.hurts for s in statics):
        return -0.2 * value
    c = chars(g, obj)
    if "Creature" not in c.types:
        return value
    src = _Attached(obj.id, seat)
    live = [s for s in statics if s.condition is None or s.condition(g, src)]
    power, toughness, keywords = c.power, c.toughness - obj.damage, c.keywords
    for s in live:
        dp, dt = s.pt_fn(g, src, obj) if s.pt_fn is not None else (s.power, s.toughness)
        power, toughness = power + dp, toughness + dt
        if s.lose_all_abilities:
            keywords = frozenset()
        if (s.harms and s.pt_fn is None) or s.cant_block:
            return value
    if toughness <= 0:
        return value
    if any(s.doesnt_untap for s in live) and (obj.tapped or _taps_as_it_enters(g, aura, src)):
        return value
    return value - creature_value(max(0, power), toughness, keywords)


def _taps_as_it_enters(g: GameState, aura: CardDef, src: _Attached) -> bool:
    """Does the Aura tap its creature as it enters (an entering trigger whose condition holds)?"""
    for t in aura.triggers:
        if t.trigger != "self_enters" or not any(reading(s).taps for s in t.effect):
            continue
        if t.intervening_if is None or t.intervening_if(g, src.controller, src):
            return True
    return False


def _on_player(g: GameState, seat: str, steps: list[Step], name: str, damage: int | None) -> float:
    total = 0.0
    for s in steps:
        r = reading(s)
        if r.damage:
            life = g.player(name).life
            lost = life_value(life) - life_value(life - _amount(s, damage))
            total += lost if name != seat else -lost
        else:
            total += _helped(g, seat, r.hurts(s), name, s)
    return total


def _helped(g: GameState, seat: str, hurts: bool, whose: str, step: Step) -> float:
    """A step that neither removes nor deals damage: what it is worth to the player it helps
    (the other player of `whose` when it hurts, `whose` when it helps), as that player's gain
    or loss."""
    helped = g.opponent(whose) if hurts else whose
    size = abs(reading(step).value(g, helped, step))
    return size if helped == seat else -size


def _amount(step: Step, damage: int | None) -> int:
    return damage if damage is not None else int(step.get("amount", 0) or 0)


def dies(g: GameState, obj: Obj, damage: int) -> bool:
    """Does `damage` destroy this permanent (a creature's toughness, a planeswalker's loyalty)?"""
    if damage <= 0:
        return False
    c = chars(g, obj)
    if "Creature" in c.types:
        return damage >= c.toughness - obj.damage and "indestructible" not in c.keywords
    if "Planeswalker" in c.types:
        return damage >= obj.counters.get("loyalty", 0)
    return False


def stack_worth(g: GameState, item: StackItem) -> float:
    """What a spell or ability on the stack is worth to its controller if it resolves: the
    permanent a permanent spell becomes, what the steps of any other are worth."""
    if item.kind == "spell" and item.card is not None and not item.adventure:
        card = item.card.card
        if "Creature" in card.types and card.power is not None:
            return creature_value(card.power, card.toughness or 0, card.keywords, card)
        if "Planeswalker" in card.types:
            return 3.0 + 0.6 * (card.loyalty or 0)
        if card.types & {"Artifact", "Enchantment"}:
            return 1.5 + 0.3 * card.mana_value
    return max(0.0, sum(step_worth(g, item.controller, s) for s in item.effect))


def step_worth(g: GameState, seat: str, step: Step) -> float:
    """What a step is worth to the player whose effect it is: its reading's worth, a venture
    what the room it enters is worth."""
    r = reading(step)
    if r.ventures:
        return venture_value(g, seat, undercity=bool(step.get("undercity")))
    return r.value(g, seat, step)


# choosing targets ----------------------------------------------------------------------------
def ranked(g: GameState, seat: str, text: Text, index: int, refs: list[Ref]) -> list[Ref]:
    """The targets best first: the greatest gain; among equal gains the more valuable thing
    when it gains (the better creature to pump or to remove), the less valuable when it gives
    away."""

    def key(ref: Ref) -> tuple[float, float]:
        g_ = gain(g, seat, text, index, ref)
        obj = g.permanent(ref[1]) if ref[0] == "obj" else None
        value = permanent_value(g, obj) if obj is not None else 0.0
        return (round(g_, 6), value if g_ > 0 else -value)

    return sorted(refs, key=key, reverse=True)


def choose(
    g: GameState, seat: str, text: Text, index: int, refs: list[Ref], low: int, high: int
) -> list[Ref]:
    """The targets for one phrase: every one that gains, best first, up to `high`; when fewer
    than `low` gain, the least bad ones to make up the number."""
    order = ranked(g, seat, text, index, refs)
    picks = [r for r in order if gain(g, seat, text, index, r) > 0][:high]
    if len(picks) < low:
        picks = order[:low]
    return picks


@dataclass(frozen=True, slots=True)
class Division:
    value: float
    refs: list[Ref]
    split: list[int]
    hits: bool  # it kills something of the other player's or is lethal


def best_division(
    g: GameState, seat: str, text: Text, index: int, refs: list[Ref], total: int, most: int
) -> Division:
    """The targets (at most `most`) and the split of `total` damage among them that gain most,
    fewer targets first among equals. Only targets that gain with the whole amount are tried:
    one's own things and a creature too big to die never gain."""
    useful = [r for r in refs if gain(g, seat, text, index, r, total) > 0]
    best = Division(0.0, [], [], False)
    for k in range(1, min(most, len(useful), total) + 1):
        for combo in combinations(useful, k):
            for split in _compositions(total, k):
                value = sum(
                    gain(g, seat, text, index, r, n) for r, n in zip(combo, split, strict=True)
                )
                if value > best.value + 1e-9:
                    hits = any(_hits(g, seat, r, n) for r, n in zip(combo, split, strict=True))
                    best = Division(value, list(combo), list(split), hits)
    return best


def division_value(
    g: GameState, seat: str, text: Text, index: int, refs: list[Ref], split: list[int]
) -> float:
    return sum(gain(g, seat, text, index, r, n) for r, n in zip(refs, split, strict=False))


def _hits(g: GameState, seat: str, ref: Ref, damage: int) -> bool:
    kind, what = ref
    if kind == "player":
        return what != seat and damage >= g.player(what).life
    obj = g.permanent(what) if kind == "obj" else None
    return obj is not None and obj.controller != seat and dies(g, obj, damage)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write `total` as `parts` positive whole numbers, in order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


# casting -----------------------------------------------------------------------------------
def is_threat(g: GameState, seat: str, obj: Obj) -> bool:
    """Is this worth a removal spell: a creature that can hurt the seat (power, not a defender)
    and is worth a threat's value, or any that can hurt it when its life is low, when nothing
    better can come (the other hand is empty), or when the seat has no creature to stop the
    other side's and their power kills it within `UNOPPOSED_TURNS` (a playtest's Hard, with no
    creature and 12 life against two 2/1s, cast Plate Armor with nothing to wear it and kept
    Precipitous Drop); a planeswalker or another permanent always."""
    c = chars(g, obj)
    if "Creature" not in c.types:
        return True
    if c.power <= 0 or "defender" in c.keywords:
        return False
    if lasting_value(g, obj) >= THREAT:
        return True
    if not any("Creature" in chars(g, x).types for x in g.controlled(seat)):
        power = sum(
            max(0, x.power)
            for o in g.controlled(obj.controller)
            if "Creature" in (x := chars(g, o)).types and "defender" not in x.keywords
        )
        if g.player(seat).life <= UNOPPOSED_TURNS * power:
            return True
    return g.player(seat).life <= LOW_LIFE or not g.player(obj.controller).hand


def _removes(text: Text, index: int) -> bool:
    """Does the phrase take a permanent away (destroy, damage, an Aura that hurts)?"""
    if index == 0 and text.aura is not None and any(s.hurts for s in _enchanting(text.aura)):
        return True
    return any(
        reading(s).hurts(s) and (reading(s).removes or reading(s).damage) for s in text.steps(index)
    )


def is_counterspell(face: CardDef) -> bool:
    """A spell with a step that hurts a target on the stack."""
    text = Text.of_face(face)
    return any(
        TARGET_KINDS[spec.kind][0] == "stack" and any(reading(s).hurts(s) for s in text.steps(i))
        for i, spec in enumerate(text.specs)
    )


def worth_casting(g: GameState, seat: str, face: CardDef, *, card_lost: bool = False) -> bool:
    """Is casting `face` now, with the best targets it can have, worth the card (the module's
    docstring)? A spell without targets, or one that targets the stack, is not judged here.
    `card_lost`: the card is gone at the end of the turn unless cast now (exiled with a
    permission that ends with this turn), so the cast spends no card: anything it gains is
    worth it, and no removal is kept for a threat that may come later."""
    if "Legendary" in face.supertypes and any(x.name == face.name for x in g.controlled(seat)):
        return False  # the legend rule would put one of the two into the graveyard (CR 704.5j)
    returned = _returned_as_it_enters(g, seat, face)
    if returned is not None:
        # Back in hand as it enters (Acererak): the cast spends mana, not the card, and does
        # what the trigger's other steps do. Nothing, with the venture stopped (Keen-Eared
        # Sentry), and the mana is gone for nothing.
        return sum(step_worth(g, seat, s) for s in returned) > 0
    text = Text.of_face(face)
    if not text.specs or any(TARGET_KINDS[s.kind][0] == "stack" for s in text.specs):
        return True
    targeted = 0.0
    chosen: set[Ref] = set()
    for i, spec in enumerate(text.specs):
        refs = candidates(g, spec.kind, seat, exclude=chosen if spec.other else None)
        if spec.divided:
            division = best_division(g, seat, text, i, refs, spec.divided, spec.max)
            if not division.hits:
                return False  # divided damage kills something or goes face for lethal
            picks, value = division.refs, division.value
        else:
            picks = choose(g, seat, text, i, refs, spec.min, spec.max)
            value = sum(gain(g, seat, text, i, r) for r in picks)
            if (
                value > 0
                and not card_lost
                and _removes(text, i)
                and _at_permanents(g, picks)
                and not _aims_at_threat(g, seat, picks)
            ):
                value = 0.0  # removal is kept for a threat
        chosen.update(picks)
        targeted += value
    if targeted > 0:
        return True
    rest = sum(step_worth(g, seat, s) for s in text.effect if "target" not in s)
    rest += sum(step_worth(g, seat, s) for s in _enter_steps(g, seat, face))
    return targeted + rest > (0.0 if card_lost else card_value(face))


def harms_its_target(face: CardDef) -> bool:
    """A spell that hurts what it targets: a step of it, or an Aura whose statics hurt the
    creature it enchants (Precipitous Drop)."""
    text = Text.of_face(face)
    if text.aura is not None and any(s.hurts for s in _enchanting(text.aura)):
        return True
    return any(reading(s).hurts(s) for s in face.spell)


def _enter_steps(g: GameState, seat: str, face: CardDef) -> list[Step]:
    """The untargeted steps of a permanent spell's own enter triggers that would go on the stack
    (Precipitous Drop's venture): part of what casting it does."""
    return [
        s
        for t in face.triggers
        if t.trigger == "self_enters"
        and not t.targets
        and (t.intervening_if is None or t.intervening_if(g, seat, None))
        and not any(reading(x).returns_source for x in t.effect)
        for s in t.effect
    ]


def _returned_as_it_enters(g: GameState, seat: str, face: CardDef) -> list[Step] | None:
    """The other steps of an enter trigger that returns the permanent to its owner's hand, when
    that trigger would go on the stack now (its intervening "if" holds, CR 603.4); None when
    the permanent would stay."""
    for t in face.triggers:
        if t.trigger != "self_enters" or not any(reading(s).returns_source for s in t.effect):
            continue
        if t.intervening_if is not None and not t.intervening_if(g, seat, None):
            continue
        return [s for s in t.effect if not reading(s).returns_source]
    return None


def pointless(g: GameState, seat: str, face: CardDef, *, card_lost: bool = False) -> bool:
    """A cast never worth its card now: a counterspell with nothing worth countering, any other
    spell that `worth_casting` refuses (`card_lost`: as there)."""
    if is_counterspell(face):
        return not counter_worth_casting(g, seat, face)
    return not worth_casting(g, seat, face, card_lost=card_lost)


def lost_unless_cast(g: GameState, obj: Obj) -> bool:
    """A card in exile whose permission to play it ends with this turn (Caves of Chaos
    Adventurer's, Runestone Caverns'): not cast now, it is lost."""
    return obj.zone == "exile" and obj.play_until is not None and obj.play_until[1] <= g.turn


def _at_permanents(g: GameState, picks: list[Ref]) -> bool:
    """Whether the picks name a permanent: only there is a step that takes a thing away removal
    (Fates' Reversal returns a card from its caster's graveyard to their hand: nobody's threat,
    and a card it would pass with read as removal kept for one)."""
    return any(kind == "obj" and g.permanent(what) is not None for kind, what in picks)


def _aims_at_threat(g: GameState, seat: str, picks: list[Ref]) -> bool:
    for kind, what in picks:
        if kind == "player":
            return True
        obj = g.permanent(what) if kind == "obj" else None
        if obj is not None and obj.controller != seat and is_threat(g, seat, obj):
            return True
    return False


def worth_countering(g: GameState, seat: str, item: StackItem) -> bool:
    """Is the other player's spell or ability worth a counterspell: a spell that becomes a
    threat (a planeswalker, a creature worth THREAT), an ability worth more than about a card,
    or anything worth something when nothing better can come (the other hand is empty)."""
    if item.controller == seat:
        return False
    worth = stack_worth(g, item)
    need = THREAT if item.kind == "spell" else ABILITY_WORTH
    return worth >= need or (worth > 0 and not g.player(item.controller).hand)


def counter_worth_casting(g: GameState, seat: str, face: CardDef) -> bool:
    """May this counterspell name something worth countering now?"""
    for spec in face.spell_targets:
        if TARGET_KINDS[spec.kind][0] != "stack":
            continue
        for _, sid in candidates(g, spec.kind, seat):
            item = g.stack_item(sid)
            if item is not None and worth_countering(g, seat, item):
                return True
    return False
