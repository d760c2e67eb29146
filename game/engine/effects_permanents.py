"""Shared operations about permanents, cards and the stack: tokens, counters, "gets +X/+Y",
destroying, damage, countering, returning, goad, explore, equip."""

from __future__ import annotations

from .carddef import KEYWORDS, Step
from .choices import Gen, yes_no
from .continuous import chars
from .effects import Ctx, counter, deal_damage, objects_for, targets_of, token_def
from .effects_players import amount
from .kinds import YES_NO
from .ops import ANY, BOOL, INT, PAIR, TARGET, TEXT, WORDS, Boost, Param, Reading, amount_of, op
from .state import ContinuousEffect, GameState
from .targets import numbered_name, whose_name
from .tokens import TOKENS
from .zones import create_token, destroy, move, put_onto_battlefield, sacrifice

TARGET_PARAM = Param(
    "target",
    TARGET,
    help="A new target (its kind), an earlier one again (#0, #1), this permanent (self), or "
    "what the previous step made (it).",
)
DURATIONS = ("end_of_turn", "until_next_turn", "permanent")


def _has_creature(g: GameState, player: str) -> bool:
    return any("Creature" in chars(g, o).types for o in g.controlled(player))


def _aimed(g: GameState, seat: str, harms: bool) -> bool:
    """Is there a creature for the step to name: the other player's for a step that hurts, one
    of `seat`'s own for one that helps?"""
    return _has_creature(g, g.opponent(seat) if harms else seat)


def _token_worth(g: GameState, seat: str, step: Step) -> float:
    """Tokens by what they are: a Treasure, a small creature, a 4-power one, a 4/4; a legendary
    one is worth nothing while the seat has one of that name (the legend rule keeps one,
    CR 704.5j)."""
    token = token_def(step["token"])
    count = int(step.get("count", 1))
    if "Legendary" in token.supertypes:
        if any(o.name == token.name for o in g.controlled(seat)):
            return 0.0
        count = min(count, 1)
    if "Creature" not in token.types:
        return 0.8 * count
    if (token.power or 0) >= 4:
        return (5.0 if (token.toughness or 0) >= 4 else 3.5) * count
    return 1.5 * count


def _counters_hurt(step: Step) -> bool:
    return step.get("counter", "+1/+1") == "-1/-1"


def _counters_worth(g: GameState, seat: str, step: Step) -> float:
    return 0.9 * amount_of(step) if _aimed(g, seat, _counters_hurt(step)) else 0.0


def _modify_hurts(step: Step) -> bool:
    """A smaller creature, one that can't attack, or one that becomes a small thing of a set
    size ("becomes a 1/1 Bird", aimed at a big creature) is a harm to its controller."""
    return (
        step.get("power", 0) < 0
        or step.get("toughness", 0) < 0
        or bool(step.get("cant_attack"))
        or bool(step.get("set_base"))
    )


def _modify_boost(step: Step) -> Boost | None:
    """Only "gets +X/+Y and gains …" until end of turn is a combat trick; a lasting change,
    a new base or new types are more than that."""
    if _modify_hurts(step) or step.get("duration", "end_of_turn") != "end_of_turn":
        return None
    if any(step.get(k) for k in ("set_base", "set_subtypes", "add_types")):
        return None
    return Boost(step.get("power", 0), step.get("toughness", 0), tuple(step.get("keywords", ())))


def _modify_worth(g: GameState, seat: str, step: Step) -> float:
    harms = _modify_hurts(step)
    if not _aimed(g, seat, harms):
        return 0.0
    return 1.0 if harms else 0.7


def _duration_text(duration: str, controller: str) -> str:
    """ "until your next turn" as the shared log says it: whose turn, by name (the log is one
    text for both players, so "your" would read as the reader's)."""
    if duration == "until_next_turn":
        return f" until {controller}'s next turn"
    return " until end of turn" if duration == "end_of_turn" else ""


def _tokens(desc: str, n: int) -> str:
    """A token's description with "token" once, plural for several: a description may say
    "token" itself, with words after it ("4/1 black Skeleton creature token with menace")."""
    word = "token" if n == 1 else "tokens"
    before, found, after = desc.partition(" token")
    if found and (not after or after.startswith(" ")):
        return f"{before} {word}{after}"
    return f"{desc} {word}"


@op(
    "create_token",
    Param("token", TEXT, required=True, choices=tuple(sorted(TOKENS)), help="Which token."),
    Param("count", INT, minimum=0, help="How many tokens."),
    Param("describe", TEXT, help="How the log names the token."),
    does="create tokens (" + ", ".join(TOKENS) + ")",
    reads=Reading(harms=False, worth=_token_worth),
)
def op_create_token(g: GameState, ctx: Ctx, step: Step) -> None:
    token = token_def(step["token"])
    made = create_token(g, token, ctx.controller, count=step.get("count", 1))
    desc = step.get("describe") or token.name
    g.note(f"{ctx.controller} creates {len(made)} {_tokens(desc, len(made))}")
    ctx.memory["created"] = made


@op(
    "add_counters",
    TARGET_PARAM,
    Param(
        "counter",
        TEXT,
        choices=("+1/+1", "-1/-1"),
        help="The kind of counter (+1/+1 unless given).",
    ),
    amount(),
    does="put counters on a creature",
    reads=Reading(harms=_counters_hurt, worth=_counters_worth),
)
def op_add_counters(g: GameState, ctx: Ctx, step: Step) -> None:
    for o in objects_for(g, ctx, step):
        kind = step.get("counter", "+1/+1")
        o.counters[kind] = o.counters.get(kind, 0) + step.get("amount", 1)
        n = step.get("amount", 1)
        g.note(
            f"{whose_name(g, o)} gets {'a' if n == 1 else n} {kind} counter{'' if n == 1 else 's'}"
        )


@op(
    "modify",
    TARGET_PARAM,
    Param("power", INT, help="Added to its power."),
    Param("toughness", INT, help="Added to its toughness."),
    Param(
        "keywords",
        WORDS,
        choices=tuple(sorted(KEYWORDS)),
        help="Keywords it gains, comma-separated, e.g. flying, haste.",
    ),
    Param("duration", TEXT, choices=DURATIONS, help="How long (end of turn unless given)."),
    Param("cant_attack", BOOL, help="It can't attack."),
    Param("set_base", PAIR, help="Base power/toughness it has, e.g. 1/1."),
    Param("set_subtypes", WORDS, help="Creature types it has instead, e.g. Bird."),
    Param("add_types", WORDS, card_only=True),
    Param("cant_be_blocked_by_walls", BOOL, card_only=True),
    does='"gets +X/+Y", "gains …", "can\'t attack", "becomes a 1/1 Bird" for a duration '
    "(end_of_turn, until_next_turn, permanent)",
    reads=Reading(harms=_modify_hurts, worth=_modify_worth, boost=_modify_boost),
)
def op_modify(g: GameState, ctx: Ctx, step: Step) -> None:
    """ "Target creature gets +X/+Y and gains KEYWORD until …" (a layer 6/7c effect)."""
    duration = step.get("duration", "end_of_turn")
    for o in objects_for(g, ctx, step):
        g.effects.append(
            ContinuousEffect(
                timestamp=g.new_timestamp(),
                affects=o.id,
                duration=duration,
                controller=ctx.controller,
                power=step.get("power", 0),
                toughness=step.get("toughness", 0),
                keywords=tuple(step.get("keywords", ())),
                cant_attack=step.get("cant_attack", False),
                cant_block_by_walls=step.get("cant_be_blocked_by_walls", False),
                set_base=tuple(step["set_base"]) if step.get("set_base") else None,  # type: ignore[arg-type]
                add_types=tuple(step.get("add_types", ())),
                set_subtypes=tuple(step["set_subtypes"]) if step.get("set_subtypes") else None,
                started_turn=g.turn,
            )
        )
        parts = []
        if step.get("power") or step.get("toughness"):
            parts.append(f"gets {_modifier(step.get('power', 0), step.get('toughness', 0))}")
        if step.get("keywords"):
            parts.append("gains " + " and ".join(step["keywords"]))
        if step.get("cant_attack"):
            parts.append("can't attack")
        if step.get("set_base"):
            parts.append("has base power and toughness {}/{}".format(*step["set_base"]))
        until = _duration_text(duration, ctx.controller)
        g.note(f"{whose_name(g, o)} {', '.join(parts) or 'is affected'}{until}")


# Destroy, damage, counter and return to hand are worth a rough 0.5 whatever they hit: no
# official room uses them, so the computer's room values never needed more.
@op(
    "destroy",
    TARGET_PARAM,
    does="destroy a permanent",
    reads=Reading(harms=True, worth=0.5, removes=True),
)
def op_destroy(g: GameState, ctx: Ctx, step: Step) -> None:
    for o in objects_for(g, ctx, step):
        name = whose_name(g, o)
        if destroy(g, o) is not None:
            g.note(f"{name} is destroyed")


@op(
    "damage",
    TARGET_PARAM,
    amount(required=True),
    does="deal damage",
    reads=Reading(harms=True, worth=0.5, damage=True),
)
def op_damage(g: GameState, ctx: Ctx, step: Step) -> None:
    item = ctx.item
    src = ctx.source(g)
    src_name = item.name if item else (src.name if src else "?")
    refs = targets_of(ctx, step.get("target", 0))
    division = item.division if item and item.division else None
    all_refs = item.targets[step.get("target", 0)] if item and item.targets else refs
    for i, ref in enumerate(all_refs):
        if ref not in refs:
            continue  # an illegal target gets none of the divided damage (CR 608.2b)
        dealt = division[i] if division else step["amount"]
        card = item.card.card if item and item.card else (src.card if src else None)
        kw = card.keywords if card else frozenset()
        deal_damage(
            g,
            src_name,
            src,
            ref,
            dealt,
            deathtouch="deathtouch" in kw,
            lifelink_to=ctx.controller if "lifelink" in kw else None,
        )


@op(
    "counter",
    TARGET_PARAM,
    does="counter a spell or ability",
    reads=Reading(harms=True, worth=0.5, removes=True),
)
def op_counter(g: GameState, ctx: Ctx, step: Step) -> None:
    for kind, value in targets_of(ctx, step.get("target", 0)):
        if kind == "stack":
            target = g.stack_item(value)
            if target is not None:
                counter(g, target, f"{ctx.item.name if ctx.item else 'an effect'}")


@op(
    "return_to_hand",
    TARGET_PARAM,
    does="return a card or permanent to its owner's hand",
    reads=Reading(harms=True, worth=0.5, removes=True),
)
def op_return_to_hand(g: GameState, ctx: Ctx, step: Step) -> None:
    for o in objects_for(g, ctx, step):
        name = whose_name(g, o)
        move(g, o, "hand")
        g.note(f"{name} is returned to its owner's hand")


@op(
    "goad",
    TARGET_PARAM,
    does="goad a creature (CR 701.15)",
    reads=Reading(harms=True, worth=lambda g, seat, step: 0.6 if _aimed(g, seat, True) else 0.0),
)
def op_goad(g: GameState, ctx: Ctx, step: Step) -> None:
    """Goad (CR 701.15): until your next turn it attacks each combat if able."""
    for o in objects_for(g, ctx, step):
        o.goaded_by[ctx.controller] = g.turn
        g.note(f"{ctx.controller} goads {o.name}", "CR 701.15a")


_EXPLORE_ASKS = " explores: put "
_EXPLORE_NO = " into your graveyard? (no: it stays on top of your library)"


def explore_question(explorer: str, card: str) -> str:
    """An explore's question about the nonland card it revealed (CR 701.44a), saying what the
    answer "no" does, since a player who has not met explore asks."""
    return f"{explorer}{_EXPLORE_ASKS}{card}{_EXPLORE_NO}"


def explored_card(prompt: str) -> str | None:
    """The card an explore's question names (what `explore_question` wrote), or None."""
    head, asks, rest = prompt.partition(_EXPLORE_ASKS)
    return rest.removesuffix(_EXPLORE_NO) if head and asks and rest.endswith(_EXPLORE_NO) else None


@op(
    "explore",
    TARGET_PARAM,
    asks=(YES_NO,),
    does="the creature explores (CR 701.44)",
    reads=Reading(harms=False, worth=0.5),
)
def op_explore(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Explore (CR 701.44): reveal the top card; a land goes to hand, otherwise a +1/+1
    counter and the card may go to the graveyard."""
    for o in objects_for(g, ctx, step):
        p = g.player(o.controller)
        if not p.library:
            g.note(f"{o.name} explores with an empty library: +1/+1 counter", "CR 701.44a")
            o.counters["+1/+1"] = o.counters.get("+1/+1", 0) + 1
            continue
        top = p.library[0]
        g.note(f"{o.name} explores: {p.name} reveals {top.name}", "CR 701.44a")
        g.disclose(f"{p.name} revealed the top card of their library")
        if "Land" in top.card.types:
            new = move(g, top, "hand")
            new.revealed = True
            g.note(f"{p.name} puts {top.name} into their hand", "CR 701.44a")
            continue
        if o.zone == "battlefield":
            o.counters["+1/+1"] = o.counters.get("+1/+1", 0) + 1
            g.note(f"{whose_name(g, o)} gets a +1/+1 counter", "CR 701.44a")
        if (yield from yes_no(g, p.name, explore_question(o.name, top.name))):
            move(g, top, "graveyard")
            g.note(f"{p.name} puts {top.name} into their graveyard")
        else:
            # The card was revealed, so where it stays is no secret.
            g.note(f"{p.name} keeps {top.name} on top of their library")


# Card code only: what these need (a source permanent, a card in a graveyard) a room lacks.
@op("attach", TARGET_PARAM, data=False, reads=Reading(harms=False, worth=0.7))
def op_attach(g: GameState, ctx: Ctx, step: Step) -> None:
    """Equip (CR 702.6a): attach this Equipment to target creature you control."""
    src = ctx.source(g)
    for o in objects_for(g, ctx, step):
        if src is not None:
            src.attached_to = o.id
            g.note(f"{whose_name(g, src)} is attached to {numbered_name(g, o)}", "CR 702.6a")


@op(
    "return_to_battlefield",
    TARGET_PARAM,
    Param("counters", ANY, card_only=True),  # {kind: how many}, entering with them
    Param("exile_if_leaves", BOOL, card_only=True),
    data=False,
    reads=Reading(harms=False, worth=3.0),  # a creature card back, roughly a 2/2
)
def op_return_to_battlefield(g: GameState, ctx: Ctx, step: Step) -> None:
    """Return target card from a graveyard to the battlefield under your control."""
    for o in objects_for(g, ctx, step):
        if o.zone != "graveyard":
            continue
        counters = dict(step.get("counters") or {})
        new = put_onto_battlefield(g, o, ctx.controller, counters=counters)
        if step.get("exile_if_leaves"):
            new.exile_if_leaves = True
        g.note(f"{new.name} is put onto the battlefield under {ctx.controller}'s control")
        ctx.memory["it"] = new


@op("sacrifice_self", data=False, reads=Reading(harms=False, worth=-1.0))
def op_sacrifice_self(g: GameState, ctx: Ctx, step: Step) -> None:
    src = ctx.source(g)
    if src is not None:
        sacrifice(g, src)


def _modifier(power: int, toughness: int) -> str:
    """ "+2/+0", "-4/-0": a zero takes the sign of the other half, as cards print it (Fungi
    Cavern's "-4/-0")."""

    def signed(n: int, other: int) -> str:
        return f"-{abs(n)}" if n < 0 or (n == 0 and other < 0) else f"+{n}"

    return f"{signed(power, toughness)}/{signed(toughness, power)}"
