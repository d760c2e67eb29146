"""Casting spells and activating abilities (CR 601, 602), and resolving them (CR 608)."""

from __future__ import annotations

from .carddef import Activated, CardDef
from .choices import Gen, choose_objects, choose_targets, yes_no
from .continuous import abilities_can_be_lost, chars
from .decisions import Decision, Option
from .effects import Ctx, run_steps
from .kinds import CHOOSE_COLOR, ESCAPE_EXILE, TAP_COST
from .mana import ManaCost, parse_cost
from .payment import activate_mana_ability, can_pay, can_use_tap_ability, mana_output, pay_mana
from .state import LANDS_PER_TURN, MAIN_STEPS, GameState, Obj, StackItem
from .targets import candidates, ref_whose_name, still_legal, with_share
from .triggers import fire
from .ward import becomes_target
from .zones import discard, move, put_onto_battlefield, sacrifice


# timing and legality ---------------------------------------------------------------------------
def sorcery_timing(g: GameState, player: str) -> bool:
    """Main phase, your turn, empty stack (CR 307.1)."""
    return g.active == player and g.step in MAIN_STEPS and not g.stack


def face_of(obj: Obj, adventure: bool) -> CardDef:
    if adventure:
        assert obj.card.adventure is not None
        return obj.card.adventure
    return obj.card


def spell_cost(g: GameState, player: str, face: CardDef) -> ManaCost | None:
    cost = face.cost
    if cost is not None and face.cost_reduction is not None:
        cost = cost.reduced(face.cost_reduction(g, player))
    return cost


def targets_possible(g: GameState, player: str, specs: list, from_creature: bool = False) -> bool:
    chosen: set = set()
    for spec in specs:
        legal = candidates(g, spec.kind, player, chosen if spec.other else None, from_creature)
        if len(legal) < spec.min:
            return False
        if spec.min:
            chosen.add(legal[0])
    return True


def can_cast(g: GameState, player: str, obj: Obj, adventure: bool = False) -> bool:
    face = face_of(obj, adventure)
    if "Land" in face.types or face.cost is None:
        return False
    instant_speed = "Instant" in face.types or "flash" in face.keywords
    if not instant_speed and not sorcery_timing(g, player):
        return False
    if not targets_possible(g, player, face.spell_targets):
        return False
    if obj.play_free:
        return True
    return can_pay(g, player, spell_cost(g, player, face))


def can_escape(g: GameState, player: str, obj: Obj) -> bool:
    """Escape (CR 702.138): cast from your graveyard for its escape cost."""
    face = obj.card
    if face.escape is None or obj.zone != "graveyard" or obj.owner != player:
        return False
    others = [o for o in g.player(player).graveyard if o is not obj]
    if len(others) < face.escape_exile:
        return False
    instant_speed = "Instant" in face.types or "flash" in face.keywords
    if not instant_speed and not sorcery_timing(g, player):
        return False
    if not targets_possible(g, player, face.spell_targets):
        return False
    return can_pay(g, player, parse_cost(face.escape))


def can_play_land(g: GameState, player: str, obj: Obj) -> bool:
    """One land per turn, your main phase, empty stack (CR 305.2, 505.6b)."""
    return (
        "Land" in obj.card.types
        and sorcery_timing(g, player)
        and g.player(player).lands_played < LANDS_PER_TURN
    )


# casting -------------------------------------------------------------------------------------
def cast_spell(
    g: GameState,
    player: str,
    obj: Obj,
    *,
    adventure: bool = False,
    free: bool = False,
    escape: bool = False,
) -> Gen:
    """Cast a spell: put it on the stack, choose targets, pay, then it becomes cast (CR 601.2)."""
    face = face_of(obj, adventure)
    from_zone = obj.zone
    free = free or obj.play_free
    escape_others = [o for o in g.player(player).graveyard if o is not obj] if escape else []
    card_obj = move(g, obj, "stack")
    item = StackItem(
        id=g.new_id(),
        kind="spell",
        name=face.name,
        controller=player,
        text=face.text,
        effect=list(face.spell),
        target_specs=list(face.spell_targets),
        card=card_obj,
        cant_be_countered=face.cant_be_countered,
        adventure=adventure,
    )
    card_obj.controller = player
    g.stack.append(item)
    ok = yield from choose_targets(g, item)
    if not ok:  # CR 601.2c: no legal targets - the cast is reversed (CR 727.1)
        g.stack.remove(item)
        back = move(g, card_obj, from_zone if from_zone != "stack" else "hand")
        back.controller = player
        g.note(f"{player} can't cast {face.name}: no legal targets")
        return
    if escape:
        assert face.escape is not None
        assert pay_mana(g, player, parse_cost(face.escape)), "escape cost can't be paid"
        exiled = yield from choose_objects(
            g,
            player,
            escape_others,
            face.escape_exile,
            f"Escape: exile {face.escape_exile} other cards from your graveyard",
            ESCAPE_EXILE,
        )
        for o in exiled:
            move(g, o, "exile")
        g.note(f"{player} exiles {len(exiled)} cards from their graveyard to escape", "CR 702.138")
    elif not free:
        paid = pay_mana(g, player, spell_cost(g, player, face))
        assert paid, f"{face.name} was offered but its cost can't be paid"
    tgt = describe(g, item)
    g.note(f"{player} casts {face.name}{' without paying its mana cost' if free else ''}{tgt}")
    # CR 601.2i: the spell becomes cast; cast triggers and ward trigger now.
    fire(g, "cast", player=player, item=item, face=face, from_zone=from_zone)
    becomes_target(g, item)


def describe(g: GameState, item: StackItem) -> str:
    names = [ref_whose_name(g, r) for refs in item.targets for r in refs]
    names = [with_share(n, amount) for n, amount in zip(names, item.amounts(), strict=True)]
    return f" targeting {', '.join(names)}" if names else ""


# activated abilities -----------------------------------------------------------------------------
def can_activate(g: GameState, player: str, obj: Obj, ability: Activated) -> bool:
    # Cheap checks first: this runs for every ability at every priority.
    if ability.tap and obj.tapped:
        return False
    if ability.sorcery_speed and not sorcery_timing(g, player):
        return False
    if ability.zone == "battlefield":
        if obj.zone != "battlefield" or obj.controller != player:
            return False
        if abilities_can_be_lost(g) and chars(g, obj).lost_abilities:
            return False
    elif obj.zone != ability.zone or obj.owner != player:
        return False
    if ability.tap and not can_use_tap_ability(g, obj):
        return False
    if ability.loyalty is not None:
        # CR 606.3: one loyalty ability per planeswalker per turn, as a sorcery;
        # a negative cost needs that many loyalty counters (CR 606.6).
        if (obj.id, g.turn) in g.loyalty_used:
            return False
        if ability.loyalty < 0 and obj.counters.get("loyalty", 0) < -ability.loyalty:
            return False
    if ability.sorcery_speed and not sorcery_timing(g, player):
        return False
    if ability.only_if is not None and not ability.only_if(g, obj):
        return False
    if ability.tap_untapped_legendary and not _untapped_legendaries(g, player, obj):
        return False
    if ability.targets and not targets_possible(
        g, player, ability.targets, "Creature" in chars(g, obj).types
    ):
        return False
    exclude = obj.id if ability.tap or ability.sacrifice_self else None
    return can_pay(g, player, ability_cost(g, obj, ability), exclude)


def ability_cost(g: GameState, obj: Obj, ability: Activated) -> ManaCost | None:
    cost = ability.mana
    if cost is not None and ability.cost_reduction is not None:
        cost = cost.reduced(ability.cost_reduction(g, obj))
    return cost


def _untapped_legendaries(g: GameState, player: str, obj: Obj) -> list[Obj]:
    return [
        o
        for o in g.controlled(player)
        if not o.tapped and "Legendary" in o.card.supertypes and "Creature" in chars(g, o).types
    ]


def activate(g: GameState, player: str, obj: Obj, index: int) -> Gen:
    """Activate an ability (CR 602.2); mana abilities resolve at once (CR 605.3a)."""
    ability = obj.card.activated[index]
    if ability.is_mana_ability:
        produces, _ = mana_output(g, obj, ability)
        color = None
        if len(produces) > 1:
            options = [Option(c, f"{{{c}}}") for c in produces]
            color = yield Decision(player, CHOOSE_COLOR, f"{obj.name}: choose a color", options)
        activate_mana_ability(g, obj, index, color)
        g.note(f"{player} activates {obj.name}: {ability.cost_text} for mana")
        return
    item = StackItem(
        id=g.new_id(),
        kind="ability",
        name=obj.name,
        controller=player,
        text=ability.text,
        effect=list(ability.effect),
        target_specs=list(ability.targets),
        source_id=obj.id,
        source_name=obj.name,
        extra={"source_is_creature": "Creature" in chars(g, obj).types},
    )
    g.stack.append(item)
    ok = yield from choose_targets(g, item)
    if not ok:
        g.stack.remove(item)
        return
    # Pay costs (CR 602.2b, 601.2g-h): mana first, then tapping and other costs.
    exclude = obj.id if ability.tap or ability.sacrifice_self else None
    assert pay_mana(g, player, ability_cost(g, obj, ability), exclude)
    if ability.tap:
        obj.tapped = True
    if ability.loyalty is not None:
        obj.counters["loyalty"] = obj.counters.get("loyalty", 0) + ability.loyalty
        g.loyalty_used.add((obj.id, g.turn))
    if ability.tap_untapped_legendary:
        pool = _untapped_legendaries(g, player, obj)
        chosen = yield from choose_objects(
            g, player, pool, 1, "Tap an untapped legendary creature you control", TAP_COST
        )
        for o in chosen:
            o.tapped = True
    if ability.discard_self:
        discard(g, obj)
    if ability.sacrifice_self:
        sacrifice(g, obj)
    g.note(f"{player} activates {obj.name}: {ability.cost_text}{describe(g, item)}")
    becomes_target(g, item)


# resolving -----------------------------------------------------------------------------------
def resolve_top(g: GameState) -> Gen:
    """Resolve the top object of the stack (CR 608)."""
    item = g.stack[-1]
    legal = [
        [
            r
            for r in refs
            if still_legal(
                g, spec.kind, r, item.controller, item.extra.get("source_is_creature", False)
            )
        ]
        for spec, refs in zip(item.target_specs, item.targets, strict=False)
    ]
    chosen = sum(len(refs) for refs in item.targets)
    if chosen and not any(legal):
        # CR 608.2b: every target is illegal, so it doesn't resolve.
        g.stack.remove(item)
        g.note(f"{item.name} doesn't resolve: all its targets are illegal", "CR 608.2b")
        if item.kind == "spell" and item.card is not None:
            move(g, item.card, "graveyard")
        return
    source = g.find(item.source_id) if item.source_id is not None else None
    if item.intervening_if is not None and not item.intervening_if(g, item.controller, source):
        g.stack.remove(item)
        g.note(f"{item.name}'s condition is no longer true, so it does nothing", "CR 603.4")
        return
    # "X resolves" as before (scenario files check it), the kind telling an ability from its spell.
    g.note(f"{item.name} resolves" + (f" ({item.ability_kind})" if item.ability_kind else ""))
    ctx = Ctx(
        controller=item.controller,
        item=item,
        source_id=item.source_id,
        event=item.extra.get("event", {}),
        legal=legal,
    )
    if item.optional and not (yield from yes_no(g, item.controller, f"{item.name}: {item.text}")):
        g.stack.remove(item)
        return
    if (
        item.kind == "spell"
        and item.card is not None
        and item.card.card.is_permanent_card
        and not item.adventure
    ):
        g.stack.remove(item)
        card_obj = item.card
        host = None
        if "Aura" in card_obj.card.subtypes and legal and legal[0]:
            host = legal[0][0][1]
        put_onto_battlefield(g, card_obj, item.controller, attached_to=host)
        return
    yield from run_steps(g, ctx, item.effect)
    if item in g.stack:
        g.stack.remove(item)
    if item.kind == "spell" and item.card is not None:
        if item.adventure:
            # CR 715.4: an adventure that resolves goes to exile; the creature may be cast later.
            exiled = move(g, item.card, "exile")
            exiled.may_cast_creature = True
            exiled.revealed = True
        else:
            move(g, item.card, "graveyard")
