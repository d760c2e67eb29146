"""Games and positions for the computer's tests: seeded games between the preset decks, played
by the random bot and the levels, stopped where the computer's seat has a real decision."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from dungeons.official import official_dungeons
from game.ai import decide
from game.decks import STARTER_DECKS
from game.engine.bot import random_answer
from game.engine.game import Engine, GameSetup
from game.scenario.loader import load_scenario
from game.scenario.runner import build_game, play_script

DECKS = list(STARTER_DECKS.values())
COMPUTER = "bob"
OTHER = "alice"
# The scenario positions of the tests named for what a player would see.
POSITIONS = Path(__file__).resolve().parent / "positions"


def setup_for(seed: int) -> GameSetup:
    return GameSetup(
        ["alice", "bob"],
        seed,
        {"alice": list(DECKS[seed % 4]), "bob": list(DECKS[(seed // 4) % 4])},
        official_dungeons(),
    )


def play(
    game: Engine, seed: int, players: dict[str, str], max_decisions: int = 4000
) -> Iterator[Engine]:
    """Play `game` (each seat by "random" or a level), yielding before each decision."""
    rng = random.Random(seed)
    n = 0
    while game.pending is not None and n < max_decisions:
        yield game
        d = game.pending
        if d is None:
            break
        who = players[d.player]
        if who == "random":
            answer = random_answer(d, rng)
        else:
            answer = decide(who, game, d.player, seed * 1000 + n)
        game.answer(d.player, answer)
        n += 1


def real_choice(game: Engine, seat: str) -> bool:
    d = game.pending
    if d is None or d.player != seat:
        return False
    options = [o for o in d.options if o.data != "mana"]
    return len(options) > 1


def position(file: str) -> Engine:
    """The game of the position file `file` (under `positions/`) at the decision its script
    stops at."""
    scenario = load_scenario(POSITIONS / file)
    game = build_game(scenario)
    play_script(scenario, game)
    return game
