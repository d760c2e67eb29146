"""What a permanent is worth, in the units of the computer's evaluation (`game.ai.features`).

The engine's operations declare what a step is worth to the seat that plays it (`ops.Reading`)
in those same units, and some of them weigh permanents (Oubliette's sacrifices); the computer
weighs them everywhere. Both read this module, so a creature or a land is worth one thing
wherever it is weighed. It reads only the battlefield, which every player sees.
"""

from __future__ import annotations

from .carddef import CardDef
from .continuous import chars
from .state import GameState, Obj

# Keywords that make a creature worth more than its power and toughness (rough card-game value).
KEYWORD_VALUE = {
    "flying": 1.0,
    "deathtouch": 1.2,
    "first strike": 0.8,
    "double strike": 2.0,
    "lifelink": 0.8,
    "trample": 0.4,
    "vigilance": 0.4,
    "menace": 0.6,
    "hexproof": 0.8,
    "indestructible": 2.0,
    "reach": 0.3,
    "haste": 0.2,
}


# Each ability a creature has beyond its keywords, while it is on the battlefield, at about a
# middling keyword's worth: a player keeps Yuan-Ti Malison (can't be blocked attacking alone,
# ventures on combat damage) out of an even trade with a Dungeon Crawler. At most ABILITIES_COUNTED.
ABILITY_VALUE = 0.8
ABILITIES_COUNTED = 3
# The abilities the engine reads from a card's `extra` flags (the rest of `extra` is data).
ABILITY_FLAGS = frozenset(
    {"unblockable_alone", "opponents_venture_once", "room_triggers_additional"}
)


def abilities_value(card: CardDef | None) -> float:
    """What a creature's printed abilities beyond its keywords add while it is on the
    battlefield: each triggered ability that triggers there, except on entering (spent once it
    has entered); each activated ability; each static ability on other objects or players (one
    on itself shows in its power, toughness and keywords); each flag the engine reads."""
    if card is None:
        return 0.0
    n = sum(1 for t in card.triggers if t.zone == "battlefield" and t.trigger != "self_enters")
    n += len(card.activated)
    n += sum(1 for st in card.statics if st.affects != "self")
    n += len(ABILITY_FLAGS & card.extra.keys())
    return ABILITY_VALUE * min(n, ABILITIES_COUNTED)


def abilities_of(g: GameState, o: Obj) -> CardDef | None:
    """The card whose abilities `o` has now: none once it has lost all abilities (a creature
    made a 1/1 Bird by Eccentric Apprentice, CR 613.1f)."""
    return None if chars(g, o).lost_abilities else o.card


def creature_value(
    power: int, toughness: int, keywords: frozenset[str], card: CardDef | None = None
) -> float:
    """A creature's worth from its power, toughness and keywords and, given its `card`, its
    other abilities (`abilities_value`)."""
    bonus = sum(KEYWORD_VALUE.get(k, 0.0) for k in keywords)
    if "flying" in keywords:
        bonus += 0.3 * power  # evasion counts in proportion to the damage it carries
    return 1.0 + power * 1.0 + toughness * 0.6 + bonus + abilities_value(card)


# What a creature held tapped is worth beside a free one (`held_tapped`): it fights again only if
# the effect holding it goes, which nothing in hand can be counted on for.
HELD_SHARE = 0.25


def held_tapped(g: GameState, o: Obj) -> bool:
    """A tapped permanent that doesn't untap during its controller's untap step (Ray of Frost,
    CR 502.3): a creature out of every fight, attacking or blocking, for as long as that lasts."""
    return o.tapped and chars(g, o).doesnt_untap


# Lands on the battlefield: each up to LANDS_COUNTED is worth LAND_WORTH in `side_value`, one
# beyond them SPARE_LAND_WORTH (the preset decks' curves top out at five or six mana).
LAND_WORTH = 1.2
LANDS_COUNTED = 7
SPARE_LAND_WORTH = 0.2
# A seat with at most LANDS_WANTED lands (the one in question counted) still needs each of them:
# losing one costs a turn's mana, which `side_value`'s flat worth doesn't see. Decisions that
# give up a land (a room's payment, a discard) weigh it at SHORT_LAND_WORTH instead, above a 1/1
# token's worth, so the token goes first.
LANDS_WANTED = 5
SHORT_LAND_WORTH = 3.0


def land_worth(lands: int) -> float:
    """What one land is worth to a seat that has `lands` of them, that one included: on the
    battlefield by their count there, in hand by the count on the battlefield and in hand."""
    if lands <= LANDS_WANTED:
        return SHORT_LAND_WORTH
    return LAND_WORTH if lands <= LANDS_COUNTED else SPARE_LAND_WORTH


def lands_of(g: GameState, seat: str) -> int:
    return sum(1 for o in g.controlled(seat) if "Land" in chars(g, o).types)


def lasting_value(g: GameState, o: Obj) -> float:
    """What a permanent is worth once this turn is over: a creature without the effects that end
    with the turn and without its damage (both go in the cleanup step, CR 514.2). A removal spell
    is kept for what a creature is, not for what a trick made it for one turn (Rally Maneuver's
    +0/+2 and lifelink made a 1/2 deathtouch blocker look worth Power Word Kill)."""
    c = chars(g, o)
    if "Creature" not in c.types:
        return permanent_value(g, o)
    ending = [e for e in g.effects if e.affects == o.id and e.duration == "end_of_turn"]
    if any(e.set_base is not None for e in ending):
        # A body set for the turn (Eccentric Apprentice's 1/1 Bird, which also loses its other
        # abilities): once the turn is over the creature is its card again, with its counters.
        # Medium traded a Shortcut Seeker (a 3/6 with its counter) made a Bird for a 2/2 flier.
        card = o.card
        grown = o.counters.get("+1/+1", 0) - o.counters.get("-1/-1", 0)
        worth = creature_value(
            max(0, (card.power or 0) + grown), (card.toughness or 0) + grown, card.keywords, card
        )
        return worth * HELD_SHARE if held_tapped(g, o) else worth
    power = c.power - sum(e.power for e in ending)
    toughness = c.toughness - sum(e.toughness for e in ending)
    lent = {k for e in ending for k in e.keywords} - set(o.card.keywords)
    worth = creature_value(max(0, power), toughness, c.keywords - lent, abilities_of(g, o))
    return worth * HELD_SHARE if held_tapped(g, o) else worth


def permanent_value(g: GameState, o: Obj) -> float:
    c = chars(g, o)
    if "Creature" in c.types:
        worth = creature_value(
            max(0, c.power), c.toughness - o.damage, c.keywords, abilities_of(g, o)
        )
        return worth * HELD_SHARE if held_tapped(g, o) else worth
    if "Land" in c.types:
        return land_worth(lands_of(g, o.controller))
    if "Planeswalker" in c.types:
        return 3.0 + o.counters.get("loyalty", 0) * 0.6
    if o.name == "Treasure":
        return 0.8
    return 1.5 + 0.3 * o.card.mana_value
