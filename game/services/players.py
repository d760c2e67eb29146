"""Who is asking: the request's player and their seat at a game."""

from __future__ import annotations

from typing import Any, NamedTuple

from game.models import Game, Player, Seat

from .errors import ActionRefused


def player_for_user(user: Any) -> Player | None:
    if user is None or not user.is_authenticated:
        return None
    try:
        return user.player
    except Player.DoesNotExist:
        return None


class GameRef(NamedTuple):
    """What a websocket needs to know of the game it opens on."""

    pk: int
    group_name: str
    status: str


def find_game(code: str) -> GameRef | None:
    """The game with this invite code, or None (a bad link, a cancelled game)."""
    game = Game.objects.filter(code=code).only("pk", "status").first()
    return None if game is None else GameRef(game.pk, game.group_name, game.status)


def seat_of(game: Game, player: Player | None) -> Seat | None:
    if player is None:
        return None
    return game.seats.filter(player=player).first()


def acting_seat(seats: list[Seat], player: Player | None) -> Seat:
    """`player`'s seat among a game's `seats`; anyone else is refused ("no_seat")."""
    seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
    if seat is None:
        raise ActionRefused("You are watching this game; only its two players can act.", "no_seat")
    return seat
