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


# A token kind by its definition: two kinds may share a name (the 1/1 Skeleton and the 4/1
# Skeleton with menace), so a view names the kind where the name alone would not tell.
_KIND_OF = {id(definition): kind for kind, definition in TOKENS.items()}


def token_kind(definition: CardDef) -> str:
    """The key of `definition` in TOKENS, or its name for a card (or a copy of one)."""
    return _KIND_OF.get(id(definition), definition.name)
