"""The card pool: every implemented card by its exact English name, and the tokens."""

from __future__ import annotations

from ..carddef import CardDef
from ..tokens import TOKENS
from . import afr, afr_more, basics, clb

CARDS: dict[str, CardDef] = {
    c.name: c for c in [*basics.CARDS, *afr.CARDS, *afr_more.CARDS, *clb.CARDS]
}
ADVENTURES: dict[str, str] = {
    c.adventure.name: c.name for c in CARDS.values() if c.adventure is not None
}


def card_named(name: str) -> CardDef:
    try:
        return CARDS[name]
    except KeyError:
        raise KeyError(f"unknown card {name!r}") from None


__all__ = ["ADVENTURES", "CARDS", "TOKENS", "card_named"]
