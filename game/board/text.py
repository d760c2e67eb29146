"""The words of the board: step names, what the other seat is told of a decision it can't see,
a clock's face, the short text of a choice drawn on a card, a log line's rule citation."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from game.engine import kinds

STEP_LABELS = {
    "untap": "Untap",
    "upkeep": "Upkeep",
    "draw": "Draw",
    "precombat_main": "Main 1",
    "beginning_of_combat": "Beginning of combat",
    "declare_attackers": "Declare attackers",
    "declare_blockers": "Declare blockers",
    "combat_damage": "Combat damage",
    "end_of_combat": "End of combat",
    "postcombat_main": "Main 2",
    "end": "End step",
    "cleanup": "Cleanup",
}
STEP_ORDER = tuple(STEP_LABELS)

# The decisions made before the first turn begins (CR 103): the top bar names them instead of a
# step of a turn that has not started.
PREGAME_KINDS = {
    kinds.PLAY_OR_DRAW: "Choosing who plays first",
    kinds.MULLIGAN: "Mulligans",
    kinds.MULLIGAN_BOTTOM: "Mulligans",
}

# The short text of a choice drawn on the card it names, by kind ("choose" when not here).
PICK_VERBS = {
    kinds.CHOOSE_TARGETS: "target",
    kinds.CAST_FREE: "cast",
    kinds.DECLARE_ATTACKERS: "attack",
    kinds.DISCARD: "discard",
    kinds.SACRIFICE: "sacrifice",
    kinds.MULLIGAN_BOTTOM: "to the bottom",
}

_CITATION = re.compile(
    r"^(?P<text>.*?) \((?P<rule>(?:CR |AFR|Release|Undercity|CLB|Rulings?)[^()]*)\)$"
)
_NUMBERED = re.compile(r" (#\d+)(?: \([^()]*\))?$")
_APART = re.compile(r" \([^()]*\)$")  # what sets a numbered permanent apart ("(tapped)")
_SYMBOL = re.compile(r"\{([^}]+)\}")


def mana_symbols(cost_text: str | None) -> tuple[str, ...]:
    """ "{1}{G}{G}" -> ("1", "G", "G"): each symbol is drawn as a pip."""
    return tuple(_SYMBOL.findall(cost_text or ""))


def split_citation(line: str) -> tuple[str, str]:
    """A log line and its rule citation ("CR 704.5a"), or the line and ""."""
    m = _CITATION.match(line)
    return (m["text"], m["rule"]) if m else (line, "")


def headings_first[T](items: Sequence[T], is_heading: Callable[[T], bool]) -> tuple[T, ...]:
    """A newest-first log with each heading moved up above the lines of its turn or phase. The
    engine writes a heading before its lines, so read newest first it came below them, like a
    footer (a playtest). Lines older than the oldest heading here (theirs is in an older part of
    the log) stay at the bottom."""
    out: list[T] = []
    group: list[T] = []
    for item in items:
        if is_heading(item):
            out.append(item)
            out.extend(group)
            group = []
        else:
            group.append(item)
    out.extend(group)
    return tuple(out)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def library_places(n: int) -> tuple[tuple[str, str, str], ...]:
    """A scry's places for each of its `n` cards, as (the form's value, the button's text, what
    it says in full): on top at a position (1 is the top card), or the bottom."""
    if n == 1:
        tops = (("1", "Top", "on top"),)
    else:
        tops = tuple((str(i), ordinal(i), f"{ordinal(i)} from the top") for i in range(1, n + 1))
    return (*tops, ("b", "Bottom", "on the bottom"))


def waiting_text(name: str, kind: str) -> str:
    """What the other seat is told about a decision it can't see ("Bob is choosing a room")."""
    return f"{name} {kinds.KINDS[kind].waiting}"


def pick_label(kind: str, label: str) -> str:
    """The short text on a card for an option that names it (a multi-select's choice, or a
    choice's button on the card itself: "target", "block Bob's Varis", "sacrifice #2")."""
    if kind == kinds.DECLARE_ATTACKERS and " -> " in label:
        return "attack " + label.split(" -> ", 1)[1]
    if kind == kinds.DECLARE_BLOCKERS and " blocks " in label:
        # On the blocker's card the attacker's name and number suffice (attackers are tapped).
        return "block " + _APART.sub("", label.split(" blocks ", 1)[1])
    verb = PICK_VERBS.get(kind, "choose")
    numbered = _NUMBERED.search(label)  # one of identical options ("Forest #2 (tapped)")
    return f"{verb} {numbered[1]}" if numbered else verb


def clock_text(ms: int | None) -> str:
    """A chess clock's face: "4:59", "1:02:03", "0:09.5" in the last ten seconds."""
    if ms is None:
        return ""
    if ms < 10_000:
        return f"0:{ms / 1000:04.1f}"
    seconds = math.ceil(ms / 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
