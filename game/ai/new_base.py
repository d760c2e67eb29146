"""What a new base power and toughness until end of turn is worth on a creature ("becomes a
Bird with base power and toughness 1/1 and flying until end of turn": Eccentric Apprentice at
the beginning of its controller's combat), to the seat whose spell or ability makes it.

On the seat's own turn such a change counts only where the creature fights before it ends. The
other player's creature fights only as a blocker, so what counts is whether it can block any of
the seat's attackers before and after: wings given to a ground creature that could block none of the
seat's fliers let it chump one, a gift whatever its smaller body costs it (a playtest: Hard made
a 3/4 with no reach a 1/1 flier before attacking with two fliers). The seat's own creature fights
only as an attacker, past a creature that could block it.
"""

from __future__ import annotations

from game.engine.carddef import Step
from game.engine.combat import can_attack
from game.engine.continuous import chars
from game.engine.state import GameState, Obj
from game.engine.worth import HELD_SHARE, creature_value, held_tapped

from .combat_math import Body, can_block
from .features import body


def new_base_worth(g: GameState, seat: str, obj: Obj, step: Step) -> float:
    """What the change `step` (a `set_base` modify) on `obj` gains `seat` (negative: a loss)."""
    theirs = obj.controller != seat
    bird = new_body(g, obj, step)
    change = _change(g, obj, bird)
    if step.get("duration", "end_of_turn") != "end_of_turn" or g.active != seat:
        return -change if theirs else change
    if bird.toughness <= 0:
        return -change if theirs else change  # it dies: the loss lasts past the turn
    if theirs:
        if obj.tapped:
            return 0.0
        attackers = [body(g, o) for o in g.controlled(seat) if can_attack(g, o)]
        now = body(g, obj)
        if not any(can_block(a, bird) for a in attackers):
            return 0.0  # in no fight after the change, nor before (it only gains keywords)
        if not any(can_block(a, now) for a in attackers):
            # Out of the fight until the change lets it block: what it gains is a blocker.
            return -bird.value
        return -change
    blockers = [o for o in g.controlled(g.opponent(seat)) if not o.tapped]
    if not can_attack(g, obj) or not any("Creature" in chars(g, o).types for o in blockers):
        # What it would gain as an attacker it cannot use; a smaller body still costs the
        # damage it would have dealt.
        return min(0.0, change)
    return change


def new_body(g: GameState, obj: Obj, step: Step) -> Body:
    """The creature as it will be: counters and boosts still apply on top of the new base
    (CR 613.4b, 613.4c), and it has the keywords it gains."""
    c = chars(g, obj)
    base_p, base_t = step["set_base"]
    power = max(0, base_p + c.power - (obj.card.power or 0))
    toughness = base_t + c.toughness - (obj.card.toughness or 0) - obj.damage
    keywords = c.keywords | frozenset(step.get("keywords", ()))
    value = 0.0 if toughness <= 0 else creature_value(power, toughness, keywords)
    return Body(obj.id, power, toughness, keywords, value)


def _change(g: GameState, obj: Obj, bird: Body) -> float:
    """What the change (to `bird`, `new_body`) does to the creature's worth: a 1/2 deathtouch
    creature with three +1/+1 counters made a 1/1 flier is a 4/4 deathtouch flier, hardly smaller
    and now able to block a flier."""
    c = chars(g, obj)
    before = creature_value(max(0, c.power), c.toughness - obj.damage, c.keywords)
    worth = bird.value - before
    return worth * HELD_SHARE if held_tapped(g, obj) else worth
