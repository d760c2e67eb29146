"""A point of a game written as a scenario file (docs/scenarios.md), for "play on from here".

A scenario's position starts with the active player holding priority in a step whose beginning
is done, an empty stack, and only what its `setup` keys can say. `unwritable` names what a point
has besides (a spell on the stack, an attack under way, an effect "until end of turn"…), so the
replay can offer the nearest earlier point instead and say why; `position_file` writes a point
that has nothing of the kind. Reading the file back gives the same position: every setup key is
written from the state it sets (tests/web/test_replays.py starts a game from it and compares).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from game.engine.cards import TOKENS
from game.engine.kinds import PRIORITY
from game.engine.mana import MANA_KINDS
from game.engine.priority import may_play_from_exile
from game.engine.tokens import token_kind

if TYPE_CHECKING:
    from game.engine.game import Engine
    from game.engine.state import GameState, Obj, Player

# The flags of an object a position cannot set, with what the replay says of them.
_OBJECT_FLAGS = (
    ("revealed", "a revealed card"),
    ("may_cast_creature", "a card on an adventure"),
    ("play_until", "a card that may be played from exile"),
    ("play_free", "a card that may be cast without paying"),
    ("exile_if_leaves", "a permanent exiled if it leaves"),
    ("goaded_by", "a goaded creature"),
    ("deathtouch_damage", "deathtouch damage on a creature"),
)


# Where a revealed card is written anyway: in the hand by `revealed:`, and in exile, a public
# zone (CR 406.3), where being revealed changes nothing anyone sees.
_REVEALED_WRITTEN = ("hand", "exile")


def unwritable(engine: Engine) -> str | None:
    """Why this point can't be a scenario's position, or None when it can."""
    g = engine.state
    d = engine.pending
    if d is None or g.over:
        return "the game is over"
    if d.kind != PRIORITY or d.player != g.active:
        return "a scenario starts with the active player holding priority"
    if g.stack:
        return "something is on the stack"
    if g.pending_triggers:
        return "a triggered ability waits to go on the stack"
    if g.combat is not None and (g.combat.attackers or g.combat.blocking):
        return "an attack is under way"
    if g.combat is not None and g.combat.declared and g.step != "end_of_combat":
        # Every attacker has left combat, but the blockers and damage steps still happen
        # (CR 508.8); a position has no attack, so it would skip them.
        return "attackers were declared this combat (a scenario cannot say so)"
    if g.effects:
        return "an effect with a duration is in force (a scenario has no such key)"
    if g.turn == 1 and g.first_player != g.players[0].name:
        # The position's first player is its first seat; on turn 1 that decides a draw (CR 103.8a).
        return "on turn 1 the player who went first must be the first seat"
    if g.loyalty_used or any(t == g.turn for _, _, t in g.triggered_once):
        return "an ability was used this turn that may be used once a turn"
    for p in g.players:
        reason = _player_unwritable(g, p)
        if reason:
            return reason
    return None


def _player_unwritable(g: GameState, p: Player) -> str | None:
    if p.lost:
        return f"{p.name} has lost"
    if p.emblems:
        return f"{p.name} has an emblem"
    for o in [*p.hand, *p.library, *p.graveyard, *p.exile, *g.controlled(p.name)]:
        # One test for the common case (every point of a replay asks): nothing unusual.
        plain = not (
            o.revealed
            or o.may_cast_creature
            or o.play_until
            or o.play_free
            or o.exile_if_leaves
            or o.goaded_by
            or o.deathtouch_damage
            or o.token
            or o.controller != o.owner
            or (o.zone != "battlefield" and (o.counters or o.damage or o.tapped))
        )
        if plain:
            continue
        for attr, what in _OBJECT_FLAGS:
            if not getattr(o, attr):
                continue
            if attr == "revealed" and o.zone in _REVEALED_WRITTEN:
                continue
            if attr in ("play_until", "play_free") and _expired(g, o):
                continue  # a "you may play it this turn" of a turn gone: an exiled card as any
            return f"{what} ({o.name})"
        if o.zone == "battlefield" and o.controller != o.owner:
            return f"{o.name} is controlled by a player who does not own it"
        if o.token and o.zone != "battlefield":
            return f"a token outside the battlefield ({o.name})"
        if o.token and TOKENS.get(token_kind(o.card)) is not o.card:
            return f"a token a scenario cannot name ({o.name})"
        if o.zone != "battlefield" and (o.counters or o.damage or o.tapped):
            return f"a card with counters outside the battlefield ({o.name})"
    return None


def _expired(g: GameState, o: Obj) -> bool:
    """Whether a permission to play `o` from exile has run out (its last turn is over)."""
    return o.play_until is not None and not may_play_from_exile(g, o.play_until[0], o)


def position_file(engine: Engine, name: str, description: str = "") -> str:
    """The scenario file of this point (check `unwritable` first): the players, the turn and
    every player's setup, as `manage.py scenario` and the New game form read it."""
    g = engine.state
    doc: dict[str, Any] = {"name": name}
    if description:
        doc["description"] = description
    doc["players"] = [p.name for p in g.players]
    doc["turn"] = {"number": g.turn, "active": g.active, "step": g.step}
    if g.creatures_died_this_turn:
        doc["turn"]["creatures_died"] = g.creatures_died_this_turn
    doc["setup"] = {p.name: _player_setup(g, p) for p in g.players}
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)


def _player_setup(g: GameState, p: Player) -> dict[str, Any]:
    out: dict[str, Any] = {"life": p.life}
    if p.poison:
        out["poison"] = p.poison
    for zone in ("hand", "library", "graveyard", "exile"):
        cards = [o.name for o in p.zone(zone)]
        if cards:
            out[zone] = cards
    revealed = [o.name for o in p.hand if o.revealed]
    if revealed:
        out["revealed"] = revealed
    battlefield = [_permanent(g, o) for o in g.controlled(p.name)]
    if battlefield:
        out["battlefield"] = battlefield
    if p.dungeon is not None:
        out["dungeon"] = {"name": p.dungeon.spec.name, "room": p.dungeon.room}
    if p.completed:
        out["completed"] = [name for name, _turn in p.completed]
    if p.initiative:
        out["initiative"] = True
    if p.lands_played:
        out["lands_played"] = p.lands_played
    if p.ventures_this_turn:
        out["ventured_this_turn"] = p.ventures_this_turn
    pool = {kind: p.pool[kind] for kind in MANA_KINDS if p.pool.get(kind)}
    if pool:
        out["mana_pool"] = pool
    return out


def _permanent(g: GameState, o: Obj) -> dict[str, Any]:
    out: dict[str, Any] = {"token": token_kind(o.card)} if o.token else {"card": o.name}
    if o.tapped:
        out["tapped"] = True
    if o.sick:
        out["sick"] = True
    if o.counters:
        out["counters"] = dict(o.counters)  # loyalty included: the position keeps it as given
    if o.damage:
        out["damage"] = o.damage
    # An alias for every permanent something is attached to, and its attachments name it.
    if any(x.attached_to == o.id for x in g.battlefield):
        out["as"] = f"p{o.id}"
    if o.attached_to is not None:
        out["attached_to"] = f"p{o.attached_to}"
    return out
