"""State-based actions (CR 704), and the loop that runs them and puts triggers on the stack
before a player receives priority (CR 704.3, 603.3b)."""

from __future__ import annotations

from .casting import describe
from .choices import Gen, choose_objects, choose_targets, order_items
from .continuous import chars
from .dungeon import dungeon_sba
from .kinds import LEGEND_RULE, ORDER_TRIGGERS
from .state import GameOver, GameState, Obj, PendingTrigger, StackItem
from .targets import namesake_number, whose
from .ward import becomes_target
from .zones import move


def check_sbas(g: GameState) -> Gen:
    """Perform every applicable state-based action at once; return whether any happened."""
    performed = False
    losers = []
    for p in g.players:
        if p.lost:
            continue
        if p.life <= 0:
            losers.append((p, "life total 0 or less", "CR 704.5a"))
        elif p.drew_from_empty:
            losers.append((p, "drew from an empty library", "CR 704.5b"))
        elif p.poison >= 10:
            losers.append((p, "ten poison counters", "CR 704.5c"))
    for p, reason, rule in losers:
        p.lost = True
        p.loss_reason = reason
        g.note(f"{p.name} loses the game: {reason}", rule)
    if losers:
        end_game(g)
    to_graveyard: list[tuple[Obj, str]] = []
    animated = any(e.add_types for e in g.effects)
    with g.reading():
        for o in g.battlefield:
            if animated or o.card.types & _CHECKED_TYPES or "Aura" in o.card.subtypes:
                _creature_sbas(g, o, animated, to_graveyard)
    for o in g.battlefield:
        if "Equipment" in o.card.subtypes and o.attached_to is not None:
            host = g.permanent(o.attached_to)
            if host is None or "Creature" not in chars(g, host).types:
                o.attached_to = None  # CR 704.5n
                performed = True
    # Legend rule (CR 704.5j): the controller chooses one, the rest go to the graveyard.
    legends = sum(1 for o in g.battlefield if "Legendary" in o.card.supertypes)
    for p in g.apnap() if legends > 1 else ():
        names: dict[str, list[Obj]] = {}
        for o in g.controlled(p):
            if "Legendary" in o.card.supertypes:
                names.setdefault(o.name, []).append(o)
        for name, group in names.items():
            if len(group) > 1:
                keep = yield from choose_objects(
                    g, p, group, 1, f"Legend rule: choose the {name} to keep", LEGEND_RULE
                )
                for o in group:
                    if o is not keep[0]:
                        to_graveyard.append((o, "CR 704.5j"))
    done: set[int] = set()
    # Numbered before any of them moves: the numbers the cards show are the board's as the
    # state-based actions are checked, and they all go at once (CR 704.3). The number closes the
    # line ("bob's Goblin has lethal damage and is put into the graveyard (#2)"), so that the
    # sentence up to it reads as it always has (scenario files check log fragments).
    numbers = {o.id: namesake_number(g, o) for o, _ in to_graveyard}
    for o, rule in to_graveyard:
        if o.id in done or o.zone != "battlefield":
            continue
        done.add(o.id)
        why = {
            "CR 704.5f": "has 0 or less toughness",
            "CR 704.5g": "has lethal damage",
            "CR 704.5h": "was dealt deathtouch damage",
            "CR 704.5i": "has no loyalty",
            "CR 704.5j": "is put into the graveyard by the legend rule",
            "CR 704.5m": "is not attached to a legal object",
        }[rule]
        tail = "" if rule == "CR 704.5j" else " and is put into the graveyard"
        number = f" (#{numbers[o.id]})" if numbers[o.id] else ""
        g.note(f"{whose(o)}'s {o.name} {why}{tail}{number}", rule)
        move(g, o, "graveyard")
        performed = True
    # Tokens that left the battlefield cease to exist (CR 704.5d). Only zones.move puts one
    # there, and it says so: the four zones of both players are not walked on every check.
    if g.tokens_may_be_out:
        g.tokens_may_be_out = False
        for p in g.players:
            for zone in (p.hand, p.graveyard, p.exile, p.library):
                gone = [o for o in zone if o.token]
                for o in gone:
                    zone.remove(o)
                    performed = True
    if dungeon_sba(g):
        performed = True
    return performed


_CHECKED_TYPES = frozenset({"Creature", "Planeswalker"})


def _creature_sbas(g: GameState, o: Obj, animated: bool, out: list[tuple[Obj, str]]) -> None:
    """Toughness, damage, loyalty and Aura checks for one permanent (CR 704.5f-i, 704.5m)."""
    card_types = o.card.types
    if "Aura" in o.card.subtypes:
        host = g.permanent(o.attached_to) if o.attached_to is not None else None
        if host is None or "Creature" not in chars(g, host).types:
            out.append((o, "CR 704.5m"))
    if not animated and not (card_types & {"Creature", "Planeswalker"}):
        return  # nothing else can apply to a land or a plain artifact
    c = chars(g, o)
    if "Creature" in c.types:
        if c.toughness <= 0:
            out.append((o, "CR 704.5f"))
        elif "indestructible" in c.keywords:
            pass  # CR 702.12b: lethal and deathtouch damage don't destroy it
        elif o.damage >= c.toughness:
            out.append((o, "CR 704.5g"))
        elif o.damage > 0 and o.deathtouch_damage:
            out.append((o, "CR 704.5h"))
    if "Planeswalker" in c.types and o.counters.get("loyalty", 0) <= 0:
        out.append((o, "CR 704.5i"))


def end_game(g: GameState) -> None:
    alive = [p for p in g.players if not p.lost]
    g.over = True
    if len(alive) == 1:
        g.winner = alive[0].name
        g.end_reason = "; ".join(p.loss_reason for p in g.players if p.lost)
        g.note(f"{g.winner} wins the game", "CR 104.2a")
    else:
        g.winner = "draw"
        g.end_reason = "all players lost at once"
        g.note("The game is a draw: all players lost at the same time", "CR 104.4a")
    raise GameOver


def settle(g: GameState) -> Gen:
    """CR 704.3: check SBAs until none happen, then put waiting triggers on the stack; repeat."""
    for _ in range(1000):
        if (yield from check_sbas(g)):
            continue
        if g.pending_triggers:
            yield from put_triggers_on_stack(g)
            continue
        return
    raise RuntimeError("state-based actions and triggers did not settle")


def put_triggers_on_stack(g: GameState) -> Gen:
    """CR 603.3b: APNAP; each player orders their own triggers; targets are chosen as each
    goes on the stack (CR 603.3d); one with no legal target is removed."""
    for player in g.apnap():
        mine = [t for t in g.pending_triggers if t.controller == player]
        if not mine:
            continue
        if len(mine) > 1 and len({t.name for t in mine}) > 1:
            order = yield from order_items(
                g,
                player,
                [t.name for t in mine],
                "Order your triggered abilities (first listed resolves first)",
                ORDER_TRIGGERS,
                [t.source_id for t in mine],
            )
            mine = [mine[i] for i in order]
        # The first listed resolves first, so it goes on the stack last.
        for t in reversed(mine):
            g.pending_triggers.remove(t)
            item = StackItem(
                id=g.new_id(),
                kind="ability",
                name=t.name,
                controller=t.controller,
                text=t.text,
                effect=t.effect,
                target_specs=t.target_specs,
                source_id=t.source_id,
                source_name=t.source_name,
                dungeon_instance=t.dungeon_instance,
                dungeon_name=t.dungeon_name,
                intervening_if=t.intervening_if,
                optional=t.optional,
                extra={
                    "event": t.event,
                    "source_is_creature": t.event.get("_source_is_creature", False),
                },
            )
            g.stack.append(item)
            ok = yield from choose_targets(g, item)
            if not ok:
                g.stack.remove(item)
                removed = f"{_whose(t)}{t.name}'s ability has no legal target and is removed"
                g.note(removed, "CR 603.3d")
                continue
            g.note(
                f"{_trigger_name(t)} goes on the stack{describe(g, item)}"
                + (f": {t.why}" if t.why else ""),
                "CR 603.3",
            )
            becomes_target(g, item)


def _trigger_name(t: PendingTrigger) -> str:
    """A trigger as the log names it: "bob's Purple Worm's triggered ability", "bob's Catacombs
    room ability" (CR 309.4c), "The initiative's triggered ability"."""
    if t.dungeon_name:
        return f"{_whose(t)}{t.name} room ability"
    return f"{_whose(t)}{t.name}'s triggered ability"


def _whose(t: PendingTrigger) -> str:
    """Whose a trigger is, as its log lines begin ("bob's "): both players may have a Purple
    Worm, or be in Undercity's Catacombs. The initiative's has no source and names itself (its
    line says which of the three it is)."""
    return "" if t.source_id is None and not t.dungeon_name else f"{t.controller}'s "


__all__ = ["GameOver", "check_sbas", "end_game", "put_triggers_on_stack", "settle"]
