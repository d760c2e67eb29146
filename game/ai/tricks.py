"""Combat tricks: a spell or ability whose every step only changes a creature's fight for this
turn (its operations read as a `Boost`: "gets +2/+0 and gains first strike until end of turn",
"gains menace and haste") is played where it changes the outcome, never where it does nothing:

- once blocks are known (the declare blockers step, on either side of the attack), on the
  creature of one's own where it changes most (one that survives, a blocker or attacker that
  now dies, or damage through that is lethal), measured with the combat calculator;
- before the attack in one's own first main phase only when it makes the attack lethal (haste
  for a creature that came in this turn, menace against the only blocker), or, when the other
  player holds the initiative, when it lets a creature past every blocker to take it back;
- never in a main phase otherwise, at an end step, or with something on the stack.

`priority.py` asks `combat_trick` for a play and leaves every other trick out of its own
choices; the targets rule asks `trick_targets` for a trick's targets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from game.engine.carddef import Step, TargetSpec
from game.engine.combat import can_attack, can_block
from game.engine.continuous import chars
from game.engine.decisions import Decision, Option
from game.engine.ops import Boost, reading
from game.engine.state import GameState, Obj, StackItem

from .answers import Answer
from .blocks import worst_order
from .combat_math import Body, Outcome, fight, least_damage_through, resolve
from .features import body
from .habits import habits

LIFE_POINT = 0.3  # a point of life against creature values (features.life_value, mid-game)
LETHAL = 1000.0
WORTH_IT = 1.5  # about a creature saved or killed; a point or two of damage is not worth a card
# Taking the initiative back from the other player (block_problem.INITIATIVE, before the rooms).
INITIATIVE_BACK = 3.0
# What a fight is worth to the seat with the creatures in it as given (combat_after_blocks).
FightWorth = Callable[[dict[int, Body]], float]


def effect_of(g: GameState, o: Option) -> tuple[list[Step], list[TargetSpec], Obj] | None:
    """The effect, target phrases and source of a priority option that casts a spell or
    activates an ability, or None for anything else."""
    kind = o.id.split(":")[0]
    if kind not in ("cast", "castadv", "escape", "act") or not o.objs:
        return None
    obj = g.find(o.objs[0])
    if obj is None:
        return None
    if kind == "act":
        ability = obj.card.activated[int(o.id.split(":")[2])]
        return list(ability.effect), list(ability.targets), obj
    face = obj.card.adventure if kind == "castadv" and obj.card.adventure else obj.card
    return list(face.spell), list(face.spell_targets), obj


def boosts(effect: Sequence[Step]) -> dict[int, Boost] | None:
    """The boost each target gets, by target index, when the effect is nothing but boosts to its
    targets (a combat trick); None otherwise."""
    out: dict[int, Boost] = {}
    for step in effect:
        boost = reading(step).boosts(step)
        target = step.get("target")
        if boost is None or not isinstance(target, int):
            return None
        old = out.get(target, Boost())
        out[target] = Boost(
            old.power + boost.power,
            old.toughness + boost.toughness,
            (*old.keywords, *boost.keywords),
        )
    return out or None


def is_trick(g: GameState, o: Option) -> bool:
    found = effect_of(g, o)
    return found is not None and boosts(found[0]) is not None


def combat_trick(g: GameState, seat: str, options: Sequence[Option]) -> str | None:
    """The trick worth playing now, if any (the best one). Before the attack, one that does not
    win the game now waits while a creature spell can be cast: the new creature may be the
    better target (Hard gave Stirring Bard's menace and haste to a Dungeon Crawler, then cast
    Yuan-Ti Fang-Blade, which could have had them and attacked; a playtest)."""
    if g.stack:
        return None
    best: tuple[float, str] | None = None
    for o in options:
        found = effect_of(g, o)
        if found is None:
            continue
        effect, specs, source = found
        plan = _best_plan(g, seat, effect, specs, source)
        if plan is not None and plan[0] >= WORTH_IT and (best is None or plan[0] > best[0]):
            best = (plan[0], o.id)
    if best is not None and best[0] < LETHAL and _creature_to_cast_first(g, seat, options):
        return None
    return best[1] if best else None


def _creature_to_cast_first(g: GameState, seat: str, options: Sequence[Option]) -> bool:
    if g.active != seat or g.step != "precombat_main":
        return False
    for o in options:
        if o.id.startswith("cast:") and o.objs:
            obj = g.find(o.objs[0])
            if obj is not None and "Creature" in obj.card.types:
                return True
    return False


def trick_targets(g: GameState, seat: str, d: Decision) -> Answer | None:
    """The targets of a trick of the seat's being cast now: where it changes the fight most.
    None when `d` is not about a trick, or no plan is found (the targets rule decides)."""
    item = _item_for(g, seat, d)
    if item is None:
        return None
    source = g.find(item.source_id) if item.source_id is not None else None
    if source is None and item.card is not None:
        source = item.card
    if source is None:
        return None
    plan = _best_plan(g, seat, item.effect, item.target_specs, source)
    if plan is None:
        return None
    index = len(item.targets)
    want = plan[1][index] if index < len(plan[1]) else None
    for opt in d.options:
        if opt.data == ("obj", want):
            return [opt.id] if d.multi else opt.id
    return [] if d.multi and d.min_count == 0 else None


def _item_for(g: GameState, seat: str, d: Decision) -> StackItem | None:
    name = d.prompt.split(": ", 1)[0]
    for item in reversed(g.stack):
        if item.controller == seat and item.name == name:
            return item if boosts(item.effect) is not None else None
    return None


def _best_plan(
    g: GameState, seat: str, effect: Sequence[Step], specs: Sequence[TargetSpec], source: Obj
) -> tuple[float, list[int | None]] | None:
    """The gain of the best targets for a trick now, and those targets (an object id, or None
    for an optional target left out, by target index)."""
    given = boosts(effect)
    if given is None:
        return None
    if g.step == "declare_blockers" and g.combat is not None and g.combat.attackers:
        return _after_blocks(g, seat, given, specs)
    main = g.active == seat and g.step in ("precombat_main", "beginning_of_combat")
    if main and (g.combat is None or not g.combat.declared):
        return _before_attack(g, seat, given, specs, source)
    return None


def combat_after_blocks(g: GameState, seat: str) -> tuple[dict[int, Body], FightWorth]:
    """The creatures in the combat under way (blocks known) as the combat calculator takes them,
    by id, and what the fight is worth to the seat with any of them changed or taken out (a
    body left out of the mapping is gone: an attacker it blocked deals no damage)."""
    c = g.combat
    assert c is not None
    attacking = g.active == seat
    bodies = {o.id: body(g, o) for o in g.battlefield if o.id in c.attackers or o.id in c.blocking}
    mine = [i for i in bodies if g.permanent(i).controller == seat]  # type: ignore[union-attr]
    opp = g.opponent(seat)
    lives = (g.player(seat).life, g.player(opp).life)

    def score(bs: dict[int, Body]) -> float:
        attackers, blocks = [], {}
        for aid in c.attackers:
            if aid not in bs:
                continue
            ids = c.blockers.get(aid)
            group = [bs[i] for i in ids or () if i in bs]
            if ids and not group and not bs[aid].has("trample"):
                continue  # blocked, its blockers gone: it deals no damage (CR 510.1c)
            attackers.append(bs[aid])
            if group:
                blocks[aid] = group if attacking else worst_order(bs[aid], group)
        return _score(resolve(attackers, blocks), bs, mine, attacking, lives)

    return bodies, score


def _after_blocks(
    g: GameState, seat: str, given: dict[int, Boost], specs: Sequence[TargetSpec]
) -> tuple[float, list[int | None]] | None:
    bodies, score = combat_after_blocks(g, seat)
    mine = [i for i in bodies if g.permanent(i).controller == seat]  # type: ignore[union-attr]
    base = score(bodies)
    chosen: list[int | None] = []
    gain = 0.0
    current = dict(bodies)
    for index in range(len(specs)):
        boost = given.get(index)
        best: tuple[float, int | None] = (0.0, None)
        for oid in sorted(mine):
            if oid in chosen or boost is None:
                continue
            tried = dict(current)
            tried[oid] = _boosted(current[oid], boost)
            delta = score(tried) - (base + gain)
            if delta > best[0] + 1e-9:
                best = (delta, oid)
        if best[1] is None:
            if specs[index].min > 0:
                return None  # a required target where it helps nowhere: not worth a card
            chosen.append(None)
            continue
        chosen.append(best[1])
        gain += best[0]
        current[best[1]] = _boosted(current[best[1]], given[index])
    return gain, chosen


def _score(
    out: Outcome,
    bodies: dict[int, Body],
    mine: list[int],
    attacking: bool,
    lives: tuple[int, int],
) -> float:
    """The combat's worth to the seat: creatures lost on each side, and life (lethal above all)."""
    own = [b for i, b in bodies.items() if i in mine]
    other = [b for i, b in bodies.items() if i not in mine]
    s = out.lost(other) - out.lost(own)
    my_life, their_life = lives
    if attacking:
        s += LIFE_POINT * (out.to_defender + out.attacker_gains - out.defender_gains)
        if out.to_defender - out.defender_gains >= their_life:
            s += LETHAL
    else:
        s -= LIFE_POINT * (out.to_defender + out.attacker_gains - out.defender_gains)
        if out.to_defender - out.defender_gains >= my_life:
            s -= LETHAL
    return s


def _before_attack(
    g: GameState,
    seat: str,
    given: dict[int, Boost],
    specs: Sequence[TargetSpec],
    source: Obj,
) -> tuple[float, list[int | None]] | None:
    """A boost before the attack: only for the one that makes attacking with everything
    lethal (a trick's later uses are better after blocks)."""
    opp = g.opponent(seat)
    boost = given.get(0)
    if boost is None:
        return None
    blockers = [o for o in g.controlled(opp) if _untapped_creature(g, o)]
    objs = {o.id: o for o in blockers}
    # The source taps to pay (an ability with {T}): it can't attack then.
    ready = [o for o in g.controlled(seat) if can_attack(g, o) and o is not source]
    theirs = [body(g, o) for o in blockers]
    objs.update((o.id, o) for o in g.controlled(seat))

    def legal(a: Body, b: Body) -> bool:
        return can_block(g, objs[b.id], objs[a.id])

    attackers = {o.id: body(g, o) for o in ready}
    life = g.player(opp).life
    if least_damage_through(list(attackers.values()), theirs, legal) >= life:
        return None  # lethal already: nothing to spend
    for o in sorted(g.controlled(seat), key=lambda x: x.id):
        if o is source or not _untapped_creature(g, o):
            continue
        c = chars(g, o)
        if o.id not in attackers and not (o.sick and "haste" in boost.keywords):
            continue
        if "defender" in c.keywords or c.cant_attack:
            continue
        tried = dict(attackers)
        tried[o.id] = _boosted(body(g, o), boost)
        if least_damage_through(list(tried.values()), theirs, legal) >= life:
            return LETHAL, [o.id] + [None] * (len(specs) - 1)
    # Against a player who never blocks (habits.py) the attack connects without the boost.
    if g.player(opp).initiative and not habits(g, opp).never_blocks:
        taker = _initiative_taker(g, seat, boost, source, theirs, legal)
        if taker is not None:
            return INITIATIVE_BACK, [taker] + [None] * (len(specs) - 1)
    return None


def _initiative_taker(
    g: GameState,
    seat: str,
    boost: Boost,
    source: Obj,
    theirs: list[Body],
    legal: Callable[[Body, Body], bool],
) -> int | None:
    """A creature that no blocker could stop before the boost and none can after it (menace
    against a lone blocker, flying past no flyer): its combat damage takes the initiative back
    (CR 725.2), and an attacker nothing can block is one the seat's attack rule sends. Of
    several, the one whose boost lets the whole attack deal most: haste for a creature just
    cast adds an attacker (Stirring Bard's went to a Crawler that could attack anyway, while
    Yuan-Ti Fang-Blade sat out; a playtest)."""
    ready = {o.id: body(g, o) for o in g.controlled(seat) if can_attack(g, o) and o is not source}
    best: tuple[int, int] | None = None  # (the attack's damage through, the creature)
    for o in sorted(g.controlled(seat), key=lambda x: x.id):
        if o is source or not _untapped_creature(g, o):
            continue
        if not (can_attack(g, o) or (o.sick and "haste" in boost.keywords)):
            continue
        c = chars(g, o)
        if "defender" in c.keywords or c.cant_attack:
            continue
        plain, boosted = body(g, o), _boosted(body(g, o), boost)
        whole = fight(boosted).to_defender
        stopped_now = least_damage_through([plain], theirs, legal) == 0
        if whole > 0 and stopped_now and least_damage_through([boosted], theirs, legal) >= whole:
            through = least_damage_through(list({**ready, o.id: boosted}.values()), theirs, legal)
            if best is None or through > best[0]:
                best = (through, o.id)
    return best[1] if best else None


def _untapped_creature(g: GameState, o: Obj) -> bool:
    return "Creature" in chars(g, o).types and not o.tapped


def _boosted(b: Body, boost: Boost) -> Body:
    return replace(
        b,
        power=b.power + boost.power,
        toughness=b.toughness + boost.toughness,
        keywords=b.keywords | frozenset(boost.keywords),
    )


__all__ = [
    "boosts",
    "combat_after_blocks",
    "combat_trick",
    "is_trick",
    "effect_of",
    "trick_targets",
]
