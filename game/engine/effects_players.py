"""Shared operations about players: life, their library and hand, venturing, the initiative."""

from __future__ import annotations

from .cards.base import Step
from .choices import Gen, choose_objects, yes_no
from .decisions import Decision, Option
from .effects import Ctx, gain_life, lose_life, players_for, run_steps
from .kinds import CHOOSE_DUNGEON, CHOOSE_ROOM, DISCARD, SCRY, SCRY_ORDER, YES_NO
from .ops import ANY, BOOL, INT, TARGET, TEXT, Param, op
from .state import GameState
from .zones import discard, draw, shuffle

WHO = Param(
    "who",
    TEXT,
    choices=("you", "each_player", "each_opponent", "target"),
    pattern=r"target\d+",  # the target player of phrase N, as cards write it
    help="Whose: you (the default), each player, each opponent, or the target player.",
)


def amount(required: bool = False) -> Param:
    """How many; the same parameter in every operation that counts something."""
    return Param("amount", INT, required=required, minimum=0, help="How many (0 or more).")


@op(
    "lose_life",
    WHO,
    amount(required=True),
    Param("target", TARGET),
    does="each named player loses life",
)
def op_lose_life(g: GameState, ctx: Ctx, step: Step) -> None:
    for name in players_for(g, ctx, step.get("who", "you")):
        lose_life(g, name, step["amount"])


@op("gain_life", WHO, amount(required=True), does="each named player gains life")
def op_gain_life(g: GameState, ctx: Ctx, step: Step) -> None:
    for name in players_for(g, ctx, step.get("who", "you")):
        gain_life(g, name, step["amount"])


@op("draw", WHO, amount(), does="draw cards (one unless amount says)")
def op_draw(g: GameState, ctx: Ctx, step: Step) -> None:
    for name in players_for(g, ctx, step.get("who", "you")):
        n = step.get("amount", 1)
        got = draw(g, name, n)
        g.note(f"{name} draws {len(got)} card{'s' if len(got) != 1 else ''}")
        ctx.memory["drawn"] = got


@op(
    "scry",
    amount(required=True),
    asks=(SCRY, SCRY_ORDER),
    does="scry N (CR 701.22)",
)
def op_scry(g: GameState, ctx: Ctx, step: Step) -> Gen:
    yield from scry(g, ctx.controller, step["amount"])


def scry(g: GameState, player: str, n: int) -> Gen:
    """Scry N (CR 701.22): look at the top N, put any on the bottom, the rest back in any order."""
    p = g.player(player)
    top = p.library[:n]
    if not top:
        g.note(f"{player} scries {n} with an empty library", "CR 701.22a")
        return
    options = [Option(f"o{o.id}", o.name, (o.id,)) for o in top]
    d = Decision(
        player,
        SCRY,
        f"Scry {n}: choose the cards to put on the bottom of your library",
        options,
        multi=True,
        min_count=0,
        max_count=len(top),
    )
    answer = yield d
    bottom_ids = set(answer)
    by_id = {f"o{o.id}": o for o in top}
    # The cards go to the bottom in the order listed, top first (CR 701.22a: "in any order").
    bottom = [by_id[i] for i in answer]
    stay = [o for o in top if f"o{o.id}" not in bottom_ids]
    if len(stay) > 1:
        opts = [Option(f"o{o.id}", o.name, (o.id,)) for o in stay]
        d2 = Decision(
            player, SCRY_ORDER, "Order the cards on top (first = top)", opts, ordered=True
        )
        order = yield d2
        by = {f"o{o.id}": o for o in stay}
        stay = [by[i] for i in order]
    del p.library[: len(top)]
    p.library[:0] = stay
    p.library.extend(bottom)
    g.note(f"{player} scries {n}: {len(stay)} on top, {len(bottom)} on the bottom", "CR 701.22a")


@op("discard", WHO, amount(), asks=(DISCARD,), does="discard cards of the player's choice")
def op_discard(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for name in players_for(g, ctx, step.get("who", "you")):
        hand = g.player(name).hand
        chosen = yield from choose_objects(
            g, name, list(hand), step.get("amount", 1), "Choose a card to discard", DISCARD
        )
        for o in chosen:
            discard(g, o)


@op("shuffle", does="shuffle your library")
def op_shuffle(g: GameState, ctx: Ctx, step: Step) -> None:
    shuffle(g, ctx.controller)


@op(
    "venture",
    Param("undercity", BOOL, help="Venture into Undercity instead (CR 701.49d)."),
    asks=(CHOOSE_DUNGEON, CHOOSE_ROOM),
    does="venture into the dungeon (or into Undercity)",
)
def op_venture(g: GameState, ctx: Ctx, step: Step) -> Gen:
    from .dungeon import venture

    yield from venture(g, ctx.controller, undercity=step.get("undercity", False))


@op("take_initiative", does="you take the initiative (CR 725)")
def op_take_initiative(g: GameState, ctx: Ctx, step: Step) -> None:
    from .initiative import take_initiative

    take_initiative(g, ctx.controller)


@op(
    "may",
    Param("prompt", TEXT),
    Param("then", ANY, required=True),
    asks=(YES_NO,),  # and whatever its steps ask, each declared by its own operation
    data=False,
)
def op_may(g: GameState, ctx: Ctx, step: Step) -> Gen:
    if (yield from yes_no(g, ctx.controller, step.get("prompt", "Do you want to?"))):
        yield from run_steps(g, ctx, step["then"])
