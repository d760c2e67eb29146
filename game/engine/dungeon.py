"""Dungeons, the venture marker and completing a dungeon (CR 309, 701.49, 704.5t).

A dungeon is immutable data (`DungeonSpec`: rooms, arrows, room abilities as effect steps) plus
a small piece of state per player (`DungeonState`: which dungeon object, which room).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .carddef import Step, TargetSpec
from .choices import Gen
from .decisions import Decision, Option
from .kinds import CHOOSE_DUNGEON, CHOOSE_ROOM
from .ops import data_ops, step_problems
from .state import DungeonState, GameState, PendingTrigger
from .targets import TARGET_KINDS
from .triggers import fire

UNDERCITY = "Undercity"
TARGET_PHRASES = {"creature": "target creature", "player": "target player"}


@dataclass(frozen=True, slots=True)
class RoomSpec:
    name: str
    text: str
    leads_to: tuple[str, ...]
    effect: tuple[Step, ...]
    targets: tuple[TargetSpec, ...]

    @property
    def bottommost(self) -> bool:
        return not self.leads_to


@dataclass(frozen=True, slots=True)
class DungeonSpec:
    name: str
    subtype: str | None
    rooms: dict[str, RoomSpec]  # in printed order; the first is the topmost room
    text: str = ""

    @property
    def top(self) -> str:
        return next(iter(self.rooms))


class DungeonError(ValueError):
    """A dungeon definition that breaks a rule of dungeon shape or of the effect vocabulary."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def validate_dungeon_dict(data: dict[str, Any]) -> list[str]:
    """Every problem with a dungeon definition, each naming the room (empty when valid)."""
    problems: list[str] = []
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("The dungeon needs a name.")
    subtype = data.get("subtype")
    if subtype not in (None, UNDERCITY):
        problems.append(f"Unknown dungeon subtype {subtype!r}; the only one is {UNDERCITY!r}.")
    unknown = set(data) - {"name", "subtype", "rooms", "text"}
    if unknown:
        problems.append(f"Unknown dungeon fields: {', '.join(sorted(unknown))}.")
    rooms = data.get("rooms")
    if not isinstance(rooms, list) or not rooms:
        return problems + ["A dungeon needs a list of rooms (the first is the top room)."]
    names: list[str] = []
    for i, room in enumerate(rooms):
        if not isinstance(room, dict) or not isinstance(room.get("name"), str):
            problems.append(f"Room {i + 1} needs a name.")
            continue
        rname = room["name"]
        if rname in names:
            problems.append(f"Two rooms are named {rname!r}.")
        names.append(rname)
        extra = set(room) - {"name", "text", "leads_to", "effect"}
        if extra:
            problems.append(f"Room {rname!r}: unknown fields {', '.join(sorted(extra))}.")
        if not isinstance(room.get("text"), str) or not room["text"].strip():
            problems.append(f"Room {rname!r} has no text.")
        effect = room.get("effect")
        if not isinstance(effect, list) or not effect:
            problems.append(f"Room {rname!r} needs an effect: a list of steps.")
        else:
            problems += _step_problems(rname, effect)
    known = set(names)
    edges: dict[str, list[str]] = {}
    for room in rooms:
        if not isinstance(room, dict) or not isinstance(room.get("name"), str):
            continue
        leads = room.get("leads_to") or []
        if not isinstance(leads, list):
            problems.append(f"Room {room['name']!r}: leads_to must be a list of room names.")
            leads = []
        for target in leads:
            if target not in known:
                problems.append(f"Room {room['name']!r} leads to {target!r}, which is not a room.")
        edges[room["name"]] = [t for t in leads if t in known]
    if not names:
        return problems
    incoming = {n: 0 for n in names}
    for targets in edges.values():
        for t in targets:
            incoming[t] += 1
    # Each check reports on its own, so every problem shows at once (not one pass at a time).
    if incoming[names[0]]:
        problems.append(f"The top room {names[0]!r} (the first listed) must have no arrow into it.")
    for n in names[1:]:
        if not incoming[n]:
            problems.append(f"Nothing leads to room {n!r}; only the top room may have no way in.")
    # Cycles and reachability from the top room.
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> None:
        state[n] = 1
        for t in edges.get(n, []):
            if state.get(t) == 1:
                problems.append("Rooms form a cycle: " + " → ".join([*path, n, t]) + ".")
            elif t not in state:
                visit(t, [*path, n])
        state[n] = 2

    visit(names[0], [])
    for n in names:
        if n not in state and incoming[n] > 0:
            problems.append(f"Room {n!r} can't be reached from the top room.")
    if not any(not edges.get(n) for n in names):
        problems.append("The dungeon has no bottommost room (a room that leads nowhere).")
    return problems


def _step_problems(room: str, effect: list[Any]) -> list[str]:
    """A room's steps against the vocabulary (ops.step_problems), plus its target phrases:
    `target: KIND` declares one, `target: N` must refer to one declared by an earlier step."""
    problems = []
    declared = 0
    for i, step in enumerate(effect):
        where = f"Room {room!r}, step {i + 1}"
        problems += step_problems(step, where)
        if not isinstance(step, dict) or step.get("op") not in data_ops():
            continue
        op = step["op"]
        target = step.get("target")
        if isinstance(target, str) and target not in ("self", "it"):
            if target not in TARGET_KINDS:
                problems.append(
                    f"{where} ({op}): unknown target kind {target!r}; known: "
                    + ", ".join(sorted(TARGET_KINDS))
                    + "."
                )
            declared += 1
        elif isinstance(target, int) and not isinstance(target, bool) and target >= declared:
            problems.append(f"{where} ({op}): target {target} refers to no earlier target phrase.")
        if step.get("who") == "target" and not isinstance(step.get("target"), str):
            problems.append(f"{where} ({op}): who: target needs a target phrase (target: player).")
    return problems


def dungeon_from_dict(data: dict[str, Any]) -> DungeonSpec:
    """The spec of a dungeon definition from anywhere (a file, an upload): checked first."""
    problems = validate_dungeon_dict(data)
    if problems:
        raise DungeonError(problems)
    return dungeon_spec(data)


def dungeon_spec(data: dict[str, Any]) -> DungeonSpec:
    """The spec of a definition already checked by `validate_dungeon_dict` when it was saved
    (a game's copy of its dungeons): checking it again at every start and replay would only
    repeat the same answer."""
    rooms: dict[str, RoomSpec] = {}
    for room in data["rooms"]:
        steps: list[Step] = []
        targets: list[TargetSpec] = []
        for raw in room["effect"]:
            step = dict(raw)
            target = step.get("target")
            if isinstance(target, str) and target not in ("self", "it"):
                targets.append(TargetSpec(target, TARGET_PHRASES.get(target, f"target {target}")))
                step["target"] = len(targets) - 1
                if step.get("who") == "target":
                    step["who"] = f"target{len(targets) - 1}"
            steps.append(step)
        rooms[room["name"]] = RoomSpec(
            name=room["name"],
            text=room["text"].strip(),
            leads_to=tuple(room.get("leads_to") or ()),
            effect=tuple(steps),
            targets=tuple(targets),
        )
    return DungeonSpec(data["name"], data.get("subtype"), rooms, data.get("text", ""))


# venturing -----------------------------------------------------------------------------------
def venture_restricted(g: GameState, player: str) -> bool:
    """Keen-Eared Sentry: "Each opponent can't venture into the dungeon more than once each
    turn." It covers venture into Undercity too (CR 701.49d: a variant of venture)."""
    if g.player(player).ventures_this_turn < 1:
        return False
    for o in g.battlefield:
        if o.controller != player and o.card.extra.get("opponents_venture_once"):
            return True
    return False


def venture(g: GameState, player: str, *, undercity: bool = False) -> Gen:
    """Venture into the dungeon (CR 701.49) or into Undercity (CR 701.49d)."""
    p = g.player(player)
    if venture_restricted(g, player):
        g.note(
            f"{player} can't venture into the dungeon more than once this turn "
            "(Keen-Eared Sentry), so nothing happens"
        )
        return
    p.ventures_this_turn += 1
    if p.dungeon is None:
        yield from start_dungeon(g, player, undercity=undercity)
        return
    if undercity and p.dungeon.spec.subtype != UNDERCITY:
        # Said before the room, which names the other dungeon: players read the log's "venture
        # into Undercity" as a promise of Undercity.
        g.note(
            f"{player} is in {p.dungeon.name}, so the venture into Undercity goes on there",
            "CR 701.49d",
        )
    here = p.dungeon.spec.rooms[p.dungeon.room]
    if here.bottommost:
        complete_dungeon(g, player, "CR 701.49c")
        yield from start_dungeon(g, player, undercity=undercity)
        return
    choices = list(here.leads_to)
    why = ""
    if len(choices) == 1:
        nxt = choices[0]
        # Said in the log, where a player looks for the choice that was never asked.
        why = f" (the only room after {here.name})"
    else:
        spec = p.dungeon.spec
        options = [Option(f"room:{n}", n, data=spec.rooms[n].text) for n in choices]
        answer = yield Decision(
            player,
            CHOOSE_ROOM,
            f"{p.dungeon.name}: choose the next room from {here.name}",
            options,
        )
        nxt = answer.removeprefix("room:")
    enter_room(g, player, nxt, "CR 701.49b", why)


def dungeon_choices(g: GameState, undercity: bool) -> list[str]:
    """Dungeons that may be entered: Undercity only by venturing into Undercity (CR 701.49d;
    Undercity: "You can't enter this dungeon unless you 'venture into Undercity.'")."""
    return [name for name, spec in g.dungeons.items() if (spec.subtype == UNDERCITY) == undercity]


def start_dungeon(g: GameState, player: str, *, undercity: bool) -> Gen:
    p = g.player(player)
    names = dungeon_choices(g, undercity)
    if not names:
        g.note(f"{player} has no dungeon that can be entered, so nothing happens")
        return
    if len(names) == 1:
        chosen = names[0]
    else:
        options = [Option(f"dungeon:{n}", n) for n in names]
        answer = yield Decision(
            player, CHOOSE_DUNGEON, "Venture into the dungeon: choose a dungeon", options
        )
        chosen = answer.removeprefix("dungeon:")
    spec = g.dungeons[chosen]
    p.dungeon = DungeonState(instance=g.new_id(), spec=spec, room=spec.top)
    g.note(f"{player} puts {chosen} into the command zone", "CR 309.2a")
    enter_room(g, player, spec.top, "CR 701.49a, 309.4a")


def enter_room(g: GameState, player: str, room_name: str, rule: str, why: str = "") -> None:
    """Move the marker; the room ability triggers (CR 309.4c), an additional time for each
    "trigger an additional time" effect (Hama Pashar). `why` ends the log line (a room that
    was the only way on)."""
    p = g.player(player)
    assert p.dungeon is not None
    p.dungeon.room = room_name
    room = p.dungeon.spec.rooms[room_name]
    g.note(f"{player} ventures into {p.dungeon.name}: {room_name} — {room.text}{why}", rule)
    times = 1 + sum(
        o.card.extra.get("room_triggers_additional", 0)
        for o in g.battlefield
        if o.controller == player
    )
    for _ in range(times):
        g.pending_triggers.append(
            PendingTrigger(
                name=room_name,
                controller=player,  # CR 309.4c: controlled by the dungeon's owner
                text=room.text,
                effect=list(room.effect),
                target_specs=list(room.targets),
                dungeon_instance=p.dungeon.instance,
                dungeon_name=p.dungeon.name,
                source_name=p.dungeon.name,
            )
        )
    if times > 1:
        g.note(f"{room_name} triggers {times} times (Hama Pashar)", "AFR Release Notes")


def complete_dungeon(g: GameState, player: str, rule: str) -> None:
    """Remove the dungeon from the game; the player completes it (CR 309.7)."""
    p = g.player(player)
    assert p.dungeon is not None
    name = p.dungeon.name
    p.dungeon = None
    p.completed.append((name, g.turn))
    g.note(f"{player} completes {name}; it is removed from the game", rule)
    fire(g, "complete_dungeon", player=player, dungeon=name)


def dungeon_sba(g: GameState) -> bool:
    """CR 704.5t: remove a dungeon whose marker is on its bottommost room once no room ability
    from it has triggered and not yet left the stack (pending triggers count)."""
    done = False
    for p in g.players:
        d = p.dungeon
        if d is None or not d.spec.rooms[d.room].bottommost:
            continue
        waiting = any(t.dungeon_instance == d.instance for t in g.pending_triggers) or any(
            s.dungeon_instance == d.instance for s in g.stack
        )
        if not waiting:
            complete_dungeon(g, p.name, "CR 704.5t")
            done = True
    return done
