"""A practice game for a dungeon designer ("Try it" in the dungeon editor): the designer, in
their main phase with Dungeon Maps ready, is about to venture into the one dungeon the game has;
the other seat is the practice partner: the computer at Easy, which passes priority and never
attacks (its pace is "pass until my next turn", and that turn never comes), and answers every
other decision it faces as the computer does (discarding to hand size, a room's "each opponent
sacrifices…", blocks), so the game never waits for it (docs/dungeons.md, "Try it").

It is an ordinary game against the computer started from a position (a scenario,
docs/scenarios.md), stored and replayed like any other; only its second seat is filled at once.
"""

from __future__ import annotations

from typing import Any

import yaml
from django.db import transaction
from django.utils import timezone

from game.engine.dungeon import UNDERCITY, DungeonError, dungeon_from_dict
from game.models import Game, Player, Seat

from .computer import computer_player
from .errors import ActionRefused
from .lifecycle import start_game
from .practice_seat import NEVER

PARTNER_LEVEL = "easy"
VENTURES_READY = 3  # Dungeon Maps (each {3}, {T}: venture; they untap every turn)


def practice_position(dungeon: dict[str, Any]) -> dict[str, Any]:
    """The scenario: three Dungeon Maps and the mana for them (a dungeon of the Undercity
    subtype is entered only by taking the initiative, CR 701.49d: Trailblazer's Torches)."""
    if dungeon.get("subtype") == UNDERCITY:
        you = {
            "hand": ["Trailblazer's Torch"] * VENTURES_READY,
            "battlefield": ["Plains"] * (4 * VENTURES_READY),
        }
    else:
        you = {"battlefield": ["Dungeon Map"] * VENTURES_READY + ["Plains"] * (3 * VENTURES_READY)}
    you["library"] = ["Plains"] * 10
    return {
        "name": f"Practice: {dungeon['name']}"[:200],
        "players": ["you", "partner"],
        "turn": {"number": 1, "active": "you", "step": "precombat_main"},
        "setup": {"you": you, "partner": {"library": ["Plains"] * 10}},
    }


def start_practice(
    player: Player, dungeon: dict[str, Any], *, rematch_of: Game | None = None
) -> Game:
    """A started practice game of `player` with `dungeon` (the dungeons/data format) as the
    only dungeon, about to venture into it. Refused, creating nothing, if it is not valid. The
    rematch of a practice game is another (the partner accepts every rematch, as the computer
    does), with the dungeon as that game had it."""
    try:
        dungeon_from_dict(dungeon)
    except DungeonError as e:
        raise ActionRefused(
            "This dungeon can't be played yet: " + "; ".join(e.problems), "invalid_dungeon"
        ) from None
    if player.is_computer:
        raise ActionRefused("The computer does not practise.", "bad_input")
    partner = computer_player(PARTNER_LEVEL)
    position = practice_position(dungeon)
    with transaction.atomic():
        game = Game.objects.create(
            created_by=player,
            rematch_of=rematch_of,
            scenario_name=position["name"],
            scenario_text=yaml.safe_dump(position, sort_keys=False, allow_unicode=True),
            dungeons=[dungeon],
        )
        Seat.objects.create(game=game, player=player, position=0)
        Seat.objects.create(
            game=game,
            player=partner,
            position=1,
            pass_until=Seat.PASS_MY_TURN,
            pass_turn=NEVER,
        )
        start_game(game, timezone.now())
    return game
