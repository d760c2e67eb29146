"""A small custom dungeon with a fork, shared by the engine, admin and web tests."""

from __future__ import annotations

import copy
from typing import Any

_CELLAR: dict[str, Any] = {
    "name": "Test Cellar",
    "rooms": [
        {
            "name": "Stairs",
            "text": "Scry 1.",
            "leads_to": ["Left", "Right"],
            "effect": [{"op": "scry", "amount": 1}],
        },
        {
            "name": "Left",
            "text": "You gain 2 life.",
            "leads_to": ["Vault"],
            "effect": [{"op": "gain_life", "who": "you", "amount": 2}],
        },
        {
            "name": "Right",
            "text": "Put a +1/+1 counter on target creature.",
            "leads_to": ["Vault"],
            "effect": [
                {"op": "add_counters", "target": "creature", "counter": "+1/+1", "amount": 1}
            ],
        },
        {
            "name": "Vault",
            "text": "Create a Treasure token.",
            "leads_to": [],
            "effect": [{"op": "create_token", "token": "Treasure"}],
        },
    ],
}


def cellar() -> dict[str, Any]:
    """A fresh copy of the Test Cellar: Stairs forks to Left or Right, both lead to Vault."""
    return copy.deepcopy(_CELLAR)
