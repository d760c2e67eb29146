"""The opening hand: keep it or take a mulligan (CR 103.5), as a player judges seven cards: enough
lands, spells those lands can pay for (their colours), and something to cast early (the curve).

A spell counts as castable when every colour in its cost (or its adventure's) is made by a land
in the hand; it is early when its mana value is at most one more than the hand's lands, so it can
be cast by the turn after the next land. Medium keeps:

- seven cards: two lands with two early spells, three or four lands with an early spell, five
  lands with any castable spell; never fewer than two lands or more than five;
- after one mulligan (it keeps six): two to six lands with a castable spell, or two to five
  lands whatever they cast (five cards are worse than a slow six);
- after two mulligans: anything.

Easy keeps as a beginner does: one to six lands with something the lands' colours cast at
seven, one to six lands after a mulligan; it never keeps a hand that can cast nothing at seven,
nor seven lands or none.

The cards a kept hand puts on the bottom, one per mulligan, leave it as close as they can to
three lands in six (two in five or fewer): while there are more lands, the land of the colour
the spells need least goes; otherwise the spell that fits least: one the lands' colours cannot
cast, then the most expensive.
"""

from __future__ import annotations

from game.engine.carddef import CardDef


def land_colors(hand: list[CardDef]) -> set[str]:
    """The colours the hand's lands make."""
    return {
        color
        for card in hand
        if "Land" in card.types
        for a in card.activated
        if a.is_mana_ability
        for color in a.produces
    }


def _castable_value(card: CardDef, colors: set[str]) -> int | None:
    """The least mana value of the card's faces whose colours the lands make (None: none)."""
    values = []
    for face in (card, card.adventure):
        if face is None or face.cost is None:
            continue
        if all(color in colors for color, _ in face.cost.colored if color != "C"):
            values.append(face.mana_value)
    return min(values, default=None)


def _bottom_one(hand: list[CardDef], keep: int) -> int:
    """The index of the card of `hand` to put on the bottom, keeping `keep` cards in the end."""
    lands = [i for i, card in enumerate(hand) if "Land" in card.types]
    spells = [i for i, card in enumerate(hand) if "Land" not in card.types]
    target = 3 if keep >= 6 else 2
    if lands and (len(lands) > target or not spells):
        need: dict[str, int] = {}
        for i in spells:
            cost = hand[i].cost
            for color, n in cost.colored if cost is not None else ():
                need[color] = need.get(color, 0) + n

        def wanted(i: int) -> tuple[int, str]:
            made = land_colors([hand[i]])
            return (max((need.get(c, 0) for c in made), default=0), hand[i].name)

        return min(lands, key=wanted)
    colors = land_colors(hand)

    def misfit(i: int) -> tuple[bool, int, str]:
        value = _castable_value(hand[i], colors)
        return (value is None, value if value is not None else hand[i].mana_value, hand[i].name)

    return max(spells, key=misfit)


def bottom(hand: list[CardDef], n: int) -> list[int]:
    """The indices of the `n` cards of `hand` a kept hand puts on the bottom, in that order."""
    left = list(range(len(hand)))
    out = []
    for _ in range(min(n, len(hand))):
        pick = left[_bottom_one([hand[i] for i in left], len(hand) - n)]
        out.append(pick)
        left.remove(pick)
    return out


def keeps(hand: list[CardDef], mulligans: int, *, sloppy: bool = False) -> bool:
    """Whether a player keeps `hand` (seven cards) having taken `mulligans` mulligans."""
    if mulligans >= 2 or len(hand) - mulligans <= 5:
        return True
    lands = sum(1 for card in hand if "Land" in card.types)
    colors = land_colors(hand)
    values = [
        v
        for card in hand
        if "Land" not in card.types
        if (v := _castable_value(card, colors)) is not None
    ]
    early = sum(1 for v in values if v <= lands + 1)
    if sloppy:
        return 1 <= lands <= 6 and (mulligans > 0 or bool(values))
    if mulligans:
        return 2 <= lands <= 5 or (lands == 6 and bool(values))
    if lands == 2:
        return early >= 2
    if lands in (3, 4):
        return early >= 1
    if lands == 5:
        return bool(values)
    return False
