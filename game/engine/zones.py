"""Moving objects between zones (CR 400): draw, put onto the battlefield, destroy, sacrifice,
discard, exile, create tokens. Each move makes a new object (CR 400.7) and reports events that
may trigger abilities."""

from __future__ import annotations

from .carddef import CardDef
from .continuous import chars
from .state import GameState, Obj
from .triggers import fire


def _remove(g: GameState, obj: Obj) -> None:
    if obj.zone == "battlefield":
        g.battlefield.remove(obj)
        # An Aura or Equipment attached to it stays; state-based actions deal with Auras.
        if g.combat is not None:
            _remove_from_combat(g, obj.id)
    elif obj.zone == "stack":
        for item in g.stack:
            if item.card is obj:
                item.card = None
    elif obj.zone in ("hand", "library", "graveyard", "exile"):
        g.player(obj.owner).zone(obj.zone).remove(obj)


def _remove_from_combat(g: GameState, obj_id: int) -> None:
    c = g.combat
    assert c is not None
    c.attackers.pop(obj_id, None)
    c.blockers.pop(obj_id, None)
    attacked = c.blocking.pop(obj_id, None)
    if attacked is not None and attacked in c.blockers:
        c.blockers[attacked] = [b for b in c.blockers[attacked] if b != obj_id]


def move(g: GameState, obj: Obj, to: str, *, top: bool = True, reason: str = "") -> Obj:
    """Move `obj` to zone `to` of its owner (or the battlefield); return the new object."""
    from_zone = obj.zone
    if from_zone == "library":
        # Whatever it becomes (drawn, milled, found, revealed), a library's card is now known to
        # someone who did not know it.
        g.disclose(f"a card left {obj.owner}'s library")
    elif from_zone == "hand" and obj.owner != g.answering:
        # Out of a hand by someone else's answer (an effect that empties a hand): the other
        # player learns what it held. By the owner's own answer (a spell cast, a land played, a
        # discard chosen) it shows only what the owner chose to show.
        g.disclose(f"a card left {obj.owner}'s hand")
    if from_zone == "battlefield" and obj.exile_if_leaves and to != "exile":
        to = "exile"  # a replacement effect (From the Catacombs, CR 614.1a)
        g.note(f"{obj.name} would leave the battlefield and is exiled instead", "CR 614.1a")
    last = chars(g, obj) if from_zone == "battlefield" else None
    _remove(g, obj)
    new = Obj(
        id=g.new_id(),
        card=obj.card,
        owner=obj.owner,
        controller=obj.owner,
        zone=to,
        token=obj.token,
        alias=obj.alias,
        timestamp=g.new_timestamp(),
    )
    if to == "battlefield":
        g.battlefield.append(new)
        new.sick = True
        new.entered_turn = g.turn
    elif to != "stack":  # a spell's card is held by its stack item
        if new.token:
            g.tokens_may_be_out = True  # it ceases to exist at the next check (CR 704.5d)
        zone = g.player(obj.owner).zone(to)
        if to == "library" and top:
            zone.insert(0, new)
        else:
            zone.append(new)
    if from_zone == "battlefield":
        # Leaves-the-battlefield abilities look back in time (CR 603.10a).
        died = to == "graveyard" and last is not None and "Creature" in last.types
        if died:
            g.creatures_died_this_turn += 1
        fire(g, "leaves", obj=obj, to=to, died=died, new=new, last=last)
        if died:
            fire(g, "dies", obj=obj, new=new, last=last)
    if to == "graveyard" and "Creature" in obj.card.types and not obj.token:  # CR 108.2
        fire(g, "creature_card_to_graveyard", obj=new, owner=obj.owner, from_zone=from_zone)
    return new


def put_onto_battlefield(
    g: GameState,
    obj: Obj,
    controller: str | None = None,
    *,
    counters: dict[str, int] | None = None,
    tapped: bool = False,
    attached_to: int | None = None,
) -> Obj:
    """Put a card onto the battlefield; "with counters" means it enters with them (CR 614.1c);
    an Aura spell's permanent enters attached to the object it targeted (CR 303.4f)."""
    new = move(g, obj, "battlefield")
    new.controller = controller or obj.owner
    new.attached_to = attached_to
    new.tapped = tapped or new.card.enters_tapped
    if new.card.loyalty is not None:
        new.counters["loyalty"] = new.card.loyalty  # CR 306.5b
    if counters:
        new.counters.update(counters)
    fire(g, "enters", obj=new)
    return new


def create_token(g: GameState, token: CardDef, controller: str, *, count: int = 1) -> list[Obj]:
    made = []
    for _ in range(count):
        o = Obj(
            id=g.new_id(),
            card=token,
            owner=controller,
            controller=controller,
            zone="battlefield",
            token=True,
            sick=True,
            timestamp=g.new_timestamp(),
            entered_turn=g.turn,
        )
        g.battlefield.append(o)
        made.append(o)
        fire(g, "enters", obj=o)
    return made


def draw(g: GameState, player: str, n: int = 1) -> list[Obj]:
    p = g.player(player)
    drawn = []
    for _ in range(n):
        if not p.library:
            # Drawing from an empty library loses at the next state-based check (CR 704.5b).
            p.drew_from_empty = True
            g.note(f"{player} can't draw: the library is empty", "CR 704.5b")
            continue
        top = p.library[0]
        drawn.append(move(g, top, "hand"))
    return drawn


def destroy(g: GameState, obj: Obj, reason: str = "") -> Obj | None:
    if "indestructible" in chars(g, obj).keywords:
        g.note(f"{obj.name} is indestructible and isn't destroyed", "CR 702.12b")
        return None
    return move(g, obj, "graveyard", reason=reason)


def sacrifice(g: GameState, obj: Obj) -> Obj:
    return move(g, obj, "graveyard", reason="sacrifice")


def discard(g: GameState, obj: Obj) -> Obj:
    g.note(f"{obj.owner} discards {obj.name}")
    return move(g, obj, "graveyard", reason="discard")


def mill_or_exile_top(g: GameState, player: str, n: int) -> list[Obj]:
    p = g.player(player)
    out = []
    for _ in range(n):
        if not p.library:
            break
        out.append(move(g, p.library[0], "exile"))
    return out


def shuffle(g: GameState, player: str) -> None:
    g.rng.shuffle(g.player(player).library)
