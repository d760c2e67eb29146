"""Shared builders for engine tests."""

from __future__ import annotations

from dungeons.official import official_dungeons
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.engine.game import Engine, GameSetup


def new_game(seed: int = 0, decks: dict[str, list[str]] | None = None) -> Engine:
    return Engine(
        GameSetup(
            players=["alice", "bob"],
            seed=seed,
            decks=decks or {"alice": GREEN_WHITE_VARIS, "bob": BLACK_RED},
            dungeons=official_dungeons(),
        )
    )


def position(setup: dict, turn: dict | None = None, seed: int = 0) -> Engine:
    return Engine(
        GameSetup(
            players=["alice", "bob"],
            seed=seed,
            dungeons=official_dungeons(),
            position={"turn": turn or {}, "setup": setup},
        )
    )
