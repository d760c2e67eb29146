"""The board's reads of the database: the game with its seats, their players and presence in one
query (every page renders once per answer, so a query less per render counts), and the rematch
a finished game shows. The engine's state is read through the services (`services.reading`).
"""

from __future__ import annotations

from django.db.models import OuterRef, Subquery

from game.models import Connection, Game, Seat
from game.runtime.prepared import PreparedQuery

# Each seat's freshest connection, read with the seats: presence and absence need nothing else
# (services.timings reads `latest_seen` when the seats carry it), so a render makes one query.
_LATEST_SEEN = Subquery(
    Connection.objects.filter(seat=OuterRef("pk")).order_by("-last_seen").values("last_seen")[:1]
)

# Compiled once (game/runtime/prepared.py): this query runs for every page after every answer.
BOARD_SEATS = PreparedQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("game", "player")
        .defer("deck", *(f"game__{name}" for name in Game.BULKY))
        .annotate(latest_seen=_LATEST_SEEN)
        .order_by("position")
    )
)


def load_board(game_id: int) -> tuple[Game, list[Seat] | None]:
    """The game and its seats (with their players, in order, and each seat's freshest
    connection) in one query instead of three. Neither the game's setup nor the seats' decks
    are read (JSON the board never shows). (No seat: the game alone, or Game.DoesNotExist;
    board_context then reads the seats itself.)"""
    seats = BOARD_SEATS(game_id)
    if not seats:  # a game always has its host's seat; none: most likely no such game
        return Game.objects.get(pk=game_id), None
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one instance, as game.seats would give (what the query is for)
    return game, seats


def seats_of(game: Game) -> list[Seat]:
    """The game's seats with their players, in order (when the caller has not read them)."""
    return list(game.seats.select_related("player").order_by("position"))


def rematch_of(game: Game) -> Game | None:
    """The rematch of a finished game, if someone asked for one."""
    return Game.objects.filter(rematch_of=game).first()
