"""Undercity's own operations: Secret Entrance (search for a basic land) and Throne of the Dead
Three."""

from __future__ import annotations

from ..carddef import Step
from ..choices import Gen, choose_objects, one_per_name
from ..decisions import Decision, Option
from ..effects import Ctx
from ..kinds import CHOOSE_CARD, SEARCH
from ..ops import INT, Param, Reading, op
from ..state import ContinuousEffect, GameState
from ..targets import whose_name
from ..zones import move, put_onto_battlefield, shuffle


@op(
    "search_basic_land_to_hand",
    asks=(SEARCH,),
    does="Secret Entrance: search for a basic land, reveal it, put it into your hand, shuffle",
    reads=Reading(harms=False, worth=1.0),
)
def op_search_basic_land_to_hand(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Secret Entrance: search for a basic land card, reveal it, put it into your hand, then
    shuffle. A search is always asked and may find nothing (CR 701.19b)."""
    me = ctx.controller
    p = g.player(me)
    lands = [o for o in p.library if "Basic" in o.card.supertypes and "Land" in o.card.types]
    g.disclose(f"{me} searched their library")
    options = one_per_name(lands)
    options.append(Option("none", "find nothing"))
    answer = yield Decision(me, SEARCH, "Search your library for a basic land card", options)
    if answer != "none":
        # Any copy's id is an answer (one_per_name): the copy it names is found.
        found = next(o for o in lands if f"o{o.id}" == answer)
        new = move(g, found, "hand")
        new.revealed = True
        g.note(f"{me} reveals {new.name} and puts it into their hand")
    else:
        g.note(f"{me} finds nothing")
    shuffle(g, me)
    g.note(f"{me} shuffles their library")


@op(
    "throne_of_the_dead_three",
    Param("reveal", INT, minimum=0, help="How many cards to reveal (10 unless given)."),
    Param("counters", INT, minimum=0, help="How many +1/+1 counters (3 unless given)."),
    asks=(CHOOSE_CARD,),
    does="Throne of the Dead Three: reveal the top cards, put a creature card among them onto "
    "the battlefield with +1/+1 counters and hexproof until your next turn, shuffle",
    reads=Reading(harms=False, worth=5.0),  # most often a big creature for free
)
def op_throne_of_the_dead_three(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Reveal the top ten; put a creature card from among them onto the battlefield with three
    +1/+1 counters (it enters with them); it gains hexproof until your next turn; shuffle."""
    me = ctx.controller
    p = g.player(me)
    top = p.library[: step.get("reveal", 10)]
    g.note(f"{me} reveals {', '.join(o.name for o in top) or 'nothing'}")
    if top:
        g.disclose(f"{me} revealed the top of their library")
    creatures = [o for o in top if "Creature" in o.card.types]
    chosen = yield from choose_objects(
        g, me, creatures, 1, "Choose a creature card to put onto the battlefield", CHOOSE_CARD
    )
    for o in chosen:
        new = put_onto_battlefield(g, o, me, counters={"+1/+1": step.get("counters", 3)})
        g.effects.append(
            ContinuousEffect(
                timestamp=g.new_timestamp(),
                affects=new.id,
                duration="until_next_turn",
                controller=me,
                keywords=("hexproof",),
                started_turn=g.turn,
            )
        )
        g.note(
            f"{whose_name(g, new)} enters with three +1/+1 counters and gains hexproof until "
            f"{me}'s next turn"
        )
    shuffle(g, me)
