"""Tomb of Annihilation's own operations: Veils of Fear and Sandfall Cell ("… unless …"),
Oubliette (discard and sacrifice one of each type)."""

from __future__ import annotations

from ..carddef import Step
from ..choices import Gen, choose_objects
from ..continuous import chars
from ..decisions import Decision, Option
from ..effects import Ctx, lose_life, players_for
from ..effects_players import WHO, amount
from ..kinds import DISCARD, SACRIFICE, UNLESS
from ..ops import TEXT, WORDS, Param, Reading, amount_of, op
from ..state import GameState, Obj
from ..worth import permanent_value
from ..zones import discard, sacrifice

TYPE_WORDS = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker")
TYPES = Param(
    "types",
    WORDS,
    choices=TYPE_WORDS,
    help="Card types, comma-separated (Artifact, Creature, Land unless given).",
)


def _unless_worth(g: GameState, seat: str, step: Step) -> float:
    """Each player pays or loses the life: the one with more cards in hand pays more easily."""
    opp = g.opponent(seat)
    more = len(g.player(opp).hand) < len(g.player(seat).hand)
    return 0.2 * amount_of(step) * (1 if more else -1)


def _oubliette_worth(g: GameState, seat: str, step: Step) -> float:
    """Oubliette costs its controller a card and, for each type, the cheapest permanent of it
    (each a different one): worth minus what those are worth (`worth.permanent_value`: a land
    more while there are few, a card in hand about 1.6). With nothing to lose it costs nothing,
    and its short path completes the dungeon sooner."""
    cost = 1.6 if g.player(seat).hand else 0.0
    mine = g.controlled(seat)
    picked: set[int] = set()
    for role in step.get("types", ["Artifact", "Creature", "Land"]):
        pool = [o for o in mine if role in chars(g, o).types and o.id not in picked]
        if not pool:
            continue
        cheapest = min(pool, key=lambda o: (permanent_value(g, o), o.id))
        picked.add(cheapest.id)
        cost += permanent_value(g, cheapest)
    return -cost


@op(
    "lose_life_unless",
    WHO,
    amount(required=True),
    Param(
        "unless",
        TEXT,
        required=True,
        choices=("discard_card", "sacrifice"),
        help="What a player may do instead of losing the life.",
    ),
    TYPES,
    asks=(UNLESS, DISCARD, SACRIFICE),
    does='"each player loses N life unless they discard a card / sacrifice an artifact, a '
    'creature, or a land" — choices in APNAP order, then all results at once',
    reads=Reading(harms=True, worth=_unless_worth),
)
def op_lose_life_unless(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """ "Each player loses N life unless they [discard a card / sacrifice …]" (Veils of Fear,
    Sandfall Cell): each player in APNAP order chooses, then all results apply at once."""
    unless = step["unless"]
    decisions: list[tuple[str, Obj | None]] = []
    for name in players_for(g, ctx, step.get("who", "each_player")):
        p = g.player(name)
        if unless == "discard_card":
            pool = list(p.hand)
            cost = "discard a card"
        else:
            types = set(step.get("types", ["Artifact", "Creature", "Land"]))
            pool = [o for o in g.controlled(name) if types & chars(g, o).types]
            cost = "sacrifice an artifact, a creature, or a land"
        if not pool:
            decisions.append((name, None))
            continue
        # The options read as the actions they are; the earlier labels stay accepted by
        # scenario files (docs/scenarios.md).
        d = Decision(
            name,
            UNLESS,
            f"Lose {step['amount']} life unless you {cost}",
            [
                Option("pay", cost[0].upper() + cost[1:], former=(f"pay {cost}",)),
                Option("dont", f"Lose {step['amount']} life", former=("don't pay",)),
            ],
        )
        answer = yield d
        if answer == "dont":
            decisions.append((name, None))
            continue
        verb = DISCARD if unless == "discard_card" else SACRIFICE
        chosen = yield from choose_objects(g, name, pool, 1, f"Choose a card to {verb}", verb)
        decisions.append((name, chosen[0]))
    for name, obj in decisions:
        if obj is None:
            lose_life(g, name, step["amount"])
        elif unless == "discard_card":
            discard(g, obj)
        else:
            g.note(f"{name} sacrifices {obj.name}")
            sacrifice(g, obj)


@op(
    "discard_and_sacrifice_each",
    TYPES,
    asks=(DISCARD, SACRIFICE),
    does="Oubliette: discard a card and sacrifice one permanent of each type, each a "
    "different permanent",
    reads=Reading(harms=False, worth=_oubliette_worth),
)
def op_discard_and_sacrifice_each(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Oubliette: discard a card and sacrifice an artifact, a creature, and a land. One permanent
    fills only one role (docs/rules-coverage.md); a missing role simply does nothing."""
    me = ctx.controller
    hand = g.player(me).hand
    chosen = yield from choose_objects(g, me, list(hand), 1, "Choose a card to discard", DISCARD)
    picked: list[Obj] = []
    for role in step.get("types", ["Artifact", "Creature", "Land"]):
        pool = [o for o in g.controlled(me) if role in chars(g, o).types and o not in picked]
        got = yield from choose_objects(
            g,
            me,
            pool,
            1,
            f"Choose {('an' if role[0] in 'AE' else 'a')} {role.lower()} to sacrifice",
            SACRIFICE,
        )
        if not got:
            g.note(f"{me} has no {role.lower()} to sacrifice")
        picked += got
    for o in chosen:
        discard(g, o)
    for o in picked:
        g.note(f"{me} sacrifices {o.name}")
        sacrifice(g, o)
