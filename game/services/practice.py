"""A practice game for a dungeon designer ("Try it" in the dungeon editor): the designer, in
their main phase with Dungeon Maps ready, is about to venture into the one dungeon the game has;
the other seat is a practice partner with no cards that passes whenever it may.

It is an ordinary game started from a position (a scenario, docs/scenarios.md), stored and
replayed like any other; only its second seat is filled at once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import yaml
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from game.engine.dungeon import UNDERCITY, DungeonError, dungeon_from_dict
from game.models import Connection, Game, Player, Seat

from .errors import ActionRefused
from .lifecycle import start_game

PARTNER_USERNAME = "practice-partner"
PARTNER_NAME = "Practice partner"
VENTURES_READY = 3  # Dungeon Maps (each {3}, {T}: venture; they untap every turn)
# The partner passes "until its next turn", and that turn never comes: a turn number no game
# reaches (a position starts at turn 10,000 at most, docs/scenarios.md).
NEVER = 1_000_000
# The partner is always at the table: a presence row no heartbeat refreshes and none expires
# (services/presence.py), so the page never offers to claim the win from it.
ALWAYS = datetime(9999, 1, 1, tzinfo=UTC)


def practice_partner() -> Player:
    """The one player who sits across every practice game (an account nobody can log in as)."""
    user, created = User.objects.get_or_create(username=PARTNER_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": PARTNER_NAME, "is_guest": True}
    )
    return player


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


def start_practice(player: Player, dungeon: dict[str, Any]) -> Game:
    """A started practice game of `player` with `dungeon` (the dungeons/data format) as the
    only dungeon, about to venture into it. Refused, creating nothing, if it is not valid."""
    try:
        dungeon_from_dict(dungeon)
    except DungeonError as e:
        raise ActionRefused(
            "This dungeon can't be played yet: " + "; ".join(e.problems), "invalid_dungeon"
        ) from None
    partner = practice_partner()
    if partner.pk == player.pk:
        raise ActionRefused("The practice partner can't practise.", "partner")
    position = practice_position(dungeon)
    with transaction.atomic():
        game = Game.objects.create(
            created_by=player,
            scenario_name=position["name"],
            scenario_text=yaml.safe_dump(position, sort_keys=False, allow_unicode=True),
            dungeons=[dungeon],
        )
        Seat.objects.create(game=game, player=player, position=0)
        seat = Seat.objects.create(
            game=game,
            player=partner,
            position=1,
            pass_until=Seat.PASS_MY_TURN,
            pass_turn=NEVER,
        )
        Connection.objects.create(
            seat=seat, channel_name=f"practice-partner.{game.code}", last_seen=ALWAYS
        )
        start_game(game, timezone.now())
    return game
