"""What tells a practice game ("Try it", practice.py) from a game against the computer: its
partner's seat. Apart from practice.py, which starts games (and so imports the lifecycle), so
that the lifecycle and the cap on computer games (computer_limit.py) can ask it."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from game.models import Game, Seat

# The partner passes "until its next turn", and that turn never comes: a turn number no game
# reaches (a position starts at turn 10,000 at most, docs/scenarios.md). No player can give a
# seat this pace (services.set_pace takes the current turn), so it also tells a practice game.
NEVER = 1_000_000
# The partner's seat: what tells a practice game from a game against the computer.
PARTNER_SEAT = Q(pass_until=Seat.PASS_MY_TURN, pass_turn=NEVER)


def practice_games() -> QuerySet[Game]:
    """Every practice game (a query: `Game` rows with the partner's seat)."""
    return Game.objects.filter(
        pk__in=Seat.objects.filter(PARTNER_SEAT, player__computer_level__gt="").values("game")
    )


def is_practice(seats: list[Seat]) -> bool:
    """Whether a game with these seats is a practice game."""
    return any(
        s.player.is_computer and (s.pass_until, s.pass_turn) == (Seat.PASS_MY_TURN, NEVER)
        for s in seats
    )
