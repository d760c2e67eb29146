"""The effect vocabulary: the steps that card abilities and dungeon rooms are made of.

A step is a dict `{"op": NAME, ...parameters}`. `OPS` maps each name to its implementation and
`STEP_PARAMS` lists the parameters each accepts, so dungeon data (and the admin) can be validated
against the same vocabulary the engine runs. Steps that name a target use `target: N`, the index
of the ability's target phrase.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cards.base import Step
from .choices import Gen, choose_objects, yes_no
from .continuous import chars
from .decisions import Decision, Option
from .state import ContinuousEffect, GameState, Obj, StackItem
from .targets import Ref, ref_name
from .zones import create_token, destroy, discard, draw, move, sacrifice, shuffle


@dataclass(slots=True)
class Ctx:
    """Who and what a resolving ability is about."""

    controller: str
    item: StackItem | None = None
    source_id: int | None = None
    event: dict[str, Any] = field(default_factory=dict)
    legal: list[list[Ref]] = field(default_factory=list)  # targets still legal, per phrase
    memory: dict[str, Any] = field(default_factory=dict)

    def source(self, g: GameState) -> Obj | None:
        return g.permanent(self.source_id) if self.source_id is not None else None


def run_steps(g: GameState, ctx: Ctx, steps: list[Step]) -> Gen:
    for step in steps:
        yield from OPS[step["op"]](g, ctx, step)


# helpers ------------------------------------------------------------------------------------
def players_for(g: GameState, ctx: Ctx, who: str) -> list[str]:
    if who == "you":
        return [ctx.controller]
    if who == "each_player":
        return [p for p in g.apnap() if not g.player(p).lost]
    if who == "each_opponent":
        return [p for p in g.apnap() if p != ctx.controller and not g.player(p).lost]
    if who.startswith("target"):
        return [v for kind, v in targets_of(ctx, who) if kind == "player"]
    raise ValueError(f"unknown player selector {who!r}")


def targets_of(ctx: Ctx, spec: Any) -> list[Ref]:
    index = (
        int(str(spec).removeprefix("target").strip() or 0) if not isinstance(spec, int) else spec
    )
    if index >= len(ctx.legal):
        return []
    return ctx.legal[index]


def objects_for(g: GameState, ctx: Ctx, step: Step, key: str = "target") -> list[Obj]:
    spec = step.get(key, 0)
    if spec == "self":
        src = ctx.source(g)
        return [src] if src is not None else []
    if spec == "it":
        o = ctx.memory.get("it")
        return [o] if o is not None and o.zone == "battlefield" else []
    out = []
    for kind, value in targets_of(ctx, spec):
        if kind == "obj":
            o = g.find(value)
            if o is not None:
                out.append(o)
    return out


def token_def(name: str):  # noqa: ANN201 - returns a CardDef
    from .cards import TOKENS

    return TOKENS[name]


def _duration_text(duration: str) -> str:
    return {"end_of_turn": " until end of turn", "until_next_turn": " until your next turn"}.get(
        duration, ""
    )


# life ---------------------------------------------------------------------------------------
def op_lose_life(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for name in players_for(g, ctx, step.get("who", "you")):
        lose_life(g, name, step["amount"])
    return
    yield


def lose_life(g: GameState, name: str, amount: int) -> None:
    if amount <= 0:
        return
    g.player(name).life -= amount
    g.note(f"{name} loses {amount} life (now {g.player(name).life})")


def gain_life(g: GameState, name: str, amount: int) -> None:
    if amount <= 0:
        return
    g.player(name).life += amount
    g.note(f"{name} gains {amount} life (now {g.player(name).life})")


def op_gain_life(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for name in players_for(g, ctx, step.get("who", "you")):
        gain_life(g, name, step["amount"])
    return
    yield


# cards --------------------------------------------------------------------------------------
def op_draw(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for name in players_for(g, ctx, step.get("who", "you")):
        n = step.get("amount", 1)
        got = draw(g, name, n)
        g.note(f"{name} draws {len(got)} card{'s' if len(got) != 1 else ''}")
        ctx.memory["drawn"] = got
    return
    yield


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
        "scry",
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
            player, "scry_order", "Order the cards on top (first = top)", opts, ordered=True
        )
        order = yield d2
        by = {f"o{o.id}": o for o in stay}
        stay = [by[i] for i in order]
    del p.library[: len(top)]
    p.library[:0] = stay
    p.library.extend(bottom)
    g.note(f"{player} scries {n}: {len(stay)} on top, {len(bottom)} on the bottom", "CR 701.22a")


def op_discard(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for name in players_for(g, ctx, step.get("who", "you")):
        hand = g.player(name).hand
        chosen = yield from choose_objects(
            g, name, list(hand), step.get("amount", 1), "Choose a card to discard", "discard"
        )
        for o in chosen:
            discard(g, o)


def op_return_to_hand(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for o in objects_for(g, ctx, step):
        move(g, o, "hand")
        g.note(f"{o.name} is returned to its owner's hand")
    return
    yield


def op_return_self_to_hand(g: GameState, ctx: Ctx, step: Step) -> Gen:
    src = ctx.source(g)
    if src is not None:
        move(g, src, "hand")
        g.note(f"{src.name} is returned to its owner's hand")
    return
    yield


# permanents ---------------------------------------------------------------------------------
def op_create_token(g: GameState, ctx: Ctx, step: Step) -> Gen:
    token = token_def(step["token"])
    made = create_token(g, token, ctx.controller, count=step.get("count", 1))
    desc = step.get("describe") or token.name
    g.note(f"{ctx.controller} creates {len(made)} {desc} token{'s' if len(made) > 1 else ''}")
    ctx.memory["created"] = made
    return
    yield


def op_add_counters(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for o in objects_for(g, ctx, step):
        kind = step.get("counter", "+1/+1")
        o.counters[kind] = o.counters.get(kind, 0) + step.get("amount", 1)
        g.note(f"{o.name} gets {step.get('amount', 1)} {kind} counter(s)")
    return
    yield


def op_modify(g: GameState, ctx: Ctx, step: Step) -> Gen:
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
            parts.append(f"gets {step.get('power', 0):+d}/{step.get('toughness', 0):+d}")
        if step.get("keywords"):
            parts.append("gains " + " and ".join(step["keywords"]))
        if step.get("cant_attack"):
            parts.append("can't attack")
        if step.get("set_base"):
            parts.append("has base power and toughness {}/{}".format(*step["set_base"]))
        g.note(f"{o.name} {', '.join(parts) or 'is affected'}{_duration_text(duration)}")
    return
    yield


def op_destroy(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for o in objects_for(g, ctx, step):
        if destroy(g, o) is not None:
            g.note(f"{o.name} is destroyed")
    return
    yield


def deal_damage(
    g: GameState,
    source_name: str,
    source: Obj | None,
    ref: Ref,
    amount: int,
    *,
    combat: bool = False,
    deathtouch: bool = False,
    lifelink_to: str | None = None,
) -> int:
    """Deal damage to a player or a permanent (CR 120); returns the damage dealt."""
    if amount <= 0:
        return 0
    kind, value = ref
    if kind == "obj" and source is not None and "Creature" in chars(g, source).types:
        target = g.permanent(value)
        if target is not None and "protection from creatures" in chars(g, target).keywords:
            g.note(
                f"Damage from {source_name} to {target.name} is prevented (protection)",
                "CR 702.16e",
            )
            return 0
    if kind == "player":
        g.player(value).life -= amount
        g.note(f"{source_name} deals {amount} damage to {value} (now {g.player(value).life})")
    else:
        o = g.permanent(value)
        if o is None:
            return 0
        if "Planeswalker" in o.card.types and "Creature" not in chars(g, o).types:
            o.counters["loyalty"] = o.counters.get("loyalty", 0) - amount
        else:
            o.damage += amount
            if deathtouch:
                o.deathtouch_damage = True
        g.note(f"{source_name} deals {amount} damage to {o.name}")
    if lifelink_to is not None:
        gain_life(g, lifelink_to, amount)  # lifelink (CR 702.15b)
    return amount


def op_damage(g: GameState, ctx: Ctx, step: Step) -> Gen:
    item = ctx.item
    src = ctx.source(g)
    src_name = item.name if item else (src.name if src else "?")
    refs = targets_of(ctx, step.get("target", 0))
    division = item.division if item and item.division else None
    all_refs = item.targets[step.get("target", 0)] if item and item.targets else refs
    for i, ref in enumerate(all_refs):
        if ref not in refs:
            continue  # an illegal target gets none of the divided damage (CR 608.2b)
        amount = division[i] if division else step["amount"]
        card = item.card.card if item and item.card else (src.card if src else None)
        kw = card.keywords if card else frozenset()
        deal_damage(
            g,
            src_name,
            src,
            ref,
            amount,
            deathtouch="deathtouch" in kw,
            lifelink_to=ctx.controller if "lifelink" in kw else None,
        )
    return
    yield


def op_counter(g: GameState, ctx: Ctx, step: Step) -> Gen:
    for kind, value in targets_of(ctx, step.get("target", 0)):
        if kind == "stack":
            target = g.stack_item(value)
            if target is not None:
                counter(g, target, f"{ctx.item.name if ctx.item else 'an effect'}")
    return
    yield


def counter(g: GameState, item: StackItem, by: str, rule: str = "CR 701.6a") -> bool:
    """Counter a spell or ability: it leaves the stack without resolving (CR 701.6a)."""
    if item.cant_be_countered:
        g.note(f"{item.name} can't be countered and stays on the stack", "CR 101.2")
        return False
    g.stack.remove(item)
    if item.kind == "spell" and item.card is not None:
        move(g, item.card, "graveyard")
    g.note(f"{item.name} is countered by {by}", rule)
    return True


def op_venture(g: GameState, ctx: Ctx, step: Step) -> Gen:
    from .dungeon import venture

    yield from venture(g, ctx.controller, undercity=step.get("undercity", False))


def op_take_initiative(g: GameState, ctx: Ctx, step: Step) -> Gen:
    from .initiative import take_initiative

    take_initiative(g, ctx.controller)
    return
    yield


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
        d = Decision(
            name,
            "unless",
            f"Lose {step['amount']} life unless you {cost}",
            [Option("pay", f"pay {cost}"), Option("dont", "don't pay")],
        )
        answer = yield d
        if answer == "dont":
            decisions.append((name, None))
            continue
        verb = "discard" if unless == "discard_card" else "sacrifice"
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


def op_discard_and_sacrifice_each(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Oubliette: discard a card and sacrifice an artifact, a creature, and a land. One permanent
    fills only one role (docs/rules-coverage.md); a missing role simply does nothing."""
    me = ctx.controller
    hand = g.player(me).hand
    chosen = yield from choose_objects(g, me, list(hand), 1, "Choose a card to discard", "discard")
    picked: list[Obj] = []
    for role in step.get("types", ["Artifact", "Creature", "Land"]):
        pool = [o for o in g.controlled(me) if role in chars(g, o).types and o not in picked]
        got = yield from choose_objects(
            g,
            me,
            pool,
            1,
            f"Choose {('an' if role[0] in 'AE' else 'a')} {role.lower()} to sacrifice",
            "sacrifice",
        )
        if not got:
            g.note(f"{me} has no {role.lower()} to sacrifice")
        picked += got
    for o in chosen:
        discard(g, o)
    for o in picked:
        g.note(f"{me} sacrifices {o.name}")
        sacrifice(g, o)


def op_exile_top_may_play(g: GameState, ctx: Ctx, step: Step) -> Gen:
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
    return
    yield


def op_hook(g: GameState, ctx: Ctx, step: Step) -> Gen:
    fn: Callable[[GameState, Ctx, Step], Gen] = step["fn"]
    result = fn(g, ctx, step)
    if result is not None:
        yield from result


def op_sacrifice_self(g: GameState, ctx: Ctx, step: Step) -> Gen:
    src = ctx.source(g)
    if src is not None:
        sacrifice(g, src)
    return
    yield


def op_shuffle(g: GameState, ctx: Ctx, step: Step) -> Gen:
    shuffle(g, ctx.controller)
    return
    yield


def op_may(g: GameState, ctx: Ctx, step: Step) -> Gen:
    if (yield from yes_no(g, ctx.controller, step.get("prompt", "Do you want to?"))):
        yield from run_steps(g, ctx, step["then"])


OPS: dict[str, Callable[[GameState, Ctx, Step], Gen]] = {
    "lose_life": op_lose_life,
    "gain_life": op_gain_life,
    "draw": op_draw,
    "scry": op_scry,
    "discard": op_discard,
    "create_token": op_create_token,
    "add_counters": op_add_counters,
    "modify": op_modify,
    "destroy": op_destroy,
    "damage": op_damage,
    "counter": op_counter,
    "venture": op_venture,
    "take_initiative": op_take_initiative,
    "lose_life_unless": op_lose_life_unless,
    "discard_and_sacrifice_each": op_discard_and_sacrifice_each,
    "exile_top_may_play": op_exile_top_may_play,
    "return_to_hand": op_return_to_hand,
    "return_self_to_hand": op_return_self_to_hand,
    "sacrifice_self": op_sacrifice_self,
    "shuffle": op_shuffle,
    "may": op_may,
    "hook": op_hook,
}

# The parameters each data-driven step accepts ("target" is the index of a target phrase).
# "hook" is for card code only and is not accepted in dungeon data.
STEP_PARAMS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "lose_life": {"who": str, "amount": int},
    "gain_life": {"who": str, "amount": int},
    "draw": {"who": str, "amount": int},
    "scry": {"amount": int},
    "discard": {"who": str, "amount": int},
    "create_token": {"token": str, "count": int, "describe": str},
    "add_counters": {"target": (int, str), "counter": str, "amount": int},
    "modify": {
        "target": (int, str),
        "power": int,
        "toughness": int,
        "keywords": list,
        "duration": str,
        "cant_attack": bool,
        "set_base": list,
        "set_subtypes": list,
    },
    "destroy": {"target": (int, str)},
    "damage": {"target": (int, str), "amount": int},
    "counter": {"target": (int, str)},
    "venture": {"undercity": bool},
    "take_initiative": {},
    "lose_life_unless": {"who": str, "amount": int, "unless": str, "types": list},
    "discard_and_sacrifice_each": {"types": list},
    "exile_top_may_play": {"amount": int, "until": str},
    "return_to_hand": {"target": (int, str)},
    "shuffle": {},
}
# The values a parameter may take, where they are a fixed set (the admin offers them as choices).
STEP_CHOICES: dict[str, tuple[str, ...]] = {
    "who": ("you", "each_player", "each_opponent", "target"),
    "duration": ("end_of_turn", "until_next_turn", "permanent"),
    "unless": ("discard_card", "sacrifice"),
    "until": ("end_of_turn", "end_of_next_turn", "end_of_game"),
    "counter": ("+1/+1", "-1/-1"),
}
TYPE_WORDS = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker")

REQUIRED_PARAMS: dict[str, tuple[str, ...]] = {
    "lose_life": ("amount",),
    "gain_life": ("amount",),
    "scry": ("amount",),
    "create_token": ("token",),
    "damage": ("amount",),
    "lose_life_unless": ("amount", "unless"),
}


def describe_targets(g: GameState, item: StackItem) -> str:
    names = [ref_name(g, r) for refs in item.targets for r in refs]
    return ", ".join(names)


def _register_late_ops() -> None:
    """Ops defined in modules that import this one (ward) register themselves here."""
    from .ward import op_ward

    OPS["ward"] = op_ward


_register_late_ops()


def op_take_initiative_by(g: GameState, ctx: Ctx, step: Step) -> Gen:
    from .initiative import take_initiative

    take_initiative(g, step["player"])
    return
    yield


OPS["take_initiative_by"] = op_take_initiative_by


def op_draw_reveal_cast_free(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Mad Wizard's Lair: draw three cards and reveal them; you may cast one of them without
    paying its mana cost (CR 608.2g: cast while the ability resolves, timing ignored)."""
    from .casting import cast_spell, targets_possible

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
        me, "cast_free", "You may cast one of them without paying its mana cost", options
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


def op_search_basic_land_to_hand(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Secret Entrance: search for a basic land card, reveal it, put it into your hand, then
    shuffle. A search is always asked and may find nothing (CR 701.19b)."""
    me = ctx.controller
    p = g.player(me)
    lands = [o for o in p.library if "Basic" in o.card.supertypes and "Land" in o.card.types]
    options = [Option(f"o{o.id}", o.name, (o.id,)) for o in lands]
    options.append(Option("none", "find nothing"))
    answer = yield Decision(me, "search", "Search your library for a basic land card", options)
    if answer != "none":
        found = next(o for o in lands if f"o{o.id}" == answer)
        new = move(g, found, "hand")
        new.revealed = True
        g.note(f"{me} reveals {new.name} and puts it into their hand")
    else:
        g.note(f"{me} finds nothing")
    shuffle(g, me)
    g.note(f"{me} shuffles their library")


def op_goad(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Goad (CR 701.15): until your next turn it attacks each combat if able."""
    for o in objects_for(g, ctx, step):
        o.goaded_by[ctx.controller] = g.turn
        g.note(f"{ctx.controller} goads {o.name}", "CR 701.15a")
    return
    yield


def op_throne_of_the_dead_three(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Reveal the top ten; put a creature card from among them onto the battlefield with three
    +1/+1 counters (it enters with them); it gains hexproof until your next turn; shuffle."""
    from .zones import put_onto_battlefield

    me = ctx.controller
    p = g.player(me)
    top = p.library[: step.get("reveal", 10)]
    g.note(f"{me} reveals {', '.join(o.name for o in top) or 'nothing'}")
    creatures = [o for o in top if "Creature" in o.card.types]
    chosen = yield from choose_objects(
        g, me, creatures, 1, "Choose a creature card to put onto the battlefield", "choose_card"
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
            f"{new.name} enters with three +1/+1 counters and gains hexproof until {me}'s next turn"
        )
    shuffle(g, me)


OPS.update(
    {
        "draw_reveal_cast_free": op_draw_reveal_cast_free,
        "search_basic_land_to_hand": op_search_basic_land_to_hand,
        "goad": op_goad,
        "throne_of_the_dead_three": op_throne_of_the_dead_three,
    }
)
STEP_PARAMS.update(
    {
        "draw_reveal_cast_free": {"amount": int},
        "search_basic_land_to_hand": {},
        "goad": {"target": (int, str)},
        "throne_of_the_dead_three": {"reveal": int, "counters": int},
    }
)
STEP_PARAMS["lose_life"]["target"] = (int, str)


def op_attach(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Equip (CR 702.6a): attach this Equipment to target creature you control."""
    src = ctx.source(g)
    for o in objects_for(g, ctx, step):
        if src is not None:
            src.attached_to = o.id
            g.note(f"{src.name} is attached to {o.name}", "CR 702.6a")
    return
    yield


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
        if "Land" in top.card.types:
            new = move(g, top, "hand")
            new.revealed = True
            continue
        if o.zone == "battlefield":
            o.counters["+1/+1"] = o.counters.get("+1/+1", 0) + 1
        if (yield from yes_no(g, p.name, f"Put {top.name} into your graveyard?")):
            move(g, top, "graveyard")
            g.note(f"{p.name} puts {top.name} into their graveyard")


def op_return_to_battlefield(g: GameState, ctx: Ctx, step: Step) -> Gen:
    """Return target card from a graveyard to the battlefield under your control."""
    from .zones import put_onto_battlefield

    for o in objects_for(g, ctx, step):
        if o.zone != "graveyard":
            continue
        counters = dict(step.get("counters") or {})
        new = put_onto_battlefield(g, o, ctx.controller, counters=counters)
        if step.get("exile_if_leaves"):
            new.exile_if_leaves = True
        g.note(f"{new.name} is put onto the battlefield under {ctx.controller}'s control")
        ctx.memory["it"] = new
    return
    yield


OPS.update(
    {
        "attach": op_attach,
        "explore": op_explore,
        "return_to_battlefield": op_return_to_battlefield,
    }
)
STEP_PARAMS.update({"explore": {"target": (int, str)}})
