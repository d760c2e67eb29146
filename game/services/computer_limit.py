"""How many games against the computer one player may run at once.

The computer's thinking is shared between everyone on a server (game/computer_turns.py hands it
out round-robin between players); a cap on each player's running games keeps one player's games
from making every other player's computer slow, and bounds how many of the computer's turns one
player can have waiting at once (a game has at most one pending decision), which is the fairness
guarantee where turns wait in a first-come queue (the workers' channel, docs/architecture.md).
Every way to start a game against the computer asks here first: a new game, a rematch, play on
from a replay.
"""

from __future__ import annotations

from django.conf import settings

from game.models import Game, Player

from .errors import ActionRefused
from .practice_seat import practice_games


def running_computer_games(player: Player) -> int:
    """The games in progress where `player` sits against the computer. A practice game ("Try
    it") is not one: its partner only passes, so it costs the computer next to no thinking, and
    a designer trying a dungeon several times keeps their games against the computer."""
    return (
        Game.objects.filter(status=Game.ACTIVE, seats__player=player)
        .filter(seats__player__computer_level__gt="")
        .exclude(pk__in=practice_games().values("pk"))
        .distinct()
        .count()
    )


def check_room_for_computer_game(player: Player) -> None:
    """Refuse a game against the computer beyond VENTURE_COMPUTER_GAMES_PER_PLAYER running ones.

    Call it inside the transaction that starts the game: it locks the player's row first, so two
    requests of the same player at the same moment are counted one after the other (SQLite's
    transactions are taken for writing at once, settings.py)."""
    limit = settings.VENTURE_COMPUTER_GAMES_PER_PLAYER
    list(Player.objects.select_for_update().filter(pk=player.pk).values_list("pk"))
    running = running_computer_games(player)
    if running >= limit:
        games = "game" if running == 1 else "games"
        raise ActionRefused(
            f"You already have {running} {games} against the computer in progress, the most "
            "one player may run at once: finish or concede one of them to start another.",
            "computer_games",
        )
