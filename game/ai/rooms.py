"""What a dungeon room is worth to the player venturing into it.

Rooms are data (official or made in the admin), so a room is valued from its effect steps: each
step is worth what its operation's declared reading says (`ops.Reading.worth`, beside the
operation), read against the position (a +1/+1 counter needs a creature of one's own, "each
player loses 2 life" costs the one with less life more). A path is worth its room plus most of
the best path after it, so a choice looks ahead to the bottom of the dungeon.
"""

from __future__ import annotations

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
