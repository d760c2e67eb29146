"""The game log's headings: the line that starts each turn, and the line that names a phase of
it (CR 500.1) before the first thing that happens in that phase. Without them a spell cast
after combat reads the same as one cast before it (a playtest).

A phase in which nothing is logged gets no heading, so a turn of passes stays one line. The
beginning phase has none of its own: the turn's line heads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The words of each phase (CR 500.1) by the steps in it; the beginning phase is left out.
PHASE_WORDS = {
    "precombat_main": "first main phase",
    "beginning_of_combat": "combat",
    "declare_attackers": "combat",
    "declare_blockers": "combat",
    "combat_damage": "combat",
    "end_of_combat": "combat",
    "postcombat_main": "second main phase",
    "end": "ending phase",
    "cleanup": "ending phase",
}

_PHASES = "|".join(sorted(set(PHASE_WORDS.values())))
# A heading as the engine writes it or as a viewer reads it ("alice's combat, turn 8" becomes
# "Your combat, turn 8" on alice's page: board/whose.py; "Turn 9: alice's turn" becomes
# "Turn 9: your turn": `turn_heading_for`). `who` is a player's name, or "your"/"Your".
_HEADING = re.compile(
    rf"^(?:Turn \d+: (?P<active>.+)'s turn|Turn \d+: your turn"
    rf"|(?P<whose>.+)'s (?:{_PHASES}), turn \d+|Your (?:{_PHASES}), turn \d+)$"
)


def turn_heading(turn: int, active: str) -> str:
    return f"Turn {turn}: {active}'s turn"


def phase_heading(turn: int, active: str, step: str) -> str:
    """The heading of the phase `step` is in, or "" in the beginning phase."""
    words = PHASE_WORDS.get(step)
    return f"{active}'s {words}, turn {turn}" if words else ""


def turn_heading_for(line: str, me: str) -> str:
    """The line as `me` reads it: their own turn's heading says "your turn"."""
    prefix, _, rest = line.partition(": ")
    if rest == f"{me}'s turn" and re.fullmatch(r"Turn \d+", prefix):
        return f"{prefix}: your turn"
    return line


def is_heading(line: str, players: Iterable[str]) -> bool:
    """Whether `line` is a heading of a game between `players` (their names in the log). Names
    are free text: a target line that merely ends like a heading ("… targeting Goblin's combat,
    turn 3") names no player where the heading's name stands, so it is not one."""
    m = _HEADING.match(line)
    if m is None:
        return False
    who = m["active"] or m["whose"]
    return who is None or who in players


__all__ = ["PHASE_WORDS", "is_heading", "phase_heading", "turn_heading", "turn_heading_for"]
