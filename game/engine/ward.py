"""Ward (CR 702.21) and every "counter it unless that player pays" (CR 118.12a).

Ward triggers when a permanent becomes the target of a spell or ability an opponent controls,
once per ward instance (Plate Armor adds a second), as the targeting object is put on the stack.
"""

from __future__ import annotations

from .choices import Gen
from .continuous import chars
from .decisions import Decision, Option
from .effects import Ctx, counter
from .kinds import PAY_WARD
from .mana import parse_cost
from .ops import TEXT, Param, Reading, op
from .payment import can_pay, pay_mana
from .state import GameState, PendingTrigger, StackItem


def becomes_target(g: GameState, item: StackItem) -> None:
    """Each permanent `item` targets "becomes the target" now (CR 702.21a, 115.10)."""
    seen: set[int] = set()
    for refs in item.targets:
        for kind, value in refs:
            if kind != "obj" or value in seen:
                continue
            seen.add(value)
            o = g.permanent(value)
            if o is None or o.controller == item.controller:
                continue  # ward only answers spells and abilities an opponent controls
            for cost in chars(g, o).ward:
                g.pending_triggers.append(
                    PendingTrigger(
                        name=o.name,
                        controller=o.controller,
                        text=(
                            f"Ward {cost} — counter {item.subject} unless {item.controller} "
                            f"pays {cost}."
                        ),
                        effect=[{"op": "ward", "cost": cost}],
                        target_specs=[],
                        source_id=o.id,
                        source_name=o.name,
                        event={
                            "item": item.id,
                            "item_name": item.subject,
                            "payer": item.controller,
                        },
                    )
                )


# Put on the stack by becomes_target above; no card or room names it.
# To ward's controller: the opponent's spell countered or a cost paid.
@op(
    "ward",
    Param("cost", TEXT, required=True),
    asks=(PAY_WARD,),
    data=False,
    reads=Reading(harms=False, worth=0.5),
)
def op_ward(g: GameState, ctx: Ctx, step: dict) -> Gen:
    item = g.stack_item(ctx.event["item"])
    name = ctx.event["item_name"]
    if item is None:
        g.note(f"Ward: {name} has already left the stack, so nothing happens")
        return
    payer = ctx.event["payer"]
    cost_text = step["cost"]
    cost = parse_cost(cost_text)
    paid = False
    if can_pay(g, payer, cost):
        # "Unless … pays" offers paying only when it can be paid right now (docs/scenarios.md).
        note = " (it can't be countered, so it resolves anyway)" if item.cant_be_countered else ""
        answer = yield Decision(
            payer,
            PAY_WARD,
            f"Pay {cost_text} or {name} is countered (ward){note}",
            [
                Option("pay", f"Pay {cost_text}", former=(f"pay {cost_text}",)),
                Option(
                    "dont",
                    f"Don't pay: {name} is countered",
                    # An ability was once named as its source ("Stirring Bard is countered").
                    former=("don't pay",)
                    + ((f"Don't pay: {item.name} is countered",) if name != item.name else ()),
                ),
            ],
        )
        if answer == "pay":
            pay_mana(g, payer, cost)
            paid = True
            g.note(f"{payer} pays {cost_text} for ward", "CR 702.21a")
    if not paid:
        g.note(f"{payer} doesn't pay {cost_text} for ward", "CR 702.21a")
        counter(g, item, "ward", "CR 702.21a")
