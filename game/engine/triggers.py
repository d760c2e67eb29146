"""Triggered abilities: noticing trigger events and waiting to be put on the stack (CR 603).

`fire` is called by every game action that can trigger something. Triggered abilities that match
become `PendingTrigger`s; `put_triggers_on_stack` (called before a player would receive priority,
CR 603.3b) puts them on the stack in APNAP order, letting each player order their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .carddef import Triggered
from .continuous import _abilities_lost_cheap
from .state import GameState, Obj, PendingTrigger


def _self(key: str) -> Callable[[GameState, Obj, dict], bool]:
    return lambda g, src, ev: ev.get(key) is src


def _yours(key: str) -> Callable[[GameState, Obj, dict], bool]:
    return lambda g, src, ev: ev.get(key) == src.controller


# trigger name -> (event kind, does this event concern this source?)
MATCHERS: dict[str, tuple[str, Callable[[GameState, Obj, dict], bool]]] = {
    "self_enters": ("enters", _self("obj")),
    "self_dies": ("dies", _self("obj")),
    "self_attacks": ("attacks", _self("obj")),
    "self_combat_damage_player": ("combat_damage_player", _self("source")),
    "you_attack": ("attackers_declared", _yours("player")),
    "you_cast": ("cast", _yours("player")),
    "you_complete_dungeon": ("complete_dungeon", _yours("player")),
    "creature_enters": ("enters", lambda g, src, ev: True),
    "your_upkeep": (
        "step_begin",
        lambda g, src, ev: ev["step"] == "upkeep" and g.active == src.controller,
    ),
    "your_end_step": (
        "step_begin",
        lambda g, src, ev: ev["step"] == "end" and g.active == src.controller,
    ),
    "opponent_upkeep": (
        "step_begin",
        lambda g, src, ev: ev["step"] == "upkeep" and g.active != src.controller,
    ),
    "your_beginning_of_combat": (
        "step_begin",
        lambda g, src, ev: ev["step"] == "beginning_of_combat" and g.active == src.controller,
    ),
    "creature_card_to_your_graveyard": ("creature_card_to_graveyard", _yours("owner")),
    "becomes_blocked_equipped": (
        "becomes_blocked",
        lambda g, src, ev: src.attached_to == ev["obj"].id,
    ),
}


def _abilities_lost(g: GameState, obj: Obj) -> bool:
    return obj.zone == "battlefield" and _abilities_lost_cheap(g, obj)


def fire(g: GameState, kind: str, **ev: Any) -> None:
    """Report a trigger event; every matching triggered ability triggers (CR 603.2)."""
    ev["kind"] = kind
    sources: list[Obj] = list(g.battlefield)
    looked_back = ev.get("obj") if kind in ("dies", "leaves") else None
    if looked_back is not None and looked_back not in sources:
        sources.append(looked_back)
    if kind in ("complete_dungeon",):
        for p in g.players:
            sources += [
                o for o in p.graveyard if any(t.zone == "graveyard" for t in o.card.triggers)
            ]
    for src in sources:
        if not src.card.triggers or _abilities_lost(g, src):
            continue
        for index, ability in enumerate(src.card.triggers):
            matcher = MATCHERS.get(ability.trigger)
            if matcher is None or matcher[0] != kind:
                continue
            in_zone = src.zone == ability.zone or (
                src is looked_back and ability.zone == "battlefield"
            )
            if not in_zone:
                continue
            if not matcher[1](g, src, ev):
                continue
            if ability.condition is not None and not ability.condition(g, src, ev):
                continue
            controller = (
                src.controller if src.zone == "battlefield" or src is looked_back else src.owner
            )
            if ability.intervening_if is not None and not ability.intervening_if(
                g, controller, src
            ):
                continue  # intervening "if" false: it doesn't trigger (CR 603.4)
            if ability.once_each_turn:
                key = (src.id, index, g.turn)
                if key in g.triggered_once:
                    continue
                g.triggered_once.add(key)
            add_trigger(g, src, ability, controller, ev)


def add_trigger(g: GameState, src: Obj, ability: Triggered, controller: str, ev: dict) -> None:
    g.pending_triggers.append(
        PendingTrigger(
            name=src.name,
            controller=controller,
            text=ability.text,
            effect=ability.effect,
            target_specs=list(ability.targets),
            source_id=src.id,
            source_name=src.name,
            intervening_if=ability.intervening_if,
            optional=ability.optional,
            event={**ev, "_source_is_creature": "Creature" in src.card.types},
        )
    )
