"""The five basic lands (CR 305.6: each has "{T}: Add [its color]")."""

from __future__ import annotations

from ..carddef import CardDef, activated, card

_LANDS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def _basic(name: str, color: str) -> CardDef:
    return card(
        name,
        None,
        f"Basic Land — {name}",
        colors="",
        text=f"({{T}}: Add {{{color}}}.)",
        activated=[activated("{T}", [], f"Add {{{color}}}.", produces=color)],
    )


CARDS = [_basic(name, color) for name, color in _LANDS.items()]
