"""Decisions whose one possible answer is public: the pace feature gives it for the player.

A decision is *forced* when exactly one answer is legal: one option to choose, or every option
to take. Giving that answer without asking reveals nothing only when the other seat can tell the
options too, so only kinds whose options follow from public information are answered this way
(kinds.py, `forced_public`: targets, permanents, combat damage, a spell's division of damage
among public targets, dungeon rooms). A choice among cards in a hand or a library is always
asked, even with one card to choose: that the player is asked, or is not, would tell the other
seat how many cards of the hand or the library fit the choice (docs/security.md, "The pace of
the game").
"""

from __future__ import annotations

from .decisions import Decision
from .kinds import KINDS


def forced_answer(d: Decision) -> str | list[str] | None:
    """The one answer `d` allows when its options are public, or None (a choice to make, or
    options the other seat cannot see)."""
    kind = KINDS.get(d.kind)
    if kind is None or not kind.forced_public or d.ordered:
        return None
    options = d.options
    if not options:
        return None
    if not d.multi:
        return options[0].id if len(options) == 1 else None
    if d.min_count < len(options) or d.max_count < len(options):
        return None  # fewer may be chosen: a choice
    if d.check is not None and d.check(list(options)) is not None:
        return None
    return [o.id for o in options]


def forced_note(d: Decision, answer: str | list[str]) -> str:
    """The game log's line for a forced answer given for `d`'s player."""
    ids = [answer] if isinstance(answer, str) else answer
    labels = "; ".join(d.option(i).label for i in ids)
    return f"{d.player} is not asked ({d.prompt}): the only possible answer is {labels}"
