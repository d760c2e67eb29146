"""What a dungeon room is worth to the player venturing into it.

Rooms are data (official or made in the admin), so a room is valued from its effect steps: each
step is worth what its operation's declared reading says (`ops.Reading.worth`, beside the
operation), read against the position (a +1/+1 counter needs a creature of one's own, "each
player loses 2 life" costs the one with less life more). A path is worth its room plus most of
the best path after it, so a choice looks ahead to the bottom of the dungeon.
"""

from __future__ import annotations

from game.engine.continuous import player_has_hexproof
from game.engine.dungeon import dungeon_choices, venture_restricted
from game.engine.ops import reading
from game.engine.state import GameState
from game.engine.worth import creature_value

COMPLETION = 2.0  # completing a dungeon (cards and the 704.5t check care)
LOOKAHEAD = 0.7
# A card that waits on a dungeon's completion by name and is not a creature.
WAITING_CARD = 2.0


def room_value(g: GameState, seat: str, spec: object, room: str) -> float:
    r = spec.rooms[room]  # type: ignore[attr-defined]
    value = sum(reading(s).value(g, seat, s) for s in r.effect)
    if not r.leads_to:
        value += COMPLETION + wanted_completion(g, seat, spec.name)  # type: ignore[attr-defined]
    return value


def wanted_completion(g: GameState, seat: str, dungeon: str, *, hand: bool = True) -> float:
    """What completing `dungeon` is worth to `seat` beyond any completion: its cards that wait on
    that dungeon by name, read from their text ("if you haven't completed Tomb of Annihilation":
    Acererak the Archlich stays on the battlefield as a 5/5 only then), each name once, a
    creature by its worth. Its permanents, and its hand when `hand` (the seat's own; the other
    player's is hidden). Nothing once the dungeon has been completed."""
    p = g.player(seat)
    if any(name == dungeon for name, _ in p.completed):
        return 0.0
    phrase = f"completed {dungeon}"
    cards = [o.card for o in g.controlled(seat)] + ([o.card for o in p.hand] if hand else [])
    waiting = {c.name: c for c in cards if phrase in c.text}
    return sum(
        creature_value(c.power, c.toughness or 0, c.keywords, c)
        if "Creature" in c.types and c.power is not None
        else WAITING_CARD
        for c in waiting.values()
    )


def rooms_left(spec: object, room: str) -> int:
    """The fewest ventures after `room` that reach the bottom of the dungeon (0 at the bottom)."""
    rooms = spec.rooms  # type: ignore[attr-defined]
    frontier, seen, steps = [room], {room}, 0
    while frontier:
        if any(not rooms[r].leads_to for r in frontier):
            return steps
        frontier = [n for r in frontier for n in rooms[r].leads_to if n not in seen]
        seen.update(frontier)
        steps += 1
    return steps


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
    bottom, which completes the one it is in), and the progress: the rooms below come one
    venture sooner (`progress`)."""
    if venture_restricted(g, seat):
        return 0.0
    p = g.player(seat)
    if p.dungeon is not None:
        spec = p.dungeon.spec
        here = spec.rooms[p.dungeon.room]
        if here.leads_to:
            best = max(here.leads_to, key=lambda n: (room_score(g, seat, spec, n), n))
            return progress(g, seat, spec, best)
    names = dungeon_choices(g, undercity)
    if not names:
        return 0.0
    spec = g.dungeons[best_dungeon(g, seat, names)]
    return progress(g, seat, spec, spec.top)


def progress(g: GameState, seat: str, spec: object, room: str) -> float:
    """What entering `room` now is worth: the room itself, and the path below it one venture
    sooner. Put off by a venture, that path is worth `LOOKAHEAD` of itself (room_score's
    discount), so coming sooner gains the rest. A first room that costs a little ("each player
    loses 1 life" while behind on life) on the way to a bottom room worth a creature (Tomb of
    Annihilation, which keeps Acererak the Archlich) is worth entering: a player who never
    ventured there for the first room's sake never got to the bottom."""
    here = room_value(g, seat, spec, room)
    below = room_score(g, seat, spec, room) - here
    return here + (1 - LOOKAHEAD) * below


def drain(g: GameState, step: dict, venturer: str, victim: str) -> int:
    """The life `victim` loses to a step of `venturer`'s room (a step that `drains`: "each
    opponent loses 1 life", Trap!'s "target player loses 5 life", which the venturer aims at the
    other player unless that player has hexproof)."""
    r = reading(step)
    if not r.drains:
        return 0
    who = str(step.get("who", "you"))
    if who == "each_player":
        hit = True
    elif who == "you":
        hit = victim == venturer
    elif who.startswith("target"):
        hit = victim != venturer and not player_has_hexproof(g, victim)
    else:  # each opponent
        hit = victim != venturer
    return int(step.get("amount", 0)) if hit else 0


def initiative_drain(g: GameState, venturer: str, victim: str) -> int:
    """The most life `victim` can lose to the room `venturer` enters by venturing into Undercity
    once more (taking the initiative, or at its upkeep while holding it, CR 725.2): the rooms
    after its venture marker, or the first room of Undercity when it is in no dungeon or at the
    bottom of one. Public: both markers are on the table."""
    if venture_restricted(g, venturer):
        return 0
    p = g.player(venturer)
    rooms: list[tuple[object, str]] = []
    if p.dungeon is not None and p.dungeon.spec.rooms[p.dungeon.room].leads_to:
        spec = p.dungeon.spec
        rooms = [(spec, n) for n in spec.rooms[p.dungeon.room].leads_to]
    else:
        rooms = [(g.dungeons[n], g.dungeons[n].top) for n in dungeon_choices(g, True)]
    return max(
        (
            sum(drain(g, s, venturer, victim) for s in spec.rooms[room].effect)  # type: ignore[attr-defined]
            for spec, room in rooms
        ),
        default=0,
    )
