"""Starting a game from a position (a scenario file's setup): zones, life, mana, dungeon, history.

The input is plain data, already parsed; an unknown card, token, dungeon or room raises
`PositionError` naming where it is.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS, TOKENS
from .headings import phase_heading
from .mana import MANA_KINDS
from .state import STEPS, DungeonState, GameState, Obj


class PositionError(ValueError):
    pass


def _card(name: str, where: str):
    if name not in CARDS:
        raise PositionError(f"{where}: unknown card {name!r}")
    return CARDS[name]


def apply_position(
    g: GameState, position: dict[str, Any], *, in_mapping_order: bool = False
) -> str:
    turn = position.get("turn") or {}
    g.turn = int(turn.get("number", 1))
    g.active = turn.get("active", g.players[0].name)
    g.first_player = g.players[0].name
    step = turn.get("step", "precombat_main")
    if step not in STEPS:
        raise PositionError(f"turn.step: unknown step {step!r}; steps: {', '.join(STEPS)}")
    if g.active not in g.by_name:
        raise PositionError(f"turn.active: {g.active!r} is not a player")
    g.creatures_died_this_turn = int(turn.get("creatures_died", 0))
    aliases: dict[str, Obj] = {}
    attachments: list[tuple[Obj, str]] = []
    setup = position.get("setup") or {}
    for name in setup:
        if name not in g.by_name:
            raise PositionError(f"setup: {name!r} is not a player")
    # In seat order, not the mapping's: object ids are given out here, and a position stored as
    # JSON can come back with its keys in another order (PostgreSQL's jsonb sorts them), which
    # must not give a replay other ids than the game it replays. (`in_mapping_order`: a game
    # stored before this, replayed as it was played.)
    order = list(setup) if in_mapping_order else [p.name for p in g.players if p.name in setup]
    for name in order:
        _place_player(g, name, setup[name] or {}, aliases, attachments)
    if sum(p.initiative for p in g.players) > 1:
        raise PositionError("setup: at most one player may have the initiative")
    for o, target in attachments:
        host = aliases.get(target) or next((x for x in g.battlefield if x.name == target), None)
        if host is None:
            raise PositionError(f"attached_to: no permanent named {target!r}")
        o.attached_to = host.id
    g.note(f"Position loaded: turn {g.turn}, {g.active}'s {step.replace('_', ' ')}")
    g.heading_written = phase_heading(g.turn, g.active, step)  # the line above names the step
    return step


def _place_player(
    g: GameState,
    name: str,
    spec: dict[str, Any],
    aliases: dict[str, Obj],
    attachments: list[tuple[Obj, str]],
) -> None:
    """One player's part of the setup, in the order its objects get their ids: the zones, the
    battlefield, the dungeon."""
    p = g.player(name)
    p.life = int(spec.get("life", 20))
    p.lands_played = int(spec.get("lands_played", 0))
    p.ventures_this_turn = int(spec.get("ventured_this_turn", 0))
    p.poison = int(spec.get("poison", 0))
    # Mid-step, so mana may wait in the pool; it empties as the step ends (CR 106.4).
    pool = spec.get("mana_pool") or {}
    for kind in pool:
        if kind not in MANA_KINDS:
            raise PositionError(
                f"setup.{name}.mana_pool: unknown mana {kind!r}; kinds: {' '.join(MANA_KINDS)}"
            )
    p.pool = {kind: int(pool[kind]) for kind in MANA_KINDS if pool.get(kind)}
    for zone in ("hand", "library", "graveyard", "exile"):
        for i, card_name in enumerate(spec.get(zone) or []):
            o = Obj(g.new_id(), _card(card_name, f"setup.{name}.{zone}[{i}]"), name, name, zone)
            p.zone(zone).append(o)
    # Cards of the hand the other player has seen, each a copy not yet marked (the loader has
    # checked that the hand holds them all).
    for card_name in spec.get("revealed") or []:
        o = next((x for x in p.hand if x.name == card_name and not x.revealed), None)
        if o is None:
            raise PositionError(f"setup.{name}.revealed: {card_name!r} is not in the hand")
        o.revealed = True
    for i, entry in enumerate(spec.get("battlefield") or []):
        entry = {"card": entry} if isinstance(entry, str) else entry
        o = _permanent(g, name, entry, f"setup.{name}.battlefield[{i}]")
        g.battlefield.append(o)
        if o.alias:
            aliases[o.alias] = o
        if entry.get("attached_to"):
            attachments.append((o, entry["attached_to"]))
    if spec.get("dungeon"):
        p.dungeon = _dungeon(g, name, spec["dungeon"])
    for i, done in enumerate(spec.get("completed") or []):
        if done not in g.dungeons:
            raise PositionError(f"setup.{name}.completed[{i}]: unknown dungeon {done!r}")
        p.completed.append((done, 0))
    if spec.get("initiative"):
        p.initiative = True


def _permanent(g: GameState, owner: str, entry: dict[str, Any], where: str) -> Obj:
    if "token" in entry:
        token_name = entry["token"]
        if token_name not in TOKENS:
            raise PositionError(f"{where}: unknown token {token_name!r}")
        card, token = TOKENS[token_name], True
    else:
        card, token = _card(entry.get("card", ""), where), False
    o = Obj(
        g.new_id(),
        card,
        owner,
        entry.get("controller", owner),
        "battlefield",
        token=token,
        tapped=bool(entry.get("tapped", False)),
        sick=bool(entry.get("sick", False)),
        damage=int(entry.get("damage", 0)),
        counters=dict(entry.get("counters") or {}),
        timestamp=g.new_timestamp(),
        alias=entry.get("as"),
    )
    if "loyalty" in entry or ("Planeswalker" in card.types and "loyalty" not in o.counters):
        o.counters["loyalty"] = int(entry.get("loyalty", card.loyalty or 0))
    return o


def _dungeon(g: GameState, name: str, dungeon: dict[str, Any]) -> DungeonState:
    dname = dungeon.get("name")
    if dname not in g.dungeons:
        raise PositionError(
            f"setup.{name}.dungeon: unknown dungeon {dname!r}; known: {', '.join(g.dungeons)}"
        )
    d = g.dungeons[dname]
    room = dungeon.get("room", d.top)
    if room not in d.rooms:
        raise PositionError(
            f"setup.{name}.dungeon: {dname} has no room {room!r}; rooms: {', '.join(d.rooms)}"
        )
    return DungeonState(g.new_id(), d, room)
