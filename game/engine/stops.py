"""Where the pace feature stops a player who holds priority, from public information only.

Passing for a player only when they could do nothing would tell the opponent whether they hold
something they can play: the game would pause on "bob has priority" exactly when bob has an
instant. So whether a player is stopped depends on what both players can see: the stack, the
step, whose turn it is, combat, the number of cards in the player's hand, and what the player can
do with cards and permanents that are not in their hand. Never on what the hand holds.

A player holding cards is stopped in their own main phases when they have mana to spend or a
land still to play (whatever the hand holds) and, when they have mana to spend, at the moments a
card could matter, as MTGO's
default stops are: a spell or ability the opponent put on the stack; the opponent's attack, once
attackers are declared; every attack once blockers are declared (both players' combat tricks);
the opponent's end step. Without mana (no
untapped source, an empty pool: both public) nothing in a hand can be paid for, since every card
of the pool costs at least one mana (`cheapest_from_hand`). A player with an empty hand is
stopped only when a permanent or a card in a public zone gives them something to do besides
making mana. "Full control" stops at every priority.
"""

from __future__ import annotations

import functools

from .cards import CARDS
from .casting import LANDS_PER_TURN
from .decisions import Decision
from .state import GameState

MAIN_PHASES = ("precombat_main", "postcombat_main")


@functools.cache
def cheapest_from_hand() -> int:
    """The least mana anything in a hand can cost, over the whole card pool (public knowledge):
    casting a card (its adventure too) or activating an ability from the hand. A cost reduction
    is taken to remove all generic mana."""
    least = 99
    for card in CARDS.values():
        if "Land" in card.types:
            continue
        costs = [card.cost] + ([card.adventure.cost] if card.adventure is not None else [])
        for cost in costs:
            if cost is None:
                return 0
            reducible = card.cost_reduction is not None
            least = min(least, cost.mana_value - (cost.generic if reducible else 0))
        for ability in card.activated:
            if ability.zone == "hand":
                least = min(least, ability.mana.mana_value if ability.mana else 0)
    return least


def stops_at(g: GameState, d: Decision) -> bool:
    """Whether the player deciding `d` is asked rather than passed for (not in full control)."""
    if d.kind != "priority":
        return True
    player = d.player
    p = g.player(player)
    action, mana_source = _public_options(g, d)
    if action:
        return True
    if not p.hand:
        return False
    mana = mana_source or any(p.pool.values()) or cheapest_from_hand() == 0
    if g.active == player and g.step in MAIN_PHASES and not g.stack:
        return mana or p.lands_played < LANDS_PER_TURN
    if not mana:
        return False
    if g.stack:
        return g.stack[-1].controller != player  # respond to the opponent, not to yourself
    attacking = g.combat is not None and bool(g.combat.attackers)
    if g.step == "declare_blockers":  # blocks are known: both sides' combat tricks
        return attacking
    if g.active == player:
        return False
    if g.step == "declare_attackers":
        return attacking
    return g.step == "end"


def _public_options(g: GameState, d: Decision) -> tuple[bool, bool]:
    """What the options whose source is not a card in the hand offer: something to do besides
    passing or making mana (a permanent's ability, a card castable from exile or the graveyard),
    and a mana ability (lands, Treasures…)."""
    hand_ids = {o.id for o in g.player(d.player).hand}
    action = mana = False
    for option in d.options:
        if option.id == "pass" or (option.objs and option.objs[0] in hand_ids):
            continue
        if option.data == "mana":
            mana = True
        else:
            action = True
    return action, mana
