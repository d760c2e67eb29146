"""Dungeon of the Mad Mage's own operations: Runestone Caverns (exile the top cards, you may
play them) and Mad Wizard's Lair (draw and reveal, cast one free)."""

from __future__ import annotations

from ..carddef import Step
from ..casting import cast_spell, targets_possible
from ..choices import Gen
from ..decisions import Decision, Option
from ..effects import Ctx
from ..effects_players import amount
from ..kinds import CAST_FREE
from ..ops import BOOL, CASTING, TEXT, Param, Reading, op, per_amount
from ..state import GameState
from ..zones import draw, move


@op(
    "exile_top_may_play",
    amount(),
    Param(
        "until",
        TEXT,
        choices=("end_of_turn", "end_of_next_turn", "end_of_game"),
        help="How long they may be played (until the end of the game unless given).",
    ),
    Param("free", BOOL, card_only=True),
    does="Runestone Caverns: exile the top cards; you may play them (until end_of_turn, "
    "end_of_next_turn or end_of_game)",
    reads=Reading(harms=False, worth=per_amount(1.2)),  # nearly a card drawn, each
)
def op_exile_top_may_play(g: GameState, ctx: Ctx, step: Step) -> None:
    """Exile the top N cards; you may play them. Runestone Caverns states no duration, so the
    permission lasts until the end of the game (CR 611.2a; docs/rules-coverage.md)."""
    p = g.player(ctx.controller)
    next_turn = g.turn + (2 if g.active == ctx.controller else 1)
    until = {"end_of_turn": g.turn, "end_of_next_turn": next_turn}.get(
        step.get("until", "end_of_game"), 10**9
    )
    for _ in range(step.get("amount", 1)):
        if not p.library:
            break
        o = move(g, p.library[0], "exile")
        o.revealed = True
        o.play_until = (ctx.controller, until)
        o.play_free = bool(step.get("free"))
        g.note(f"{ctx.controller} exiles {o.name} and may play it")


@op(
    "draw_reveal_cast_free",
    amount(),
    asks=(CAST_FREE, *CASTING),
    does="Mad Wizard's Lair: draw and reveal; you may cast one of them without paying its "
    "mana cost",
    reads=Reading(harms=False, worth=5.0),  # three cards and a spell cast for free
)
def op_draw_reveal_cast_free(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Mad Wizard's Lair: draw three cards and reveal them; you may cast one of them without
    paying its mana cost (CR 608.2g: cast while the ability resolves, timing ignored)."""
    me = ctx.controller
    drawn = draw(g, me, step.get("amount", 3))
    for o in drawn:
        o.revealed = True
    g.note(f"{me} draws and reveals {', '.join(o.name for o in drawn) or 'nothing'}")
    options = []
    for o in drawn:
        if o.zone != "hand":
            continue
        # An adventurer card may be cast as either half (CR 715.3, 715.3d).
        for face, adventure in ((o.card, False), (o.card.adventure, True)):
            if face is None or "Land" in face.types or face.cost is None:
                continue
            if targets_possible(g, me, face.spell_targets):
                kind = "adv" if adventure else "card"
                options.append(Option(f"{kind}:{o.id}", f"cast {face.name}", (o.id,), o))
    if not options:
        g.note(f"{me} has no card among them that can be cast")
        return
    options.append(Option("none", "don't cast"))
    answer = yield Decision(
        me, CAST_FREE, "You may cast one of them without paying its mana cost", options
    )
    if answer == "none":
        return
    chosen = next(opt for opt in options if opt.id == answer)
    yield from cast_spell(
        g,
        me,
        chosen.data,  # type: ignore[arg-type]
        free=True,
        adventure=answer.startswith("adv:"),
    )
