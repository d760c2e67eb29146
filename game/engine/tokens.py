"""Tokens made by cards and rooms (AFR/CLB Release Notes)."""

from __future__ import annotations

from .carddef import CardDef, activated, card


def _token(name: str, type_line: str, pt: tuple[int, int] | None, colors: str, **kw) -> CardDef:
    return card(name, None, type_line, pt, colors=colors, token=True, **kw)


TREASURE = _token(
    "Treasure",
    "Artifact — Treasure",
    None,
    "",
    text="{T}, Sacrifice this artifact: Add one mana of any color.",
    activated=[
        activated(
            "{T}, Sacrifice this artifact",
            [],
            "Add one mana of any color.",
            produces="WUBRG",
        )
    ],
)

TOKENS: dict[str, CardDef] = {
    "Treasure": TREASURE,
    "Goblin": _token("Goblin", "Creature — Goblin", (1, 1), "R"),
    "Skeleton": _token("Skeleton", "Creature — Skeleton", (1, 1), "B"),
    "Skeleton 4/1 menace": _token(
        "Skeleton", "Creature — Skeleton", (4, 1), "B", keywords=["menace"], text="Menace"
    ),
    "Wolf": _token("Wolf", "Creature — Wolf", (2, 2), "G"),
    "Zombie": _token("Zombie", "Creature — Zombie", (2, 2), "B"),
    "The Atropal": _token(
        "The Atropal",
        "Legendary Creature — God Horror",
        (4, 4),
        "B",
        keywords=["deathtouch"],
        text="Deathtouch",
    ),
}
