"""Which of the computer's waiting decisions a worker takes next: round-robin between the people
the computer plays, across any number of workers (VENTURE_COMPUTER=worker,
game/computer_turns.py).

A decision handed out to the workers is a message on their Redis channel, and the channel is
first come, first served. So a message only wakes a worker; what it takes is chosen here, from
the database that every worker shares: among the games where the computer is to decide and no
worker has taken the decision (`Game.computer_taken` is not the game's version), the one of the
person served least recently (`ComputerShare.served`; never served first), the oldest of theirs
first. Taking it is one conditional update, so two workers never take the same decision: the one
that loses the race takes the next. The person's `served` is set as it is taken.

Each decision handed out sends one message, and each message takes at most one decision, so a
waiting decision always has a message on its way to some worker. While k people have decisions
waiting, a decision waits for at most k - 1 decisions of other people to be taken before its
own person's turn, however many games each of them runs, plus those already being thought
about (the same guarantee as a server's runner, runtime/round_robin.py).

Limits: the choice looks at the `WINDOW` longest-waiting decisions (at most 3 per person, the
cap on games against the computer, so the window holds at least the oldest 166 people's). A
game whose two seats are both the computer's has no person: it counts as never served.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F
from django.utils import timezone

from ..models import ComputerShare, Game, Seat
from .computer import to_move

WINDOW = 500


def take_turn(at: datetime | None = None) -> int | None:
    """Take the computer's waiting decision that is next in turn, for this worker alone: the
    game's id, or None when none is waiting."""
    at = at or timezone.now()
    waiting = list(
        to_move()
        .exclude(computer_taken=F("version"))
        .order_by("computer_since", "pk")
        .values_list("pk", "version")[:WINDOW]
    )
    if not waiting:
        return None
    people = dict(
        Seat.objects.filter(
            game_id__in=[pk for pk, _ in waiting], player__computer_level=""
        ).values_list("game_id", "player_id")
    )
    served = dict(
        ComputerShare.objects.filter(player_id__in=set(people.values())).values_list(
            "player_id", "served"
        )
    )
    never = datetime.min.replace(tzinfo=at.tzinfo)
    # `sorted` is stable: among equals, the longest waiting first.
    for pk, version in sorted(waiting, key=lambda w: served.get(people.get(w[0]), never)):
        won = (
            Game.objects.filter(pk=pk, version=version, status=Game.ACTIVE)
            .exclude(computer_taken=version)
            .update(computer_taken=version)
        )
        if won:
            person = people.get(pk)
            if person is not None:
                ComputerShare.objects.bulk_create(
                    [ComputerShare(player_id=person, served=at)],
                    update_conflicts=True,
                    unique_fields=["player"],
                    update_fields=["served"],
                )
            return pk
    return None
