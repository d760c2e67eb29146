"""What a dungeon room is worth to the player venturing into it.

Rooms are data (official or made in the admin), so a room is valued from its effect steps: each
step is worth what its operation's declared reading says (`ops.Reading.worth`, beside the
operation), read against the position (a +1/+1 counter needs a creature of one's own, "each
player loses 2 life" costs the one with less life more). A path is worth its room plus most of
the best path after it, so a choice looks ahead to the bottom of the dungeon.
"""

from __future__ import annotations

from game.engine.dungeon import dungeon_choices, venture_restricted
from game.engine.ops import reading
from game.engine.state import GameState

COMPLETION = 2.0  # completing a dungeon (cards and the 704.5t check care)
LOOKAHEAD = 0.7


def room_value(g: GameState, seat: str, spec: object, room: str) -> float:
    r = spec.rooms[room]  # type: ignore[attr-defined]
    value = sum(reading(s).value(g, seat, s) for s in r.effect)
    if not r.leads_to:
        value += COMPLETION
    return value


def room_score(g: GameState, seat: str, spec: object, room: str, depth: int = 0) -> float:
    """The room's value plus the discounted best path below it."""
    r = spec.rooms[room]  # type: ignore[attr-defined]
    here = room_value(g, seat, spec, room)
    if not r.leads_to or depth > 12:
        return here
    return here + LOOKAHEAD * max(room_score(g, seat, spec, n, depth + 1) for n in r.leads_to)


def best_dungeon(g: GameState, seat: str, names: list[str]) -> str:
    """The dungeon whose rooms are worth most per venture (a short dungeon completes sooner)."""

    def score(name: str) -> tuple[float, str]:
        spec = g.dungeons[name]
        total = room_score(g, seat, spec, spec.top)
        return (total, name)

    return max(names, key=score)


def venture_value(g: GameState, seat: str, *, undercity: bool = False) -> float:
    """What venturing once more is worth to `seat`: the room it would enter, chosen as
    `choose_room` chooses (a new dungeon's first room when it has none or stands at the
    bottom, which completes the one it is in)."""
    if venture_restricted(g, seat):
        return 0.0
    p = g.player(seat)
    if p.dungeon is not None:
        spec = p.dungeon.spec
        here = spec.rooms[p.dungeon.room]
        if here.leads_to:
            best = max(here.leads_to, key=lambda n: (room_score(g, seat, spec, n), n))
            return room_value(g, seat, spec, best)
    names = dungeon_choices(g, undercity)
    if not names:
        return 0.0
    spec = g.dungeons[best_dungeon(g, seat, names)]
    return room_value(g, seat, spec, spec.top)
