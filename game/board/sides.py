"""One player's half of the table (`Side`) as the viewer may see it: life and counts, the
permanents sorted into lands, creatures and the rest, the hand, the dungeon. Made from the
engine's view in a `Snapshot`, for the live board and the replay alike."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from game.engine.targets import namesake_numbers

from . import memos
from .text import PREGAME_KINDS
from .viewmodel import Completed, Counter, HandCard, Keyword, Permanent, SeatView, Side

if TYPE_CHECKING:
    from game.models import Game

    from .prompt import ObjActions
    from .snapshot import Snapshot
    from .viewmodel import Option


def side(
    game: Game, seat: SeatView, snap: Snapshot, actions: ObjActions, holder: str | None
) -> Side:
    pv = snap.view["players"][seat.engine_name]
    pending = snap.view["pending"]
    # Before the first turn (the play/draw choice, mulligans) nobody's turn has begun.
    pregame = bool(pending and pending["kind"] in PREGAME_KINDS)
    is_active = snap.view["turn"]["active"] == seat.engine_name and not pregame
    # Names of what a permanent may fight: the permanents on the battlefield, each with the
    # number its card shows among its controller's namesakes ("blocking Veteran Dungeoneer #2":
    # which of two it blocks), and the players.
    names: dict[int | str, str] = {}
    for half in snap.view["players"].values():
        numbers = namesake_numbers((p["id"], p["name"]) for p in half["battlefield"])
        for p in half["battlefield"]:
            number = numbers.get(p["id"])
            names[p["id"]] = f"{p['name']} #{number}" if number else p["name"]
    names.update(snap.player_names)
    lands, creatures, others = _battlefield(pv["battlefield"], actions, is_active, names)
    dungeon = (pv["dungeon"]["name"], pv["dungeon"]["room"]) if pv["dungeon"] else None
    spec = snap.dungeons.get(dungeon[0]) if dungeon else None
    room = spec.rooms.get(dungeon[1]) if spec and dungeon else None
    return Side(
        name=seat.engine_name,
        display_name=seat.display_name,
        is_viewer=seat.is_viewer,
        connected=seat.connected,
        life=pv["life"],
        poison=pv["poison"],
        initiative=pv["initiative"],
        lost=pv["lost"],
        hand_count=pv["hand_count"],
        library_count=pv["library_count"],
        graveyard=tuple(pv["graveyard"]),
        exile=tuple(pv["exile"]),
        mana_pool=tuple(pv["mana_pool"].items()),
        revealed_hand=tuple(pv["revealed_hand"]) if pv.get("revealed_hand") is not None else None,
        lands=lands,
        creatures=creatures,
        others=others,
        hand=_hand(pv["hand"], snap.my_hand_ids if seat.is_viewer else None, actions),
        dungeon=dungeon,
        completed=tuple(Completed(c["dungeon"], c["turn"]) for c in pv["completed"]),
        dungeon_map=memos.side_map(game, spec, dungeon[1]) if spec and dungeon else None,
        dungeon_room_text=room.text if room else "",
        is_active=is_active,
        has_priority=holder == seat.engine_name,
        deciding=bool(pending and pending.get("player") == seat.engine_name),
        computer=seat.computer,
    )


def _battlefield(
    permanents: list[dict[str, Any]],
    actions: ObjActions,
    is_active: bool,
    names: dict[int | str, str],
) -> tuple[tuple[Permanent, ...], tuple[Permanent, ...], tuple[Permanent, ...]]:
    """A side's permanents as (lands, creatures, others). Summoning sickness (CR 302.6) is
    shown only where it matters: a creature of the player whose turn it is, that could attack
    but for it; on the other player's turn it only keeps {T} abilities off, which the buttons
    on it show."""
    lands, creatures, others = [], [], []
    numbers = namesake_numbers((p["id"], p["name"]) for p in permanents)
    for p in permanents:
        if p["id"] in numbers:  # part of the memo key, as the names below
            p = {**p, "number": numbers[p["id"]]}
        if p["sick"] and (not is_active or "haste" in p["keywords"]):
            p = {**p, "sick": False}
        # Who fights whom, in words on the cards (the lines between them are drawn by the page):
        # the names go into the permanent's view, so they are part of its memo key.
        if p.get("blocks") is not None:
            # A blocker stays a blocking creature when the creature it blocks has left combat
            # (only its own removal ends that, CR 506.4): said so, rather than "blocking" and
            # no name (a playtest).
            p = {**p, "blocks_name": names.get(p["blocks"], "a creature no longer in combat")}
        if p.get("attacks") is not None:
            p = {**p, "attacks_name": names.get(p["attacks"], "")}
        if p.get("blocked_by"):
            p = {**p, "blocked_by_names": [names.get(b, "") for b in p["blocked_by"]]}
        if p.get("goaded_by"):
            p = {**p, "goaded_by_names": [names.get(n, n) for n in p["goaded_by"]]}
        acts = actions.get(p["id"], ())
        perm = _permanent(p, acts, None) if acts else _plain_permanent(p)
        if "Creature" in p["types"]:
            creatures.append(perm)
        elif "Land" in p["types"]:
            lands.append(perm)
        else:
            others.append(perm)
    return tuple(lands), tuple(creatures), tuple(others)


def _plain_permanent(p: dict[str, Any]) -> Permanent:
    """A permanent without the viewer's buttons: a function of the engine's view of it alone,
    so made once per distinct view (memos.PERMANENTS) and its HTML rendered once per key
    (render.piece). Most of a side, and a frozen dataclass costs microseconds to make."""
    key = _digest(p)
    return memos.PERMANENTS.get_or_make(key, lambda: _permanent(p, (), key))


def _permanent(p: dict[str, Any], actions: tuple[Option, ...], key: bytes | None) -> Permanent:
    info = memos.card_info(p.get("card", p["name"]))
    has_pt = "power" in p
    power, toughness = p.get("power"), p.get("toughness")
    # Marked against the printed card, not the state's base (a 1/1 Bird made of a 5/5 is down).
    printed_p, printed_t = info.power, info.toughness
    power_mark = _mark(power, printed_p) if has_pt else ""
    toughness_mark = _mark(toughness, printed_t) if has_pt else ""
    counters = p["counters"]
    return Permanent(
        id=p["id"],
        name=p["name"],
        card=p.get("card", p["name"]),
        info=info,
        token=p["token"],
        tapped=p["tapped"],
        sick=p["sick"],
        types=tuple(p["types"]),
        creature="Creature" in p["types"],
        keyword_list=tuple(
            Keyword(k, k not in info.printed_keywords and not k.startswith("ward"))
            for k in p["keywords"]
        ),
        counter_list=tuple(Counter(k, n) for k, n in sorted(counters.items()) if n),
        loyalty=counters.get("loyalty", 0),
        has_pt=has_pt,
        power=power,
        toughness=toughness,
        printed_power=printed_p,
        printed_toughness=printed_t,
        power_mark=power_mark,
        toughness_mark=toughness_mark,
        pt_changed=bool(power_mark or toughness_mark),
        damage=p.get("damage"),
        attached_to=p.get("attached_to"),
        attacking=p.get("attacking"),
        blocking=p.get("blocking"),
        attacks=p.get("attacks"),
        blocks=p.get("blocks"),
        blocks_name=p.get("blocks_name", ""),
        attacks_name=p.get("attacks_name", ""),
        blocked_by=tuple(p.get("blocked_by_names", ())),
        goaded_by=tuple(p.get("goaded_by_names", ())),
        actions=actions,
        key=key,
        number=p.get("number", 0),
    )


def _mark(value: Any, printed: Any) -> str:
    """ "up" or "down" when an effect changed a printed power or toughness, else ""."""
    if printed is None or value == printed:
        return ""
    return "up" if value > printed else "down"


def _digest(data: Any) -> bytes:
    """A short key for plain data (dicts, lists, strings, numbers, booleans, None): 128 bits of
    BLAKE2 over its repr (the text itself as the key would be kept with every entry). Equal
    reprs are equal data; equal data with keys in another order only misses the memo once.
    (The repr is 2-3x cheaper than canonical JSON, and a render takes a key per permanent.)"""
    return hashlib.blake2b(repr(data).encode(), digest_size=16).digest()


def _hand(
    names: list[str] | None, ids: list[int] | None, actions: ObjActions
) -> tuple[HandCard, ...]:
    """The viewer's own hand (names: None for a hand the viewer can't see)."""
    if names is None:
        return ()
    cards = []
    for i, name in enumerate(names):
        obj_id = ids[i] if ids is not None and i < len(ids) else None
        acts = actions.get(obj_id, ()) if obj_id is not None else ()
        key = None if acts else f"{name}#{obj_id}"
        cards.append(HandCard(name, memos.card_info(name), acts, key, obj_id))
    return tuple(cards)
