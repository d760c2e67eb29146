"""Characteristics after continuous effects (CR 613): P/T, abilities, types.

Layers used here: 4 (types), 6 (abilities), 7a-7c (P/T: base, set, modify and counters).
Within a layer, effects apply in timestamp order; static abilities use their source's timestamp.
"""

from __future__ import annotations

from dataclasses import dataclass

from .carddef import CardDef, Static
from .state import ContinuousEffect, GameState, Obj


@dataclass(slots=True, frozen=True)
class Chars:
    power: int
    toughness: int
    keywords: frozenset[str]
    ward: tuple[str, ...]
    types: frozenset[str]
    subtypes: tuple[str, ...]
    cant_attack: bool
    cant_be_blocked_by_walls: bool
    doesnt_untap: bool
    base_power: int
    base_toughness: int
    lost_abilities: bool
    cant_block: bool = False


def completed_any(g: GameState, player: str) -> bool:
    return bool(g.player(player).completed)


def _static_applies(g: GameState, src: Obj, affects: str, obj: Obj) -> bool:
    if affects == "self":
        return src is obj
    if affects == "creatures_you_control":
        return obj.controller == src.controller and "Creature" in obj.card.types
    if affects == "other_creatures_you_control":
        return obj is not src and obj.controller == src.controller and "Creature" in obj.card.types
    if affects in ("equipped", "enchanted"):
        return src.attached_to == obj.id
    return False


def chars(g: GameState, obj: Obj) -> Chars:
    """Compute `obj`'s current characteristics."""
    memo = g.chars_memo
    if memo is not None:
        found = memo.get(obj.id)
        if found is None:
            found = memo[obj.id] = _compute_chars(g, obj)
        return found
    return _compute_chars(g, obj)


def _static_sources(g: GameState) -> list[Obj]:
    """Permanents with static abilities (computed once per read-only section)."""
    memo = g.sources_memo
    if memo is not None:
        found = memo.get("#statics")
        if found is None:
            found = memo["#statics"] = [o for o in g.battlefield if o.card.statics]
        return found
    return [o for o in g.battlefield if o.card.statics]


def _compute_chars(g: GameState, obj: Obj) -> Chars:
    card = obj.card
    # Collect (timestamp, kind, payload) from statics of permanents and from resolved effects.
    mods: list[tuple[int, Static | ContinuousEffect, Obj | None]] = []
    if obj.zone == "battlefield":
        for src in _static_sources(g):
            for st in src.card.statics:
                if st.affects == "you" or not _static_applies(g, src, st.affects, obj):
                    continue
                if st.condition is not None and not st.condition(g, src):
                    continue
                if _abilities_lost_cheap(g, src):
                    break
                mods.append((src.timestamp, st, src))
        for e in g.effects:
            if e.affects == obj.id:
                mods.append((e.timestamp, e, None))
        if "Creature" in card.types:
            # An emblem's static ability (CR 114.4), in timestamp order with the rest: the
            # emblem's timestamp is its creation (CR 613.7, 613.7d), so it is newer than a "loses
            # all abilities" applied before it (Ray of Frost) and older than one applied after.
            for _, st, timestamp in g.player(obj.controller).emblems:
                mods.append((timestamp, st, obj))
        if not mods and not obj.counters:
            return _base_chars(card)
    mods.sort(key=lambda m: m[0])
    keywords = set(card.keywords)
    ward = list(card.ward)
    types = set(card.types)
    subtypes = tuple(card.subtypes)
    base_p, base_t = card.power or 0, card.toughness or 0
    dp = dt = 0
    cant_attack = False
    walls = False
    doesnt_untap = False
    cant_block = False
    lost = False
    for _, m, src in mods:
        if isinstance(m, Static):
            if m.lose_all_abilities:
                keywords.clear()
                ward.clear()
                lost = True
            keywords.update(m.keywords)
            ward.extend(m.ward)
            dp += m.power
            dt += m.toughness
            if m.pt_fn is not None:
                a, b = m.pt_fn(g, src, obj)
                dp += a
                dt += b
            doesnt_untap = doesnt_untap or m.doesnt_untap
            cant_block = cant_block or m.cant_block
        elif isinstance(m, ContinuousEffect):
            if m.lose_all_abilities:
                keywords.clear()
                ward.clear()
                lost = True
            types.update(m.add_types)
            if m.set_subtypes is not None:
                subtypes = tuple(m.set_subtypes)
            keywords.update(m.keywords)
            if m.protection_from_creatures:
                keywords.add("protection from creatures")
            if m.set_base is not None:
                base_p, base_t = m.set_base
            dp += m.power
            dt += m.toughness
            cant_attack = cant_attack or m.cant_attack
            walls = walls or m.cant_block_by_walls
    plus = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
    return Chars(
        power=base_p + dp + plus,
        toughness=base_t + dt + plus,
        keywords=frozenset(keywords),
        ward=tuple(ward),
        types=frozenset(types),
        subtypes=subtypes,
        cant_attack=cant_attack,
        cant_be_blocked_by_walls=walls,
        doesnt_untap=doesnt_untap,
        base_power=base_p,
        base_toughness=base_t,
        lost_abilities=lost,
        cant_block=cant_block,
    )


def abilities_can_be_lost(g: GameState) -> bool:
    """Whether anything on the battlefield or any effect removes abilities (Ray of Frost); when
    nothing does, callers skip computing characteristics just to ask."""
    memo = g.sources_memo
    if memo is not None and "#loss" in memo:
        return memo["#loss"]
    found = any(e.lose_all_abilities for e in g.effects) or any(
        st.lose_all_abilities for o in g.battlefield for st in o.card.statics
    )
    if memo is not None:
        memo["#loss"] = found
    return found


def _abilities_lost_cheap(g: GameState, src: Obj) -> bool:
    """True when an effect made `src` lose all abilities, so its statics don't apply (layer 6)."""
    for e in g.effects:
        if e.affects == src.id and e.lose_all_abilities:
            return True
    for other in g.battlefield:
        if other.attached_to != src.id:
            continue
        for st in other.card.statics:
            if st.lose_all_abilities and (st.condition is None or st.condition(g, other)):
                return True
    return False


_BASE_CACHE: dict[int, Chars] = {}


def _base_chars(card: CardDef) -> Chars:
    """Printed characteristics; shared because CardDefs never change."""
    cached = _BASE_CACHE.get(id(card))
    if cached is None:
        cached = Chars(
            power=card.power or 0,
            toughness=card.toughness or 0,
            keywords=card.keywords,
            ward=tuple(card.ward),
            types=card.types,
            subtypes=tuple(card.subtypes),
            cant_attack=False,
            cant_be_blocked_by_walls=False,
            doesnt_untap=False,
            base_power=card.power or 0,
            base_toughness=card.toughness or 0,
            lost_abilities=False,
        )
        _BASE_CACHE[id(card)] = cached
    return cached


def has_keyword(g: GameState, obj: Obj, keyword: str) -> bool:
    return keyword in chars(g, obj).keywords


def is_creature(g: GameState, obj: Obj) -> bool:
    return "Creature" in obj.card.types or (
        obj.zone == "battlefield" and "Creature" in chars(g, obj).types
    )


def player_has_hexproof(g: GameState, player: str) -> bool:
    """ "You have hexproof" (Keen-Eared Sentry) and effects that give a player hexproof."""
    for src in g.battlefield:
        if src.controller != player or _abilities_lost_cheap(g, src):
            continue
        for st in src.card.statics:
            applies = st.condition is None or st.condition(g, src)
            if st.affects == "you" and st.player_hexproof and applies:
                return True
    return any(e.player == player and e.player_hexproof for e in g.effects)


def end_effects(g: GameState, duration: str, player: str | None = None) -> None:
    """Drop effects whose duration is over (CR 514.2 end of turn; "until your next turn")."""
    g.effects = [
        e
        for e in g.effects
        if not (e.duration == duration and (player is None or e.controller == player))
    ]
