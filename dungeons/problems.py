"""Everything wrong with a dungeon being edited, listed at once, each problem once, each attached
to the room, step and field it concerns.

Two sources: the editor's own fields (a number that is not a number, a value not on the list,
an operation's missing parameter) and the engine's whole-dungeon check
(`game.engine.dungeon.validate_dungeon_dict`: shape, arrows, cycles, the vocabulary). The engine
words its problems for a file ("Room 'Left', step 1 (scry): missing parameter 'amount'."); here
each is read back into where it belongs, and one about a field the editor has already reported
is left out, so a designer never reads the same mistake twice in two wordings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOM = re.compile(r"[Rr]oom (['\"])(?P<room>.+?)\1")
STEP = re.compile(r"step (?P<step>\d+) \((?P<op>[^)]*)\): (?P<what>.*)$")
# Which field a step problem of the engine's is about (its wording names the parameter).
PARAM = re.compile(
    r"^(?:missing parameter|unknown parameter) '(?P<a>\w+)'"
    r"|^(?P<b>\w+) (?:has the wrong type|can't be|takes two)"
    r"|^unknown (?P<c>\w+) '"
    r"|^(?P<d>\w+): unknown"
    r"|^unknown (?P<target>target) kind"
    r"|^(?P<target2>target) \d+ refers"
    r"|^(?P<who>who): target"
)
ROOM_FIELD: tuple[tuple[str, str | None], ...] = (
    ("Nothing leads to", None),  # about the arrows into the room: the room itself
    ("has no text", "text"),
    ("needs an effect", "steps"),
    ("leads to", "leads_to"),
    ("leads_to must", "leads_to"),
    ("Two rooms are named", "name"),
    ("form a cycle", "leads_to"),
)


@dataclass(frozen=True)
class Problem:
    message: str
    room: str | None = None  # the room's name ("" for a room without a name yet)
    step: int | None = None  # 1-based, in the room's order
    field: str | None = None  # a room's field, a step's parameter, or the card's (name, …)
    anchor: str = ""  # the id of the input it concerns, when the editor has one

    @property
    def key(self) -> tuple[str | None, int | None, str | None]:
        return (self.room, self.step, self.field)

    @property
    def where(self) -> str:
        parts = []
        if self.room is not None:
            parts.append(f"Room “{self.room}”" if self.room else "A room without a name")
        if self.step is not None:
            parts.append(f"step {self.step}")
        if self.field:
            parts.append(self.field.replace("_", " "))
        return " · ".join(parts)


def step_field(what: str) -> str | None:
    """The field a problem of one step is about (a parameter, "op" for its operation, or
    None), from the engine's wording of it ("missing parameter 'amount'.")."""
    if what.startswith("unknown operation"):
        return "op"
    param = PARAM.search(what)
    return next((v for v in param.groupdict().values() if v), None) if param else None


def read_engine_problem(message: str) -> Problem:
    """An engine problem (validate_dungeon_dict's wording) with the room, step and field found
    in it; the message keeps only what is wrong once the place is shown beside it."""
    room_match = ROOM.search(message)
    room = room_match.group("room") if room_match else None
    if room is not None and "cycle" not in message:
        step_match = STEP.search(message)
        if step_match:
            what = step_match.group("what")
            return Problem(what, room, int(step_match.group("step")), step_field(what))
    if room is None and "cycle" in message:
        first = message.split(": ", 1)[1].split(" → ", 1)[0]
        room = first
    field = next((f for words, f in ROOM_FIELD if words in message), None)
    if message.startswith("The dungeon needs a name"):
        field = "name"
    if room_match and room_match.start() == 0 and "cycle" not in message:
        # "Room 'Left' has no text." is shown as: Room “Left” · text: Has no text.
        message = message[room_match.end() :].lstrip(":, ")
    return Problem(message, room, None, field)


def merge(own: list[Problem], engine: list[str]) -> list[Problem]:
    """The editor's problems, then the engine's that say something new: each once."""
    out = list(own)
    seen_keys = {p.key for p in own if p.field}
    seen_text = {p.message for p in own}
    for message in engine:
        problem = read_engine_problem(message)
        if problem.field and problem.key in seen_keys:
            continue
        if problem.message in seen_text:
            continue
        seen_text.add(problem.message)
        out.append(problem)
    return out
