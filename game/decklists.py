"""Deck text: reading the usual `4 Card Name` format and checking the deck rules.

Pure Python, like the engine: the lobby form and the tests call `parse_decklist`, which returns
the cards or raises `DeckError` listing every problem at once (each unknown card with its line
and a suggestion, every card over four copies, a deck under 40 cards).

Accepted (what Arena, MTGO and most deck sites export):

    Deck                      an optional header; "Main", "Maindeck" too
    4 Varis, Silverymoon Ranger
    4x Forest                 "4x" works as well as "4"
    1 Dungeon Map (AFR) 242   a set code and collector number are ignored
    Sideboard                 starts the sideboard ("SB: 2 Card" on one line also works)
    2 Bar the Gate

Blank lines and lines starting with `#` or `//` are ignored. Copies in the deck and sideboard
count together for the four-copy rule (CR 100.2a).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from game.engine.cards import CARDS

MIN_DECK = 40
MAX_COPIES = 4
# No rule caps a constructed deck, but a pasted text must not make the server build a list of a
# billion Forests: far more than any real deck (docs/security.md, hostile input).
MAX_CARDS = 250
DECK_HEADERS = {"deck", "main", "maindeck", "main deck", "mainboard"}
SIDEBOARD_HEADERS = {"sideboard", "side", "sb"}
IGNORED_HEADERS = {"commander", "companion", "about", "maybeboard"}

_LINE = re.compile(r"^(?P<count>\d+)\s*[xX]?\s+(?P<name>.+?)\s*$")
_SET_SUFFIX = re.compile(r"\s+\([A-Za-z0-9]{2,6}\)(\s+\S+)?$")
_BY_FOLDED = {n.casefold(): n for n in CARDS}


class DeckError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class DeckList:
    main: list[str] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)


def is_basic_land(name: str) -> bool:
    card = CARDS.get(name)
    return card is not None and "Basic" in card.supertypes


def canonical_card_name(raw: str) -> str | None:
    """The pool's spelling of a card name typed with any case or curly apostrophes."""
    cleaned = raw.replace("\u2019", "'").replace("\u2018", "'").strip()
    cleaned = _SET_SUFFIX.sub("", cleaned)
    return _BY_FOLDED.get(cleaned.casefold())


def parse_decklist(text: str) -> DeckList:
    problems: list[str] = []
    deck = DeckList()
    section = deck.main
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        header = line.rstrip(":").strip().casefold()
        if header in DECK_HEADERS:
            section = deck.main
            continue
        if header in SIDEBOARD_HEADERS:
            section = deck.sideboard
            continue
        if header in IGNORED_HEADERS or header.startswith("name "):
            continue
        target = section
        if line[:3].casefold() == "sb:":
            target = deck.sideboard
            line = line[3:].strip()
        match = _LINE.match(line)
        if not match:
            shown = line if len(line) <= 60 else line[:60] + "…"
            problems.append(
                f"Line {number}: {shown!r} is not '<count> <card name>' (e.g. '4 Forest')."
            )
            continue
        count = int(match["count"])
        name = canonical_card_name(match["name"])
        if name is None:
            typed = _SET_SUFFIX.sub("", match["name"].strip())
            hint = (
                difflib.get_close_matches(typed, list(CARDS), n=1, cutoff=0.6)
                if len(typed) <= 60  # no card name is longer; spare the matcher a pasted essay
                else []
            )
            suggestion = f" Did you mean {hint[0]!r}?" if hint else ""
            shown = typed if len(typed) <= 60 else typed[:60] + "…"
            problems.append(f"Line {number}: unknown card {shown!r}.{suggestion}")
            continue
        if count < 1:
            problems.append(f"Line {number}: a count must be at least 1.")
            continue
        if len(deck.main) + len(deck.sideboard) + count > MAX_CARDS:
            problems.append(f"Line {number}: a deck here holds at most {MAX_CARDS} cards.")
            continue
        target.extend([name] * count)
    copies = Counter(deck.main) + Counter(deck.sideboard)
    for name, n in sorted(copies.items()):
        if n > MAX_COPIES and not is_basic_land(name):
            problems.append(
                f"{n} copies of {name}: a deck may hold at most {MAX_COPIES} copies of a card "
                "other than a basic land (deck and sideboard together)."
            )
    if len(deck.main) < MIN_DECK:
        problems.append(f"The deck has {len(deck.main)} cards; it needs at least {MIN_DECK}.")
    if problems:
        raise DeckError(problems)
    return deck


def format_decklist(cards: list[str]) -> str:
    """The cards back as deck text, one `N Name` line per card in first-seen order."""
    counts = Counter(cards)
    return "Deck\n" + "\n".join(f"{n} {name}" for name, n in counts.items()) + "\n"
