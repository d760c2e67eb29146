"""Conditions cards share ("as long as you've completed a dungeon", …)."""

from __future__ import annotations

from typing import Any


def completed_a_dungeon(g: Any, src: Any) -> bool:
    """True for the rest of the game once the controller completed any dungeon (AFR RN)."""
    return bool(g.player(src.controller).completed)


# Intervening "if" conditions (CR 603.4) are called as (game, controller, source or None).
def you_completed(g: Any, player: str, src: Any = None) -> bool:
    return bool(g.player(player).completed)


def havent_completed_tomb(g: Any, player: str, src: Any = None) -> bool:
    return not any(name == "Tomb of Annihilation" for name, _ in g.player(player).completed)


def creature_died_this_turn(g: Any, player: str, src: Any = None) -> bool:
    return g.creatures_died_this_turn > 0


def you_have_the_initiative(g: Any, player: str, src: Any = None) -> bool:
    return g.player(player).initiative


def your_turn(g: Any, src: Any) -> bool:
    return g.active == src.controller


def creature_or_planeswalker_spell(g: Any, src: Any, ev: dict) -> bool:
    return bool({"Creature", "Planeswalker"} & ev["face"].types)
