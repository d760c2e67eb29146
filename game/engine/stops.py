"""Where the pace feature stops a player who holds priority, from public information only.

Passing for a player only when they could do nothing would tell the opponent whether they hold
something they can play: the game would pause on "bob has priority" exactly when bob has an
instant. So whether a player is stopped depends on what both players can see: the stack, the
step, whose turn it is, combat, the number of cards in the player's hand, and what the player can
do with cards and permanents that are not in their hand. Never on what the hand holds.

A player holding cards is stopped at the moments a card could matter, as MTGO's default stops
are: their own main phases; a spell or ability the opponent put on the stack; the opponent's
attack, once attackers are declared; blocks in their own attack; the opponent's end step. A
player with an empty hand is stopped only when a permanent or a card in a public zone gives them
something to do besides making mana. "Full control" stops at every priority.
"""

from __future__ import annotations

from .decisions import Decision
from .state import GameState

MAIN_PHASES = ("precombat_main", "postcombat_main")


def stops_at(g: GameState, d: Decision) -> bool:
    """Whether the player deciding `d` is asked rather than passed for (not in full control)."""
    if d.kind != "priority":
        return True
    player = d.player
    if _public_action(g, d):
        return True
    if not g.player(player).hand:
        return False
    if g.stack:
        return g.stack[-1].controller != player  # respond to the opponent, not to yourself
    combat = g.combat
    if g.active == player:
        if g.step in MAIN_PHASES:
            return True
        return (
            g.step == "declare_blockers"
            and combat is not None
            and any(combat.blockers.get(a) for a in combat.attackers)
        )
    if g.step == "declare_attackers":
        return combat is not None and bool(combat.attackers)
    return g.step == "end"


def _public_action(g: GameState, d: Decision) -> bool:
    """An option other than passing or making mana whose source is not a card in the hand:
    a permanent's ability, a card castable from exile or from the graveyard."""
    hand_ids = {o.id for o in g.player(d.player).hand}
    for option in d.options:
        if option.id == "pass" or option.data == "mana":
            continue
        if not (option.objs and option.objs[0] in hand_ids):
            return True
    return False
