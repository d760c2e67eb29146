"""What a dungeon room is worth to the player venturing into it.

Rooms are data (official or made in the admin), so a room is valued from its effect steps: a
value per operation, read against the position (a +1/+1 counter needs a creature of one's own,
"each player loses 2 life" costs the one with less life more). A path is worth its room plus
most of the best path after it, so a choice looks ahead to the bottom of the dungeon.
"""

from __future__ import annotations

from game.engine.carddef import Step
from game.engine.continuous import chars
from game.engine.state import GameState

COMPLETION = 2.0  # completing a dungeon (cards and the 704.5t check care)
LOOKAHEAD = 0.7


def step_value(g: GameState, seat: str, step: Step) -> float:
    op = step.get("op", "")
    amount = int(step.get("amount", 1) or 1)
    opp = g.opponent(seat)
    mine = [o for o in g.controlled(seat) if "Creature" in chars(g, o).types]
    theirs = [o for o in g.controlled(opp) if "Creature" in chars(g, o).types]
    who = step.get("who", "you")
    if op == "lose_life":
        if who == "each_opponent" or str(who).startswith("target"):
            return 0.6 * amount * (2.0 if g.player(opp).life <= 6 else 1.0)
        if who == "each_player":
            return 0.3 * amount * (1 if g.player(opp).life < g.player(seat).life else -1)
        return -0.5 * amount
    if op == "lose_life_unless":
        return 0.2 * amount * (len(g.player(opp).hand) < len(g.player(seat).hand) and 1 or -1)
    if op == "gain_life":
        return 0.3 * amount
    if op == "draw":
        return 1.6 * amount
    if op in ("draw_reveal_cast_free", "throne_of_the_dead_three"):
        return 5.0
    if op == "exile_top_may_play":
        return 1.2 * amount
    if op == "scry":
        return 0.35 * amount
    if op == "search_basic_land_to_hand":
        return 1.0
    if op == "create_token":
        count = int(step.get("count", 1) or 1)
        token = str(step.get("token", ""))
        if token == "Treasure":
            return 0.8 * count
        if "4/4" in str(step.get("describe", "")) or token == "The Atropal":
            return 5.0 * count
        if "4/1" in str(step.get("describe", "")):
            return 3.5 * count
        return 1.5 * count
    if op == "add_counters":
        return 0.9 * amount if mine else 0.0
    if op == "modify":
        harmful = step.get("power", 0) < 0 or step.get("cant_attack")
        if harmful:
            return 1.0 if theirs else 0.0
        return 0.7 if mine else 0.0
    if op == "goad":
        return 0.6 if theirs else 0.0
    if op == "discard_and_sacrifice_each":
        # Each player loses a card and a permanent of each type: good when they have more.
        return 0.5 * (len(g.controlled(opp)) - len(g.controlled(seat)))
    return 0.5


def room_value(g: GameState, seat: str, spec: object, room: str) -> float:
    r = spec.rooms[room]  # type: ignore[attr-defined]
    value = sum(step_value(g, seat, s) for s in r.effect)
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
