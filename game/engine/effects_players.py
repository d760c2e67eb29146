"""Shared operations about players: life, their library and hand, venturing, the initiative."""

from __future__ import annotations

from .carddef import Step
from .choices import Gen, choose_objects, yes_no
from .continuous import player_has_hexproof
from .decisions import Decision, Option
from .dungeon import venture, venture_restricted
from .effects import Ctx, gain_life, lose_life, players_for, run_steps
from .initiative import take_initiative
from .kinds import CHOOSE_DUNGEON, CHOOSE_ROOM, DISCARD, SCRY, SCRY_ORDER, YES_NO
from .ops import (
    ANY,
    BOOL,
    INT,
    TARGET,
    TEXT,
    WINS,
    Param,
    Reading,
    Worth,
    amount_of,
    op,
    per_amount,
    reading,
)
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


def _side(g: GameState, seat: str, step: Step, *, harms: bool) -> int:
    """Whose players a `who` step names, to the player whose effect it is: 1 its own, -1 its
    opponents', 0 each player's (alike for both). A target player is the one the computer picks:
    the other player for a step that hurts, itself for one that helps, and itself whatever the
    step does while the other player has hexproof (Keen-Eared Sentry): it can't be targeted by
    the seat's abilities (CR 702.11d), so a "target player" room must name the seat."""
    who = str(step.get("who", "you"))
    if who == "you":
        return 1
    if who == "each_player":
        return 0
    if who.startswith("target"):
        return -1 if harms and not player_has_hexproof(g, g.opponent(seat)) else 1
    return -1


def _life_lost_worth(g: GameState, seat: str, step: Step) -> float:
    """An opponent's life counts double once it is low; "each player loses N" favours the one
    with more life; one's own life lost is a cost."""
    n = amount_of(step)
    opp = g.opponent(seat)
    who = str(step.get("who", "you"))
    if who.startswith("target") and _side(g, seat, step, harms=True) == 1:
        who = "you"  # the only player it may target is the seat itself
    # Their last life, and not one's own as well: the game is won.
    names_them = who in ("each_opponent", "each_player") or who.startswith("target")
    mine_too = who == "each_player" and g.player(seat).life <= n
    if names_them and g.player(opp).life <= n and not mine_too:
        return WINS
    if who == "each_opponent" or who.startswith("target"):
        return 0.6 * n * (2.0 if g.player(opp).life <= 6 else 1.0)
    if who == "each_player":
        return 0.3 * n * (1 if g.player(opp).life < g.player(seat).life else -1)
    # One's own last life lost loses the game.
    return -WINS if g.player(seat).life <= n else -0.5 * n


def _for_each_named(each: float, *, harms: bool) -> Worth:
    """`each` per amount for what the step does to its players, by whose they are (`_side`)."""

    def worth(g: GameState, seat: str, step: Step) -> float:
        return each * amount_of(step) * _side(g, seat, step, harms=harms)

    return worth


@op(
    "lose_life",
    WHO,
    amount(required=True),
    Param("target", TARGET),
    does="each named player loses life",
    reads=Reading(harms=True, worth=_life_lost_worth, drains=True),
)
def op_lose_life(g: GameState, ctx: Ctx, step: Step) -> None:
    for name in players_for(g, ctx, step.get("who", "you")):
        lose_life(g, name, step["amount"])


@op(
    "gain_life",
    WHO,
    amount(required=True),
    does="each named player gains life",
    reads=Reading(harms=False, worth=_for_each_named(0.3, harms=False)),
)
def op_gain_life(g: GameState, ctx: Ctx, step: Step) -> None:
    for name in players_for(g, ctx, step.get("who", "you")):
        gain_life(g, name, step["amount"])


@op(
    "draw",
    WHO,
    amount(),
    does="draw cards (one unless amount says)",
    reads=Reading(harms=False, worth=_for_each_named(1.6, harms=False)),
)
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
    reads=Reading(harms=False, worth=per_amount(0.35)),
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
    g.disclose(f"{player} looked at the top of their library")
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


@op(
    "discard",
    WHO,
    amount(),
    asks=(DISCARD,),
    does="discard cards of the player's choice",
    # A rough 0.5 a step (whatever the amount), a cost when it is one's own.
    reads=Reading(harms=True, worth=lambda g, seat, step: -0.5 * _side(g, seat, step, harms=True)),
)
def op_discard(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for name in players_for(g, ctx, step.get("who", "you")):
        hand = g.player(name).hand
        chosen = yield from choose_objects(
            g, name, list(hand), step.get("amount", 1), "Choose a card to discard", DISCARD
        )
        for o in chosen:
            discard(g, o)


# Shuffling a library nobody has looked at changes nothing anyone knows.
@op("shuffle", does="shuffle your library", reads=Reading(harms=False, worth=0.0))
def op_shuffle(g: GameState, ctx: Ctx, step: Step) -> None:
    shuffle(g, ctx.controller)


def _venture_worth(g: GameState, seat: str, step: Step) -> float:
    """A venture is worth the best room it can enter next (what its steps read as), and at least
    a flat 0.5 (a dungeon not yet entered, the bottom room, a room further on)."""
    p = g.player(seat)
    if p.dungeon is None or venture_restricted(g, seat):
        return VENTURE
    spec = p.dungeon.spec
    here = spec.rooms[p.dungeon.room]
    best = VENTURE
    for name in here.leads_to:
        steps = spec.rooms[name].effect
        # A room that ventures again is counted flat: the marker hasn't moved yet.
        best = max(best, sum(_flat_venture(g, seat, s) for s in steps))
    return best


def _flat_venture(g: GameState, seat: str, step: Step) -> float:
    found = reading(step)
    return VENTURE if found is VENTURE_READING else found.value(g, seat, step)


VENTURE = 0.5
VENTURE_READING = Reading(harms=False, worth=_venture_worth, ventures=True)


@op(
    "venture",
    Param("undercity", BOOL, help="Venture into Undercity instead (CR 701.49d)."),
    asks=(CHOOSE_DUNGEON, CHOOSE_ROOM),
    does="venture into the dungeon (or into Undercity)",
    reads=VENTURE_READING,
)
def op_venture(g: GameState, ctx: Ctx, step: Step) -> Gen:
    yield from venture(g, ctx.controller, undercity=step.get("undercity", False))


@op(
    "take_initiative",
    does="you take the initiative (CR 725)",
    reads=Reading(harms=False, worth=0.5),
)
def op_take_initiative(g: GameState, ctx: Ctx, step: Step) -> None:
    take_initiative(g, ctx.controller)


@op(
    "may",
    Param("prompt", TEXT),
    Param("then", ANY, required=True),
    asks=(YES_NO,),  # and whatever its steps ask, each declared by its own operation
    data=False,
    # "You may": its steps, done only when they help.
    reads=Reading(
        harms=lambda step: any(reading(s).hurts(s) for s in step["then"]),
        worth=lambda g, seat, step: max(
            0.0, sum(reading(s).value(g, seat, s) for s in step["then"])
        ),
    ),
)
def op_may(g: GameState, ctx: Ctx, step: Step) -> Gen:
    if (yield from yes_no(g, ctx.controller, step.get("prompt", "Do you want to?"))):
        yield from run_steps(g, ctx, step["then"])
