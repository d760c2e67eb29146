"""Paying costs: mana abilities as sources, automatic payment, tapping by hand (CR 601.2g-h, 605).

Automatic payment spends the mana pool first, then chooses, among the legal ways to tap and
sacrifice sources for the rest, one that leaves the most of the player's hand castable this
turn (`mana.best_payment`: the land for the turn counted while it is still to come), lands
before other permanents and Treasures last when that is all the same (docs/scenarios.md, "Which
choices are asked"). Tapping by hand is a mana ability activated with priority before casting
(CR 605.3a): the mana waits in the pool, which the payment spends first.
"""

from __future__ import annotations

from .carddef import Activated
from .continuous import chars
from .mana import ManaCost, ManaSource, best_payment, plan_payment
from .state import LANDS_PER_TURN, MAIN_STEPS, GameState, Obj
from .zones import sacrifice


def can_use_tap_ability(g: GameState, obj: Obj) -> bool:
    """{T} abilities of creatures need the creature to have been under control since the
    start of the turn, unless it has haste (CR 302.6)."""
    if obj.tapped:
        return False
    if not obj.sick:
        return True
    c = chars(g, obj)
    return not (obj.sick and "Creature" in c.types and "haste" not in c.keywords)


def mana_ability_of(obj: Obj) -> tuple[int, Activated] | None:
    for i, a in enumerate(obj.card.activated):
        if a.is_mana_ability:
            return i, a
    return None


def mana_sources(g: GameState, player: str, exclude: int | None = None) -> list[ManaSource]:
    memo = g.sources_memo
    if memo is not None:
        if player not in memo:
            memo[player] = _mana_sources(g, player)
        return [s for s in memo[player] if s.obj_id != exclude]
    return _mana_sources(g, player, exclude)


def _mana_sources(g: GameState, player: str, exclude: int | None = None) -> list[ManaSource]:
    out = []
    for o in g.battlefield:
        if o.controller != player or o.id == exclude:
            continue
        found = mana_ability_of(o)
        if found is None:
            continue
        index, ability = found
        if ability.tap and not can_use_tap_ability(g, o):
            continue
        if ability.mana is not None:
            continue  # mana abilities with a mana cost are not used for automatic payment
        rank = 2 if ability.sacrifice_self else (0 if "Land" in o.card.types else 1)
        produces, amount = mana_output(g, o, ability)
        out.append(ManaSource(o.id, o.name, produces, amount, rank, index))
    return out


def mana_output(g: GameState, obj: Obj, ability: Activated) -> tuple[str, int]:
    hook = obj.card.extra.get("mana_output")
    if hook is not None:
        return hook(g, obj)
    return ability.produces, ability.amount


def can_pay(g: GameState, player: str, cost: ManaCost | None, exclude: int | None = None) -> bool:
    if cost is None or cost.mana_value == 0:
        return True
    memo = g.sources_memo
    key = ("#can_pay", player, cost, exclude)
    if memo is not None and key in memo:
        return memo[key]
    p = g.player(player)
    result = plan_payment(cost, p.pool, mana_sources(g, player, exclude)) is not None
    if memo is not None:
        memo[key] = result
    return result


def activate_mana_ability(g: GameState, obj: Obj, index: int, color: str | None = None) -> None:
    """Resolve a mana ability at once; it doesn't use the stack (CR 605.3)."""
    ability = obj.card.activated[index]
    produces, amount = mana_output(g, obj, ability)
    if ability.tap:
        obj.tapped = True
    made = color if color is not None and color in produces else produces[0]
    p = g.player(obj.controller)
    p.pool[made] = p.pool.get(made, 0) + amount
    if ability.sacrifice_self:
        sacrifice(g, obj)


def _hand_costs(obj: Obj) -> tuple[ManaCost, ...]:
    """The mana costs a card in hand may be cast for (its adventure too); a land has none."""
    faces = [obj.card] + ([obj.card.adventure] if obj.card.adventure is not None else [])
    return tuple(f.cost for f in faces if f.cost is not None and "Land" not in f.types)


def land_drop(g: GameState, player: str) -> list[ManaSource]:
    """The sources the player may still add this turn by playing a land from its hand: one
    for each land there with a mana ability, while its land for the turn is still to come in a
    main phase of its own turn (CR 305.2; the stack may hold the spell being paid for, which
    resolves first). Only one of them can be played; each stands for one way to play on."""
    p = g.player(player)
    if g.active != player or g.step not in MAIN_STEPS or p.lands_played >= LANDS_PER_TURN:
        return []
    out = []
    for o in p.hand:
        found = mana_ability_of(o) if "Land" in o.card.types else None
        if found is not None and found[1].tap and found[1].mana is None:
            produces, amount = found[1].produces, found[1].amount
            out.append(ManaSource(o.id, o.name, produces, amount, 0, found[0]))
    return out


def pay_mana(g: GameState, player: str, cost: ManaCost | None, exclude: int | None = None) -> bool:
    """Pay `cost` automatically; returns False (and changes nothing) when it can't be paid."""
    if cost is None or cost.mana_value == 0:
        return True
    p = g.player(player)
    hand = [faces for faces in map(_hand_costs, p.hand) if faces]
    sources = mana_sources(g, player, exclude)
    plan = best_payment(cost, p.pool, sources, hand, land_drop(g, player))
    if plan is None:
        return False
    _, used = plan
    for source, color in used:
        obj = g.permanent(source.obj_id)
        assert obj is not None
        activate_mana_ability(g, obj, source.ability_index, color)
    # Everything needed is in the pool now: spend it.
    for color, n in cost.colored:
        p.pool[color] -= n
    generic = cost.generic
    for color in "CWUBRG":
        take = min(generic, p.pool.get(color, 0))
        if take:
            p.pool[color] -= take
            generic -= take
    p.pool = {c: n for c, n in p.pool.items() if n > 0}
    assert generic == 0, "payment plan did not cover the generic cost"
    return True
