"""A block decision as the defending seat sees it (`BlockProblem`): the attackers and who may
block each, the life, what holding the initiative is worth and the race against the creatures
that may attack next turn. Medium's blocks plan from it (blocks.py) and Hard's search ranks block
assignments by it; the attack rules in combat.py read the same next-turn attackers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from game.engine.continuous import chars
from game.engine.decisions import Decision
from game.engine.state import GameState, Obj
from game.engine.worth import abilities_of, held_tapped

from .answers import Answer
from .blocks import Blocks, Race, plan_blocks, plan_worth
from .combat_math import Body, fight
from .features import body
from .rooms import initiative_drain, venture_value

# Holding the initiative, apart from the rooms it ventures into (features.side_value's weight).
INITIATIVE = 3.0


@dataclass(frozen=True, slots=True)
class BlockProblem:
    """A block decision as the defending seat sees it: what `plan_blocks` plans from and
    `plan_worth` weighs a plan by."""

    attackers: list[Body]
    able: dict[int, list[Body]]  # attacker id: the creatures that may block it
    life: int
    at_walkers: frozenset[int]
    keep_clear: float
    on_hit: int
    race: Race | None

    def plan(self, slip: Callable[[float], bool] = lambda chance: False) -> Blocks:
        """The blocks `plan_blocks` makes of it (`slip`: Easy's)."""
        return plan_blocks(
            self.attackers,
            self.able,
            self.life,
            at_walkers=self.at_walkers,
            slip=slip,
            keep_clear=self.keep_clear,
            on_hit=self.on_hit,
            race=self.race,
        )

    def worth(self, blocks: Blocks) -> float:
        """What `blocks` are worth to the defender (`plan_worth`; a careful problem only)."""
        assert self.race is not None
        return plan_worth(
            self.attackers,
            blocks,
            self.life,
            race=self.race,
            keep_clear=self.keep_clear,
            on_hit=self.on_hit,
            at_walkers=self.at_walkers,
        )


def block_problem(g: GameState, d: Decision, seat: str, *, careful: bool) -> BlockProblem:
    """The block decision `d` of `seat`; without `careful` (Easy) the initiative, the drain that
    comes with it and the life race are left out."""
    attackers: dict[int, Body] = {}
    able: dict[int, list[Body]] = {}
    guard = lone_flier_guard(g, seat) if careful else None
    for opt in d.options:
        b, a = opt.data  # type: ignore[misc]
        if a.id not in attackers:
            attackers[a.id] = body(g, a)
        mine = body(g, b)
        if guard is not None and b.id == guard[0]:
            mine = replace(mine, value=mine.value + guard[1])
        able.setdefault(a.id, []).append(mine)
    # Every attacker counts, the ones nothing can block too: their damage is coming anyway.
    for o in g.battlefield:
        if g.combat and o.id in g.combat.attackers and o.id not in attackers:
            attackers[o.id] = body(g, o)
    aims = g.combat.attackers if g.combat else {}
    at_walkers = frozenset(aid for aid, whom in aims.items() if whom != seat)
    keep_clear = initiative_worth(g, seat) if careful else 0.0
    # Damage that reaches a player holding the initiative hands it over, and the room the
    # attacker ventures into may drain more (Trap!).
    on_hit = 0
    if careful and g.player(seat).initiative:
        on_hit = initiative_drain(g, g.opponent(seat), seat)
    return BlockProblem(
        list(attackers.values()),
        able,
        g.player(seat).life,
        at_walkers,
        keep_clear,
        on_hit,
        block_race(g, seat) if careful else None,
    )


def block_answer_worth(g: GameState, d: Decision, seat: str) -> Callable[[Answer], float]:
    """What each answer to the block decision `d` is worth to `seat` by Medium's own measure of
    a plan (`plan_worth`: what dies on each side, the life race, the initiative), from the
    combat calculator alone: Hard's search ranks every block assignment by it before it samples
    worlds (search.PRUNERS)."""
    p = block_problem(g, d, seat, careful=True)
    pairs = {opt.id: opt.data for opt in d.options}
    bodies = {b.id: b for group in p.able.values() for b in group}

    def worth(answer: Answer) -> float:
        blocks: dict[int, list[Body]] = {}
        for i in [answer] if isinstance(answer, str) else answer:
            b, a = pairs[i]  # type: ignore[misc]
            blocks.setdefault(a.id, []).append(bodies[b.id])
        return p.worth(blocks)

    return worth


def initiative_worth(g: GameState, seat: str) -> float:
    """What keeping the initiative through the other player's combat is worth to `seat` (0 when
    it doesn't hold it): combat damage to it hands the initiative over, and the other player
    ventures into Undercity as it takes it (CR 725.2), while the seat would venture at its own
    upkeep (both rooms as `rooms.venture_value` reads them)."""
    if not g.player(seat).initiative:
        return 0.0
    theirs = venture_value(g, g.opponent(seat), undercity=True)
    mine = venture_value(g, seat, undercity=True)
    return INITIATIVE + max(0.0, theirs) + max(0.0, mine)


def block_race(g: GameState, seat: str) -> Race:
    """The race as the seat blocks: the damage the other side's creatures out of this combat
    could deal next turn."""
    attacking = g.combat.attackers if g.combat else {}
    home = [
        body(g, o)
        for o in g.controlled(g.opponent(seat))
        if may_attack_later(g, o, upkeep_first=True) and o.id not in attacking
    ]
    return Race(sum(fight(b).to_defender for b in home))


def lone_flier_guard(g: GameState, seat: str) -> tuple[int, float] | None:
    """The seat's one creature able to block the other side's fliers (flying or reach), and
    what losing it costs beyond its own worth: a turn of those fliers' damage, which nothing
    else of the seat's can stop. None when the other side has no flier or the seat has no such
    creature or more than one. Medium and Hard blocked a 4/4 with their only reach creature (a
    3/3 Varis) and a Goblin, killed it and lost both, and died to a 4/5 flying Gargoyle two
    turns later (the scripted aggro player's game)."""
    fliers = [
        c.power
        for o in g.controlled(g.opponent(seat))
        if may_attack_later(g, o) and "flying" in (c := chars(g, o)).keywords
    ]
    if not fliers:
        return None
    guards = [
        o.id
        for o in g.controlled(seat)
        if "Creature" in (c := chars(g, o)).types
        and not c.cant_block
        and {"flying", "reach"} & c.keywords
    ]
    if len(guards) != 1:
        return None
    return guards[0], float(sum(max(0, p) for p in fliers))


def may_attack_later(g: GameState, o: Obj, *, upkeep_first: bool = False) -> bool:
    """A creature that could attack on its controller's next turn: not one held tapped through
    its untap step (Ray of Frost, CR 502.3), which the crack-back counted as 7 damage and kept a
    hasty 5/4 menace home from an attack on an empty board (a game against aggro). Unless the
    other player's upkeep comes first (`upkeep_first`: its controller is the active player) and
    its controller untaps a creature there (`untaps_at_their_upkeep`)."""
    c = chars(g, o)
    if "Creature" not in c.types or c.cant_attack or "defender" in c.keywords:
        return False
    return not held_tapped(g, o) or (upkeep_first and untaps_at_their_upkeep(g, o.controller))


def untaps_at_their_upkeep(g: GameState, seat: str) -> bool:
    """Whether `seat` untaps a creature at the other player's upkeep (White Plume Adventurer),
    which frees a creature Ray of Frost holds before its controller's next attack."""
    return any(
        t.trigger == "opponent_upkeep" and any(s.get("op") == "white_plume_untap" for s in t.effect)
        for o in g.controlled(seat)
        if (card := abilities_of(g, o)) is not None
        for t in card.triggers
    )


__all__ = [
    "INITIATIVE",
    "BlockProblem",
    "block_answer_worth",
    "block_problem",
    "block_race",
    "initiative_worth",
    "may_attack_later",
]
