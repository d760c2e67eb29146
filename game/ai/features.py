"""What the computer measures in a position: values of permanents and cards, combat outcomes
and the evaluation of a whole position for one seat.

Everything here reads only what the seat may know (docs/ai.md, "Never peeks"): the battlefield,
life totals, dungeons, the initiative, hand and library *counts*, and the seat's own hand. The
search (search.py) runs the same functions inside sampled worlds, where every card is a sample.
"""

from __future__ import annotations

import math

from game.engine.carddef import CardDef
from game.engine.continuous import chars
from game.engine.state import GameState, Obj
from game.engine.worth import (
    LAND_WORTH,
    LANDS_COUNTED,
    LANDS_WANTED,
    SPARE_LAND_WORTH,
    creature_value,
    lasting_value,
    permanent_value,
)

from .combat_math import Body
from .rooms import LOOKAHEAD, rooms_left, wanted_completion

WIN = 1000.0


def body(g: GameState, o: Obj) -> Body:
    """A creature as the combat calculator (combat_math.py) takes it: it fights as it is now,
    and is worth what it is once the turn is over (`lasting_value`: what its death loses)."""
    c = chars(g, o)
    return Body(o.id, max(0, c.power), c.toughness - o.damage, c.keywords, lasting_value(g, o))


def lands_in_hand(g: GameState, seat: str) -> int:
    """The seat's own hand only: what it may know."""
    return sum(1 for o in g.player(seat).hand if "Land" in o.card.types)


def card_value(card: CardDef) -> float:
    """What a card in hand is worth (before it is cast): a rough rating from its printed face."""
    if "Land" in card.types:
        return 1.0
    if "Creature" in card.types and card.power is not None:
        return 0.5 + 0.6 * creature_value(card.power, card.toughness or 0, card.keywords, card)
    return 1.5 + 0.5 * card.mana_value


# A card in a known hand counts this share of its `card_value` in `side_value` (it still has to
# be cast).
HAND_SHARE = 0.8


def library_danger(n: int) -> float:
    return -8.0 if n == 0 else (-2.0 if n <= 2 else 0.0)


def life_value(life: int) -> float:
    """Life matters more as it runs out: the first points lost from 20 cost less than the last."""
    if life <= 0:
        return -WIN
    return 24.0 * (1.0 - math.exp(-life / 9.0))


def side_value(g: GameState, name: str, *, hand_known: bool) -> float:
    p = g.player(name)
    if p.lost:
        return -WIN
    score = life_value(p.life) - p.poison * 2.0
    lands = 0
    for o in g.battlefield:
        if o.controller != name:
            continue
        if "Land" in o.card.types:
            lands += 1
            continue
        score += permanent_value(g, o)
    score += (
        min(lands, LANDS_COUNTED) * LAND_WORTH + max(0, lands - LANDS_COUNTED) * SPARE_LAND_WORTH
    )
    if hand_known:
        # A land the seat still needs counts as the land it will be (a discard's cost
        # includes the mana it would have given); any other card a share of its worth.
        needed = lands + lands_in_hand(g, name) <= LANDS_WANTED
        score += sum(
            LAND_WORTH
            if needed and "Land" in o.card.types
            else min(card_value(o.card), 4.0) * HAND_SHARE
            for o in p.hand
        )
    else:
        score += len(p.hand) * 1.6
    score += library_danger(len(p.library))
    if p.initiative:
        score += 3.0
    if p.dungeon is not None:
        score += 0.6 * _rooms_done(p.dungeon.spec, p.dungeon.room)
        # The way to a completion a card of the seat's waits on (Acererak's Tomb), by the
        # ventures still to go, as a dungeon's path is valued (rooms.room_score).
        wanted = wanted_completion(g, name, p.dungeon.spec.name, hand=hand_known)
        if wanted:
            score += wanted * LOOKAHEAD ** rooms_left(p.dungeon.spec, p.dungeon.room)
    score += 2.5 * len(p.completed)
    return score


def _rooms_done(spec: object, room: str) -> int:
    """How far the venture marker stands from the top room (the rooms already visited)."""
    rooms = getattr(spec, "rooms", {})
    top = getattr(spec, "top", room)
    depth = {top: 0}
    frontier = [top]
    while frontier:
        here = frontier.pop()
        for nxt in rooms[here].leads_to if here in rooms else ():
            if nxt not in depth:
                depth[nxt] = depth[here] + 1
                frontier.append(nxt)
    return depth.get(room, 0) + 1


def evaluate(g: GameState, seat: str) -> float:
    """The position's worth to `seat` (positive: ahead). Counts only the other hand's size."""
    return _worth(g, seat, own_hand_known=True)


def evaluate_symmetric(g: GameState, seat: str) -> float:
    """The same, counting both hands by size only (the search's leaf: in a sampled world the
    other hand's cards are guesses, so neither hand's contents may tip the balance)."""
    return _worth(g, seat, own_hand_known=False)


def _worth(g: GameState, seat: str, *, own_hand_known: bool) -> float:
    opp = g.opponent(seat)
    if g.over:
        if g.winner == seat:
            return WIN
        return -WIN if g.winner == opp else 0.0
    return side_value(g, seat, hand_known=own_hand_known) - side_value(g, opp, hand_known=False)
