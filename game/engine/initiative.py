"""The initiative (CR 725): a player designation with three inherent triggered abilities that
have no source and are controlled by the player who had the initiative when they triggered."""

from __future__ import annotations

from typing import Any

from .ops import TEXT, Param, Reading, op
from .state import GameState, PendingTrigger

TAKE_TEXT = "Whenever a player takes the initiative, that player ventures into Undercity."
UPKEEP_TEXT = (
    "At the beginning of the upkeep of the player who has the initiative, that player ventures "
    "into Undercity."
)
STEAL_TEXT = (
    "Whenever one or more creatures a player controls deal combat damage to the player who has "
    "the initiative, the controller of those creatures takes the initiative."
)


def holder(g: GameState) -> str | None:
    return next((p.name for p in g.players if p.initiative), None)


def take_initiative(g: GameState, player: str) -> None:
    """CR 725.3: the old holder stops having it; CR 725.5: taking it again still triggers."""
    for p in g.players:
        p.initiative = p.name == player
    g.note(f"{player} takes the initiative", "CR 725.2")
    # The card's words, not what will happen: a player in another dungeon ventures on in it
    # (CR 701.49d), which the venture's own line says when it resolves.
    why = f"{player} took it (venture into Undercity)"
    _trigger(g, player, TAKE_TEXT, [{"op": "venture", "undercity": True}], why)


def upkeep_trigger(g: GameState) -> None:
    h = holder(g)
    if h is not None and h == g.active:
        why = f"{h}'s upkeep (venture into Undercity)"
        _trigger(g, h, UPKEEP_TEXT, [{"op": "venture", "undercity": True}], why)


def combat_damage_to_holder(g: GameState, hits: dict[str, set[str]]) -> None:
    h = holder(g)
    if h is None:
        return
    for attacker_controller, players in hits.items():
        if h in players and attacker_controller != h:
            why = f"combat damage to {h}, so {attacker_controller} takes the initiative"
            effect = [{"op": "take_initiative_by", "player": attacker_controller}]
            _trigger(g, h, STEAL_TEXT, effect, why)


def _trigger(g: GameState, controller: str, text: str, effect: list, why: str) -> None:
    g.pending_triggers.append(
        PendingTrigger(
            name="The initiative",
            controller=controller,
            text=text,
            effect=effect,
            target_specs=[],
            source_name="The initiative",
            why=why,
        )
    )


# The third inherent trigger's effect: the attacking player, named when it triggered, takes it.
# The trigger is the holder's: to its controller, the initiative lost (take_initiative's 0.5).
@op(
    "take_initiative_by",
    Param("player", TEXT, required=True),
    data=False,
    reads=Reading(harms=False, worth=-0.5),
)
def op_take_initiative_by(g: GameState, ctx: Any, step: dict[str, Any]) -> None:
    take_initiative(g, step["player"])
