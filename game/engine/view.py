"""What each viewer may see (docs/architecture.md, "Views per viewer").

`judge_view` is the full state JSON of `scenario state` (both hands, library order).
`view_for(seat)` hides the opponent's hand and both libraries (counts) unless revealed;
`view_for(None)` is a spectator's view: no hand at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .continuous import chars
from .kinds import KINDS
from .state import GameState, Obj, StackItem
from .targets import ref_name
from .tokens import token_kind

if TYPE_CHECKING:
    from .game import Engine


# The decisions whose options the other seat sees too (kinds.py, `public`).
PUBLIC_CHOICES = frozenset(k.name for k in KINDS.values() if k.public)


def permanent_json(g: GameState, o: Obj) -> dict[str, Any]:
    c = chars(g, o)
    keywords = sorted(c.keywords) + [f"ward {w}" for w in c.ward]
    out: dict[str, Any] = {
        "id": o.id,
        "name": o.name,
        "alias": o.alias,
        "token": o.token,
        "tapped": o.tapped,
        "controller": o.controller,
        "owner": o.owner,
        "types": sorted(c.types),
        "counters": dict(o.counters),
        "keywords": keywords,
        "sick": o.sick,
    }
    if o.token and token_kind(o.card) != o.name:
        # Which kind of token, where two kinds share a name: the table shows its own face.
        out["card"] = token_kind(o.card)
    if o.goaded_by:
        # Goad is public (CR 701.15): who goaded it, since it lasts until their next turn.
        out["goaded_by"] = sorted(o.goaded_by)
    if "Creature" in c.types:
        out.update(
            power=c.power,
            toughness=c.toughness,
            damage=o.damage,
            # After the effects that set them (layer 7b), before modifications and counters.
            base_power=c.base_power,
            base_toughness=c.base_toughness,
        )
    if o.attached_to is not None:
        host = g.permanent(o.attached_to)
        out["attached_to"] = host.name if host else None
    if g.combat is not None:
        # Who attacks whom and who blocks whom is public (CR 506.4, 509.1): both players and
        # spectators see the pairings.
        if o.id in g.combat.attackers:
            out["attacking"] = True
            out["attacks"] = g.combat.attackers[o.id]  # a player's name or a planeswalker's id
            if o.id in g.combat.blockers:
                out["blocked_by"] = list(g.combat.blockers[o.id])
        if o.id in g.combat.blocking:
            out["blocking"] = True
            out["blocks"] = g.combat.blocking[o.id]
    return out


def stack_json(g: GameState, item: StackItem) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": item.id,
        "name": item.name,
        "kind": item.kind,
        "controller": item.controller,
        "text": item.text,
        "targets": [ref_name(g, r) for refs in item.targets for r in refs],
    }
    amounts = item.amounts()
    if any(a is not None for a in amounts):
        out["division"] = amounts  # each target's share of divided damage (CR 601.2d)
    if item.dungeon_name:
        out["dungeon"] = item.dungeon_name
        out["label"] = f"{item.name} ({item.dungeon_name}) — {item.text}"
    else:
        out["label"] = f"{item.name} — {item.text}" if item.kind == "ability" else item.name
    return out


def _player_json(g: GameState, name: str, *, hand: bool, library: bool) -> dict[str, Any]:
    p = g.player(name)
    d = p.dungeon
    out: dict[str, Any] = {
        "life": p.life,
        "poison": p.poison,
        "initiative": p.initiative,
        "hand": [o.name for o in p.hand] if hand else None,
        "hand_count": len(p.hand),
        "library": [o.name for o in p.library] if library else None,
        "library_count": len(p.library),
        "graveyard": [o.name for o in p.graveyard],
        "exile": [o.name for o in p.exile],
        "battlefield": [permanent_json(g, o) for o in g.battlefield if o.controller == name],
        "dungeon": {"name": d.name, "room": d.room} if d else None,
        "completed": [{"dungeon": n, "turn": t} for n, t in p.completed],
        "mana_pool": dict(p.pool),
        "lost": p.lost,
    }
    if hand:
        out["hand_ids"] = [o.id for o in p.hand]
    else:
        out["revealed_hand"] = [o.name for o in p.hand if o.revealed]
    return out


def _common(game: Engine, *, log: bool = True) -> dict[str, Any]:
    g = game.state
    out: dict[str, Any] = {
        "turn": {"number": g.turn, "active": g.active, "step": g.step},
        "priority": g.priority,
        "stack": [stack_json(g, s) for s in reversed(g.stack)],
        "waiting_triggers": [
            {
                "name": t.name,
                "controller": t.controller,
                "text": t.text,
                "dungeon": t.dungeon_name or None,
            }
            # Once the game is over nothing goes on the stack again (CR 104.1).
            for t in (() if g.over else g.pending_triggers)
        ],
        "winner": g.winner,
        "end_reason": g.end_reason,
    }
    if log:
        out["log"] = list(g.log)
    out["version"] = len(game.answers)
    return out


def judge_view(game: Engine) -> dict[str, Any]:
    g = game.state
    out = _common(game)
    out["players"] = {p.name: _player_json(g, p.name, hand=True, library=True) for p in g.players}
    out["pending"] = game.pending.to_json() if game.pending else None
    return out


def view_for(game: Engine, seat: str | None) -> dict[str, Any]:
    g = game.state
    out = _common(game)
    out["seat"] = seat
    out["players"] = {
        p.name: _player_json(g, p.name, hand=p.name == seat, library=False) for p in g.players
    }
    d = game.pending
    if d is None:
        out["pending"] = None
    elif d.player == seat:
        out["pending"] = d.to_json()
    elif d.kind in PUBLIC_CHOICES:
        # Which dungeons can be entered and which rooms lie ahead are public (dungeons are
        # outside the game or face up in the command zone): the other seat sees the options.
        out["pending"] = {
            "player": d.player,
            "kind": d.kind,
            "options": [o.label for o in d.options],
        }
    else:
        # The other seat learns only who is deciding and what kind of decision it is.
        out["pending"] = {"player": d.player, "kind": d.kind}
    return out


def replay_view(game: Engine, seat: str | None, *, reveal: bool) -> dict[str, Any]:
    """One point of a replay as `seat` (None: a spectator) saw it then, in `view_for`'s shape,
    or with both hands shown when `reveal` (the game is over). Libraries stay counts either way.

    Two things are left out, because the replay holds them once for every point: the log (it
    only grows; a point keeps its length) and a decision's options (listing a priority
    decision's options costs more than the rest of the view, and a replay shows what was
    answered, not what could have been). The prompt's words are kept for the seat that was
    asked, or for everyone once the game is over; the other seat learns who decides and the
    kind of decision, as it did live."""
    g = game.state
    out = _common(game, log=False)
    out["seat"] = seat
    out["players"] = {
        p.name: _player_json(g, p.name, hand=reveal or p.name == seat, library=False)
        for p in g.players
    }
    d = game.pending
    if d is None:
        out["pending"] = None
    else:
        out["pending"] = {"player": d.player, "kind": d.kind}
        if reveal or d.player == seat:
            out["pending"]["prompt"] = d.prompt
    return out
