"""Where the pace feature stops a player who holds priority, from public information only.

Passing for a player only when they could do nothing would tell the opponent whether they hold
something they can play: the game would pause on "bob has priority" exactly when bob has an
instant. So whether a player is stopped depends on what both players can see (the stack, the
step, whose turn it is, combat, the number of cards in the player's hand, what the player can do
with cards and permanents that are not in their hand) and on the player's own stop settings.
Never on what the hand holds.

A player is stopped at a *stop point* when they have the *means* to do something there:

- stop points: a spell or activated ability the opponent controls on top of the stack; their
  triggered ability (a room's too) if it targets the player or something of theirs, or if the
  player turned that on (`THEIR_TRIGGERS`); the opponent's attack, once attackers are declared;
  and, with an empty stack, each step the player turned on (a stop key `mine:<step>` for their
  own turn, `theirs:<step>` for the opponent's; `DEFAULT_STOPS` until they change it), except
  the declare blockers step of an attack no creature of the defending player could block
  (untapped creatures able to block are public: nothing happened since the attack). The
  player's own spell or ability on top of the stack is never a stop point: it resolves unless
  the opponent responds (their own triggers with nothing to choose resolve without asking).
- means: a permanent or a card in a public zone offering something besides mana; or, holding
  cards, mana to spend (an untapped source, mana in the pool: every card of the pool costs at
  least one mana, `cheapest_from_hand`), or a land still to play in their own main phase.

A stop point passed for want of means is explained in the log (`passed_because`). Every other
decision than priority always asks; "Full control" (services/pace.py) stops at every priority.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from .cards import CARDS
from .combat import block_pairs, can_attack
from .decisions import Decision
from .kinds import PRIORITY
from .state import LANDS_PER_TURN, MAIN_STEPS, STEPS, GameState, StackItem

# Steps where a player may get priority (CR 502.4: none in untap; 514.3: cleanup only rarely).
STOP_STEPS = tuple(s for s in STEPS if s not in ("untap", "cleanup"))
SIDES = ("mine", "theirs")
STEP_LABELS = {
    "upkeep": "upkeep",
    "draw": "draw step",
    "precombat_main": "main 1",
    "beginning_of_combat": "combat",
    "declare_attackers": "attackers",
    "declare_blockers": "blockers",
    "combat_damage": "combat damage",
    "end_of_combat": "end of combat",
    "postcombat_main": "main 2",
    "end": "end step",
}
# Your main phases (to play lands and spells) and, in any attack, the moment blocks are known
# (combat tricks). The opponent's end step is off: a turn where the opponent does nothing then
# costs the other player no click; a player holding instants turns it on in the phase strip.
DEFAULT_STOPS = frozenset(
    {
        "mine:precombat_main",
        "mine:postcombat_main",
        "mine:declare_blockers",
        "theirs:declare_blockers",
    }
)
# The opponent's triggered abilities (room abilities included), whoever's turn it is. Off by
# default: a dungeon player's turn is a string of room abilities, and stopping on each of them
# (four to eleven presses a turn in a playtest) buries what an Arena or MTGO player expects to
# be asked about, what the opponent chooses to do: their spells and activated abilities, which
# still stop you, as their attack does, and a trigger that targets you or what is yours. A
# player who wants to answer every trigger turns it on.
THEIR_TRIGGERS = "theirs:triggers"
# The computer clicks nothing, so a stop costs it no more than a person's wait for its answer;
# it stops at the other player's end step too, where Medium and Hard cast their flash creatures
# and instants (docs/ai.md). Like a person's, its stops read public information only.
COMPUTER_STOPS = DEFAULT_STOPS | {"theirs:end"}
# Asked even when only one answer is possible (engine/forced.py): off by default, the answer is
# then given for the player and logged. Kept with the stops, the player's other pace settings.
ASK_FORCED = "ask:forced"
ALL_STOP_KEYS = frozenset(f"{side}:{step}" for side in SIDES for step in STOP_STEPS) | {
    THEIR_TRIGGERS,
    ASK_FORCED,
}


def _aims_at(g: GameState, item: StackItem, player: str) -> bool:
    """Whether `item` targets `player`, a permanent they control or a spell or ability of
    theirs: their chance to answer it stays whatever their trigger setting (targets are
    public, CR 601.2c and 603.3d)."""
    for refs in item.targets:
        for kind, value in refs:
            if kind == "player":
                controller = value
            elif kind == "stack":
                aimed = g.stack_item(value)
                controller = aimed.controller if aimed is not None else None
            else:
                permanent = g.permanent(value)
                controller = permanent.controller if permanent is not None else None
            if controller == player:
                return True
    return False


def stop_key_problem(key: object) -> str | None:
    """Why `key` is not a stop key (None when it is one)."""
    if isinstance(key, str) and key in ALL_STOP_KEYS:
        return None
    shown = repr(key)[:40]
    return (
        f"{shown} is not a stop: a stop is {THEIR_TRIGGERS}, {ASK_FORCED}, or mine:<step> or "
        "theirs:<step>, the step one of " + ", ".join(STOP_STEPS) + "."
    )


def stops_from(stored: Iterable[str] | None) -> frozenset[str]:
    """A player's stop set from what was stored (None: never changed, the defaults); keys that
    are no longer stop keys are dropped."""
    if stored is None:
        return DEFAULT_STOPS
    return frozenset(k for k in stored if k in ALL_STOP_KEYS)


@functools.cache
def cheapest_from_hand() -> int:
    """The least mana anything in a hand can cost, over the whole card pool (public knowledge):
    casting a card (its adventure too) or activating an ability from the hand. A cost reduction
    is taken to remove all generic mana."""
    least = 99
    for card in CARDS.values():
        if "Land" in card.types:
            continue
        costs = [card.cost] + ([card.adventure.cost] if card.adventure is not None else [])
        for cost in costs:
            if cost is None:
                return 0
            reducible = card.cost_reduction is not None
            least = min(least, cost.mana_value - (cost.generic if reducible else 0))
        for ability in card.activated:
            if ability.zone == "hand":
                least = min(least, ability.mana.mana_value if ability.mana else 0)
    return least


def stops_at(g: GameState, d: Decision, stops: Iterable[str] = DEFAULT_STOPS) -> bool:
    """Whether the player deciding `d` is asked rather than passed for (not in full control)."""
    if d.kind != PRIORITY:
        return True
    moment = stop_point(g, d.player, frozenset(stops))
    return moment is not None and _lacks(g, d) is None


def has_means(g: GameState, d: Decision) -> bool:
    """Whether the player holding priority at `d` has the means to do something besides passing
    (the second half of being stopped, alone: what a puzzle's defender is asked by)."""
    return d.kind != PRIORITY or _lacks(g, d) is None


def passed_because(g: GameState, d: Decision, stops: Iterable[str] = DEFAULT_STOPS) -> str | None:
    """The log's sentence when `d` is a stop point of its player passed for want of means (None
    when it is not a stop point, or they are stopped). From public information only."""
    if d.kind != PRIORITY:
        return None
    moment = stop_point(g, d.player, frozenset(stops))
    if moment is None:
        return None
    lacking = _lacks(g, d)
    if lacking is None:
        return None
    return f"{d.player}'s priority is passed {moment}: {lacking}"


def stop_point(g: GameState, player: str, stops: frozenset[str]) -> str | None:
    """What makes this priority a stop point for `player` (words for the log), or None."""
    if g.stack:
        top = g.stack[-1]
        if top.controller == player:
            return None  # your own spell or ability resolves unless the opponent responds
        if top.triggered and THEIR_TRIGGERS not in stops and not _aims_at(g, top, player):
            return None
        return f"on {top.label}"
    if g.active != player and g.step == "declare_attackers" and _attacking(g):
        return "on the attack"
    if g.step == "declare_blockers" and _unblockable(g):
        return None  # nothing has happened since the attack: no creature could block it
    side = "mine" if g.active == player else "theirs"
    if f"{side}:{g.step}" in stops:
        return f"in {g.active}'s {STEP_LABELS[g.step]}"
    return None


def _lacks(g: GameState, d: Decision) -> str | None:
    """What the player lacks to do anything now (None: they have the means), from the options
    not sourced from the hand and the public counts."""
    player = d.player
    p = g.player(player)
    action, mana_source = _public_options(g, d)
    if action:
        return None
    if not p.hand:
        return "no cards in hand and nothing to activate"
    if mana_source or any(p.pool.values()) or cheapest_from_hand() == 0:
        return None
    own_main = g.active == player and g.step in MAIN_STEPS and not g.stack
    if own_main and p.lands_played < LANDS_PER_TURN:
        return None
    if own_main:
        return "no untapped mana source, and a land was already played this turn"
    return "no untapped mana source (every card costs mana)"


def _attacking(g: GameState) -> bool:
    return g.combat is not None and bool(g.combat.attackers)


def _unblockable(g: GameState) -> bool:
    """Whether an attack is on and nothing blocks it, nor could: the defending player has no
    untapped creature able to block any attacker (the battlefield's public information)."""
    c = g.combat
    return c is not None and bool(c.attackers) and not c.blockers and not block_pairs(g)


def _public_options(g: GameState, d: Decision) -> tuple[bool, bool]:
    """What the options whose source is not a card in the hand offer: something to do besides
    passing or making mana (a permanent's ability, a card castable from exile or the graveyard),
    and a mana ability (lands, Treasures…)."""
    hand_ids = {o.id for o in g.player(d.player).hand}
    action = mana = False
    for option in d.options:
        if option.id == "pass" or (option.objs and option.objs[0] in hand_ids):
            continue
        if option.data == "mana":
            mana = True
        else:
            action = True
    return action, mana


# the pass button's words ----------------------------------------------------------------------
def destination(
    g: GameState, player: str, stops: Iterable[str] = DEFAULT_STOPS, full_control: bool = False
) -> str:
    """Where passing priority now takes `player`, for the pass button: "Resolve Varis's
    ability", "To combat", "To main 2", "To end of turn", "To your turn". From public
    information and the player's own settings only; it assumes the opponent does nothing."""
    if g.stack:
        return f"Resolve {g.stack[-1].label}"
    stop_set = frozenset(stops)
    side = "mine" if g.active == player else "theirs"
    later = STEPS[STEPS.index(g.step) + 1 :] if g.step in STEPS else ()
    in_combat = g.combat is not None and bool(g.combat.attackers)
    for step in later:
        if step not in STEP_LABELS:
            continue
        if step in ("declare_blockers", "combat_damage") and not in_combat:
            continue  # CR 508.8: skipped without attackers
        if step == "declare_blockers" and _unblockable(g):
            continue  # not a stop when no creature could block (stop_point)
        if step == "declare_attackers" and g.active == player and _can_attack(g, player):
            return "To combat"  # declaring attackers is a decision: you are asked
        if full_control or f"{side}:{step}" in stop_set:
            label = STEP_LABELS[step]
            return "To combat" if step == "beginning_of_combat" else f"To {label}"
    return "To end of turn" if g.active == player else "To your turn"


def _can_attack(g: GameState, player: str) -> bool:
    return any(can_attack(g, o) for o in g.controlled(player))
