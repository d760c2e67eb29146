"""Target phrases: what each may name, and whether a chosen target is still legal (CR 115, 608.2b).

A target is a reference: ("player", name), ("obj", object id) or ("stack", stack item id).
Object ids change when an object changes zones (CR 400.7), so a target that left its zone is
illegal by construction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from .continuous import chars, player_has_hexproof
from .state import GameState, Obj, StackItem

Ref = tuple[str, Any]


def _creature(g: GameState, o: Obj) -> bool:
    return "Creature" in chars(g, o).types


def _perm_kind(pred: Callable[[GameState, Obj, str], bool]) -> tuple[str, Callable]:
    return ("permanent", pred)


# The party's creature types (CR 700.8): Seasoned Dungeoneer's target.
PARTY_TYPES = frozenset({"Cleric", "Rogue", "Warrior", "Wizard"})

TARGET_KINDS: dict[str, tuple[str, Callable[..., bool]]] = {
    "creature": _perm_kind(lambda g, o, c: _creature(g, o)),
    "creature_you_control": _perm_kind(lambda g, o, c: _creature(g, o) and o.controller == c),
    "attacking_creature": _perm_kind(
        lambda g, o, c: _creature(g, o) and g.combat is not None and o.id in g.combat.attackers
    ),
    "non_angel_demon_devil_dragon_creature": _perm_kind(
        lambda g, o, c: (
            _creature(g, o)
            and not {"Angel", "Demon", "Devil", "Dragon"} & set(chars(g, o).subtypes)
        )
    ),
    "attacking_cleric_rogue_warrior_wizard": _perm_kind(
        lambda g, o, c: (
            _creature(g, o)
            and g.combat is not None
            and o.id in g.combat.attackers
            and bool(PARTY_TYPES & set(chars(g, o).subtypes))
        )
    ),
    "permanent": _perm_kind(lambda g, o, c: True),
    "player": ("player", lambda g, p, c: True),
    "opponent": ("player", lambda g, p, c: p != c),
    # "any target": a creature, a player or a planeswalker (CR 115.4)
    "any": ("any", lambda g, o, c: _creature(g, o) or "Planeswalker" in o.card.types),
    "creature_or_planeswalker_spell": (
        "stack",
        lambda g, s, c: (
            s.kind == "spell"
            and s.card is not None
            and not s.adventure
            and bool({"Creature", "Planeswalker"} & s.card.card.types)
        ),
    ),
    # Dissonant Wave: "activated or triggered ability from a noncreature source". A room
    # ability's source is a dungeon (not a creature). Decision (docs/rules-coverage.md):
    # a sourceless ability such as the initiative's has no creature source, so it qualifies.
    "ability_noncreature_source": (
        "stack",
        lambda g, s, c: s.kind == "ability" and not s.extra.get("source_is_creature", False),
    ),
    "creature_card_in_your_graveyard": (
        "graveyard_you",
        lambda g, o, c: "Creature" in o.card.types,
    ),
    "creature_card_in_a_graveyard": (
        "graveyard_any",
        lambda g, o, c: "Creature" in o.card.types,
    ),
}


def _hexproof_blocks(g: GameState, o: Obj, controller: str, from_creature: bool = False) -> bool:
    """Hexproof: can't be the target of spells or abilities an opponent controls (CR 702.11);
    protection from creatures: nor of abilities from creature sources (CR 702.16b)."""
    kw = chars(g, o).keywords
    if from_creature and "protection from creatures" in kw:
        return True
    if o.controller == controller:
        return False
    return "hexproof" in kw


def candidates(
    g: GameState,
    kind: str,
    controller: str,
    exclude: set[Ref] | None = None,
    from_creature: bool = False,
) -> list[Ref]:
    """Every legal choice for one target phrase, in a stable order."""
    memo = g.sources_memo
    if memo is not None and not exclude:
        key = ("#targets", kind, controller, from_creature)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _candidates(g, kind, controller, None, from_creature)
        return list(found)
    return _candidates(g, kind, controller, exclude, from_creature)


def _candidates(
    g: GameState, kind: str, controller: str, exclude: set[Ref] | None, from_creature: bool
) -> list[Ref]:
    zone, pred = TARGET_KINDS[kind]
    out: list[Ref] = []
    if zone in ("player", "any"):
        for p in g.players:
            if p.lost:
                continue
            if p.name != controller and player_has_hexproof(g, p.name):
                continue
            if zone == "player" and not pred(g, p.name, controller):
                continue
            out.append(("player", p.name))
    if zone in ("permanent", "any"):
        for o in g.battlefield:
            if pred(g, o, controller) and not _hexproof_blocks(g, o, controller, from_creature):
                out.append(("obj", o.id))
    if zone == "stack":
        for s in reversed(g.stack):
            if pred(g, s, controller):
                out.append(("stack", s.id))
    if zone == "graveyard_you":
        out += [("obj", o.id) for o in g.player(controller).graveyard if pred(g, o, controller)]
    if zone == "graveyard_any":
        for p in g.players:
            out += [("obj", o.id) for o in p.graveyard if pred(g, o, controller)]
    if exclude:
        out = [r for r in out if r not in exclude]
    return out


def still_legal(
    g: GameState, kind: str, ref: Ref, controller: str, from_creature: bool = False
) -> bool:
    """Recheck a target as the spell or ability resolves (CR 608.2b)."""
    zone, pred = TARGET_KINDS[kind]
    what, value = ref
    if what == "player":
        p = g.by_name.get(value)
        if p is None or p.lost or zone not in ("player", "any"):
            return False
        if value != controller and player_has_hexproof(g, value):
            return False
        return zone == "any" or pred(g, value, controller)
    if what == "stack":
        item = g.stack_item(value)
        return item is not None and zone == "stack" and pred(g, item, controller)
    o = g.find(value)
    if o is None:
        return False
    if zone in ("permanent", "any"):
        return (
            o.zone == "battlefield"
            and pred(g, o, controller)
            and not _hexproof_blocks(g, o, controller, from_creature)
        )
    if zone == "graveyard_you":
        return o.zone == "graveyard" and o.owner == controller and pred(g, o, controller)
    if zone == "graveyard_any":
        return o.zone == "graveyard" and pred(g, o, controller)
    return False


def ref_name(g: GameState, ref: Ref) -> str:
    what, value = ref
    if what == "player":
        return value
    if what == "stack":
        item = g.stack_item(value)
        return item.name if item else "(gone)"
    o = g.find(value)
    return o.name if o else "(gone)"


def with_share(name: str, amount: int | None) -> str:
    """A target's name with its share of divided damage, if it has one (CR 601.2d): the log's
    cast line and the stack word it alike ("bob (2 damage)")."""
    return name if amount is None else f"{name} ({amount} damage)"


def namesake_numbers(permanents: Iterable[tuple[int, str]]) -> dict[int, int]:
    """The number on each of one player's permanents that share a name with another of theirs
    ("#1", "#2" in battlefield order), by object id; a permanent with a name of its own has
    none. The board's cards show it, and its prompts and the log's targets use it, so they
    match."""
    listed = list(permanents)
    counts = Counter(name for _, name in listed)
    seen: Counter[str] = Counter()
    numbers: dict[int, int] = {}
    for obj_id, name in listed:
        if counts[name] > 1:
            seen[name] += 1
            numbers[obj_id] = seen[name]
    return numbers


def namesake_number(g: GameState, obj: Obj) -> int:
    """The number a permanent shows among its controller's namesakes (0: none)."""
    if obj.zone != "battlefield":
        return 0
    mine = ((o.id, o.name) for o in g.battlefield if o.controller == obj.controller)
    return namesake_numbers(mine).get(obj.id, 0)


def numbered_name(g: GameState, obj: Obj) -> str:
    """A permanent's name with the number its card shows among its controller's namesakes
    ("Goblin #2"), as the shared log names a permanent wherever two of a side could be confused."""
    n = namesake_number(g, obj)
    return f"{obj.name} #{n}" if n else obj.name


def ref_whose_name(g: GameState, ref: Ref) -> str:
    """A target as the shared log names it, with whose it is ("bob's Dungeon Crawler") and, among
    its controller's namesakes, the number its card shows ("bob's Dungeon Crawler #2"): the
    controller of a permanent or of a spell or ability, the owner of a card elsewhere. The log
    is one text for both players and the replay, so it names the player, never "your"."""
    what, value = ref
    if what == "player":
        return value
    if what == "stack":
        item = g.stack_item(value)
        return f"{item.controller}'s {item.name}" if item else "(gone)"
    o = g.find(value)
    if o is None:
        return "(gone)"
    return whose_name(g, o)


def whose_name(g: GameState, o: Obj) -> str:
    """An object as the shared log names it, with whose it is (the controller of a permanent,
    the owner of a card elsewhere) and, on the battlefield among its controller's namesakes, the
    number its card shows ("bob's Goblin #2"). The board turns the viewer's own into "your"
    (board/whose.py)."""
    return f"{whose(o)}'s {numbered_name(g, o)}"


def whose(o: Obj) -> str:
    """Whose an object is: the controller of a permanent, the owner of a card elsewhere."""
    return o.controller if o.zone == "battlefield" else o.owner


def whose_after(name: str) -> str:
    """Whose a thing is, written in parentheses after its name ("Goblin (bob's)"). A player's
    name with parentheses of its own, "Computer (Hard)", has them turned into brackets there, as
    English nests them: "(Computer [Hard]'s)". The board turns the viewer's into "(yours)"."""
    return f"({name.replace('(', '[').replace(')', ']')}'s)"


def ref_objs(ref: Ref) -> tuple[int, ...]:
    return (ref[1],) if ref[0] == "obj" else ()


def stack_label(item: StackItem) -> str:
    return item.name
