"""What a player may do with priority (CR 117) and doing it."""

from __future__ import annotations

from .casting import activate, can_activate, can_cast, can_escape, can_play_land, cast_spell
from .choices import Gen
from .decisions import Decision, Option
from .kinds import PRIORITY
from .state import GameState, Obj
from .zones import move, put_onto_battlefield


def _castable_from(g: GameState, player: str) -> list[tuple[Obj, bool]]:
    """Cards the player could cast from where they are: hand, or exile with a permission."""
    p = g.player(player)
    out: list[tuple[Obj, bool]] = [(o, False) for o in p.hand]
    out += [(o, True) for o in p.hand if o.card.adventure is not None]
    for o in p.exile:
        if o.may_cast_creature or may_play_from_exile(g, player, o):
            out.append((o, False))
    return out


def may_play_from_exile(g: GameState, player: str, o: Obj) -> bool:
    """A "you may play that card" permission that hasn't run out (Runestone Caverns)."""
    return o.play_until is not None and o.play_until[0] == player and g.turn <= o.play_until[1]


def priority_options(g: GameState, player: str) -> list[Option]:
    with g.reading():
        return _priority_options(g, player)


def _priority_options(g: GameState, player: str) -> list[Option]:
    options = [Option("pass", "pass")]
    p = g.player(player)
    seen_land: set[int] = set()
    for o in list(p.hand) + [x for x in p.exile if x.play_until and x.play_until[0] == player]:
        if "Land" in o.card.types and o.id not in seen_land and can_play_land(g, player, o):
            if o.zone == "exile" and g.turn > o.play_until[1]:  # type: ignore[index]
                continue
            seen_land.add(o.id)
            options.append(Option(f"play:{o.id}", f"play {o.name}", (o.id,)))
    for o, adventure in _castable_from(g, player):
        if can_cast(g, player, o, adventure):
            name = o.card.adventure.name if adventure and o.card.adventure else o.name
            kind = "castadv" if adventure else "cast"
            options.append(Option(f"{kind}:{o.id}", f"cast {name}", (o.id,)))
    for o in p.graveyard:
        if o.card.escape is not None and can_escape(g, player, o):
            options.append(Option(f"escape:{o.id}", f"cast {o.name}", (o.id,)))
    sources = list(g.controlled(player)) + list(p.hand)
    for o in sources:
        for i, ability in enumerate(o.card.activated):
            if can_activate(g, player, o, ability):
                options.append(
                    Option(
                        f"act:{o.id}:{i}",
                        f"activate {o.name}: {ability.cost_text}",
                        (o.id,),
                        "mana" if ability.is_mana_ability else None,
                    )
                )
    return options


def priority_decision(g: GameState, player: str) -> Decision:
    # Listed only when someone looks (a page, the pace feature, a bot): passing is always
    # possible (CR 117.3), and a replayed log passes far more often than it acts.
    return Decision(
        player,
        PRIORITY,
        f"{player} has priority ({g.step.replace('_', ' ')}, turn {g.turn})",
        lambda: priority_options(g, player),
        known=("pass",),
    )


def take_action(g: GameState, player: str, option_id: str) -> Gen:
    kind, _, rest = option_id.partition(":")
    if kind == "play":
        obj = g.find(int(rest))
        assert obj is not None
        g.player(player).lands_played += 1
        g.note(f"{player} plays {obj.name}", "CR 305.1")
        if obj.zone == "exile":
            obj.play_until = None
        put_onto_battlefield(g, obj, player)
        return
    if kind in ("cast", "castadv", "escape"):
        obj = g.find(int(rest))
        assert obj is not None
        yield from cast_spell(g, player, obj, adventure=kind == "castadv", escape=kind == "escape")
        return
    if kind == "act":
        obj_id, index = rest.split(":")
        obj = g.find(int(obj_id))
        assert obj is not None
        yield from activate(g, player, obj, int(index))
        return
    raise AssertionError(f"unknown action {option_id}")


__all__ = ["move", "priority_decision", "priority_options", "take_action"]
