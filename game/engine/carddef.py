"""What a card is: printed characteristics plus abilities made of effect steps.

A card definition is data (cost, type line, P/T, keywords, text) plus abilities whose effects
are lists of steps from the shared effect vocabulary (`game.engine.effects`), the same steps
dungeon rooms use. Card-specific rules that no step expresses are small Python callables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .mana import ManaCost, parse_cost

Step = dict[str, Any]

# Keywords the engine knows. "ward" is kept apart because it carries a cost.
KEYWORDS = frozenset(
    {
        "flying",
        "reach",
        "trample",
        "deathtouch",
        "lifelink",
        "vigilance",
        "haste",
        "first strike",
        "double strike",
        "menace",
        "defender",
        "flash",
        "hexproof",
        "indestructible",
        "protection from creatures",
    }
)


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """One "target" phrase of a text (CR 115.1): what it may name and how many."""

    kind: str  # a key of targets.TARGET_KINDS
    phrase: str
    min: int = 1
    max: int = 1
    other: bool = False  # "other target …": not an object already chosen by this text
    divided: int = 0  # "N damage divided as you choose among …" (CR 601.2d)


@dataclass(slots=True)
class Triggered:
    trigger: str  # event kind, see triggers.py
    effect: list[Step]
    text: str
    targets: list[TargetSpec] = field(default_factory=list)
    condition: Callable[..., bool] | None = None  # (game, source, event) -> bool
    intervening_if: Callable[..., bool] | None = None  # (game, controller) -> bool (CR 603.4)
    once_each_turn: bool = False
    zone: str = "battlefield"  # where the source must be for the ability to trigger
    optional: bool = False  # "you may"


@dataclass(slots=True)
class Activated:
    cost_text: str
    effect: list[Step]
    text: str
    mana: ManaCost | None = None
    tap: bool = False
    sacrifice_self: bool = False
    discard_self: bool = False
    tap_untapped_legendary: bool = False
    targets: list[TargetSpec] = field(default_factory=list)
    sorcery_speed: bool = False
    zone: str = "battlefield"
    produces: str = ""  # a mana ability: the symbols it may make ("G", "C", "WUBRG")
    amount: int = 1
    only_if: Callable[..., bool] | None = None  # "Activate only if …"
    cost_reduction: Callable[..., int] | None = None
    loyalty: int | None = None  # a loyalty ability's cost: +1, -2, … (CR 606)

    @property
    def is_mana_ability(self) -> bool:  # CR 605.1a
        return bool(self.produces) and not self.targets


@dataclass(slots=True)
class Static:
    """A static ability: a continuous effect that exists while its source is on the battlefield."""

    affects: str  # "self", "other_creatures_you_control", "creatures_you_control",
    # "equipped", "enchanted", "you" (the controller as a player)
    text: str
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    ward: tuple[str, ...] = ()
    condition: Callable[..., bool] | None = None  # (game, source) -> bool
    player_hexproof: bool = False
    lose_all_abilities: bool = False
    doesnt_untap: bool = False
    pt_fn: Callable[..., tuple[int, int]] | None = None  # (game, source, obj) -> (dp, dt)
    cant_block: bool = False
    harms: bool = False  # it hurts what it affects where the fields above can't say (a pt_fn)

    @property
    def hurts(self) -> bool:
        """Does it hurt what it affects (smaller, without its abilities, kept tapped, unable to
        block)? The computer aims an Aura by it, as it aims a spell by its steps' readings."""
        return (
            self.harms
            or self.power < 0
            or self.toughness < 0
            or self.lose_all_abilities
            or self.doesnt_untap
            or self.cant_block
        )


@dataclass(slots=True)
class CardDef:
    name: str
    cost: ManaCost | None
    type_line: str
    supertypes: frozenset[str]
    types: frozenset[str]
    subtypes: tuple[str, ...]
    colors: frozenset[str]
    text: str = ""
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    keywords: frozenset[str] = frozenset()
    ward: tuple[str, ...] = ()
    spell: list[Step] = field(default_factory=list)
    spell_targets: list[TargetSpec] = field(default_factory=list)
    triggers: list[Triggered] = field(default_factory=list)
    activated: list[Activated] = field(default_factory=list)
    statics: list[Static] = field(default_factory=list)
    enters_tapped: bool = False
    cant_be_countered: bool = False
    cost_reduction: Callable[..., int] | None = None  # (game, player) -> generic reduction
    adventure: CardDef | None = None
    escape: str | None = None  # "Escape—{3}{B}{B}, Exile five other cards from your graveyard."
    escape_exile: int = 0
    token: bool = False
    set_code: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_permanent_card(self) -> bool:
        return bool(self.types & {"Creature", "Artifact", "Enchantment", "Land", "Planeswalker"})

    @property
    def mana_value(self) -> int:
        return self.cost.mana_value if self.cost else 0


def parse_type_line(type_line: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    left, _, right = type_line.partition("—")
    words = left.split()
    supertypes = frozenset(w for w in words if w in {"Legendary", "Basic", "Snow", "World"})
    types = frozenset(w for w in words if w not in supertypes)
    return supertypes, types, tuple(right.split())


def colors_of(cost: str | None) -> frozenset[str]:
    return frozenset(c for c in "WUBRG" if cost and "{" + c + "}" in cost)


def card(
    name: str,
    cost: str | None,
    type_line: str,
    pt: tuple[int, int] | None = None,
    *,
    text: str = "",
    colors: str | None = None,
    **kw: Any,
) -> CardDef:
    """Build a CardDef from printed values (the readable way card modules define cards)."""
    supertypes, types, subtypes = parse_type_line(type_line)
    keywords = frozenset(kw.pop("keywords", ()))
    unknown = keywords - KEYWORDS
    if unknown:
        raise ValueError(f"{name}: unknown keywords {sorted(unknown)}")
    return CardDef(
        name=name,
        cost=parse_cost(cost),
        type_line=type_line,
        supertypes=supertypes,
        types=types,
        subtypes=subtypes,
        colors=frozenset(colors) if colors is not None else colors_of(cost),
        text=text,
        power=pt[0] if pt else None,
        toughness=pt[1] if pt else None,
        keywords=keywords,
        **kw,
    )


def loyalty(cost: int, effect: list[Step], text: str, **kw: Any) -> Activated:
    """A planeswalker's loyalty ability (CR 606): sorcery speed, once each turn."""
    label = f"+{cost}" if cost > 0 else ("0" if cost == 0 else f"−{-cost}")
    return Activated(
        cost_text=label, effect=effect, text=text, loyalty=cost, sorcery_speed=True, **kw
    )


def activated(cost_text: str, effect: list[Step], text: str, **kw: Any) -> Activated:
    """Parse a printed activation cost such as "{3}, {T}" into its parts."""
    parts = [p.strip() for p in cost_text.split(",")]
    parts = [p.removeprefix("Equip ").strip() for p in parts]  # "Equip {3}" costs {3}
    mana_parts = [p for p in parts if p.startswith("{") and p != "{T}"]
    return Activated(
        cost_text=cost_text,
        effect=effect,
        text=text,
        mana=parse_cost("".join(mana_parts)) if mana_parts else None,
        tap="{T}" in parts,
        sacrifice_self=any(p.startswith("Sacrifice this") or p == "Sacrifice" for p in parts),
        discard_self=any(p.startswith("Discard") for p in parts),
        tap_untapped_legendary="Tap an untapped legendary creature you control" in parts,
        **kw,
    )
