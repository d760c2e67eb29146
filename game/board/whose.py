"""Whose object an option names: "your Goblin", "Bob's Varis" (the issue's "honest choices").

The engine's option labels are a public contract (scenario files answer with them), so they stay
as they are; the board shows each option of a choice with the controller of every permanent,
spell or ability it names (the owner for a card in another zone) and "you" or the other player's
name for a player, and ties it to what it names on the board (`marks`: tokens the page uses to
highlight the card, the stack item or the player's plate). A permanent among identical ones
says the number its card shows among its controller's namesakes ("your Forest #2", whatever
number the engine's label gave the option) and what sets it apart (tapped where a namesake is
not, damage, counters); the same action on identical cards in the viewer's hand is one choice
however many copies there are (`alike`), and a search offers each card once with the number of
copies ("Swamp (6)").

Only the viewer's own decision is read, while the engine is locked (snapshot.read): its
options are the viewer's to see.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.engine.continuous import chars, is_creature
from game.engine.headings import turn_heading_for
from game.engine.kinds import PRIORITY, SEARCH
from game.engine.targets import namesake_number, whose_after

if TYPE_CHECKING:
    from game.engine.decisions import Decision, Option
    from game.engine.state import GameState, Obj

_NUMBER = re.compile(r" #\d+")
_TARGETING = " targeting "


@dataclass(frozen=True, slots=True)
class Owned:
    display: str  # the label with whose each named thing is
    marks: str  # "o12 s40 pbob": object, stack item and player tokens for highlighting
    # Options with the same `alike` are interchangeable ("play Plains #1", "#2"; "Forest #1",
    # "#2" to discard): the same action on cards of one name hidden in the viewer's hand or
    # library that nothing tells apart, in a choice of one option; "" otherwise.
    alike: str = ""
    # Whose side of the table the first thing it names is on ("Your side", "Bob's side"), and
    # whether that is the viewer's: a list of targets is grouped by it (prompt.py).
    side: str = ""
    mine: bool = False


def owners(g: GameState, d: Decision, me: str, names: dict[str, str]) -> dict[str, Owned]:
    """Each option's display text and marks, by option id (priority decisions: marks only;
    "cast your Sentry" would say nothing new)."""
    out: dict[str, Owned] = {}
    with g.reading():
        for o in d.options:
            if o.data == "mana":
                continue
            named = _named(g, o)
            if not named:
                continue
            marks = " ".join(mark for mark, _, _ in named)
            if d.kind == PRIORITY:
                display = o.label
            elif d.kind == SEARCH:
                display = _found(o)
            else:
                display = _display(g, o, named, me, names)
            # (A search's options are one per card already, each with its copies: _found.)
            one = len(named) == 1 and not d.multi and not d.ordered and d.kind != SEARCH
            alike = _alike(o, named[0][2], me) if one else ""
            player = _player_of(named[0][2])
            side = "Your side" if player == me else f"{names.get(player, player)}'s side"
            out[o.id] = Owned(display, marks, alike, side if player else "", player == me)
    return out


def _player_of(thing: Any) -> str:
    """The player a named thing belongs to at the table: a player themself, a permanent's or a
    stack item's controller, a card's owner elsewhere."""
    if isinstance(thing, str):
        return thing
    if getattr(thing, "zone", "battlefield") == "battlefield":
        return getattr(thing, "controller", "") or ""
    return getattr(thing, "owner", "") or ""


def _alike(o: Option, thing: Any, me: str) -> str:
    """What an action on a card hidden in the viewer's own hand or library is, whichever copy
    it takes: its kind and ability with the card's id left out ("act::1"), and its label
    without the number that tells copies apart. A revealed card is known to the opponent, so
    it is one of a kind; a card anywhere else (the battlefield, exile) may differ from its
    namesakes."""
    hidden = getattr(thing, "zone", None) in ("hand", "library")
    if not hidden or thing.owner != me or thing.revealed:
        return ""
    kind, colon, rest = o.id.partition(":")
    if not colon:  # "o12": a choice of the card itself, its id all the option's id says
        kind = "card"
    ability = rest.partition(":")[2]
    return f"{kind}:{ability}:{_NUMBER.sub('', o.label)}"


def _named(g: GameState, o: Option) -> list[tuple[str, str, Any]]:
    """What an option names: (mark, name shown in its label, the thing) for objects, stack
    items and players."""
    found: list[tuple[str, str, Any]] = []
    for obj_id in o.objs:
        obj = g.find(obj_id)
        if obj is not None:
            found.append((f"o{obj_id}", obj.name, obj))
    ref = o.data
    if isinstance(ref, tuple) and len(ref) == 2 and isinstance(ref[0], str):
        what, value = ref
        if what == "player" and any(p.name == value for p in g.players):
            found.append((f"p{value}", value, value))
        elif what == "stack":
            item = g.stack_item(value)
            if item is not None:
                found.append((f"s{value}", item.name, item))
    return found


def _found(o: Option) -> str:
    """A card a search may find, offered once however many copies the library holds: its name
    and that number ("Swamp (6)"). Where a copy lies is nothing to choose, and the prompt says
    whose library it is."""
    return f"{o.label} ({1 + len(o.former_ids)})"


def _display(
    g: GameState, o: Option, named: list[tuple[str, str, Any]], me: str, names: dict[str, str]
) -> str:
    """The label with "your "/"Bob's " before each thing it names, in order of appearance; a
    permanent numbered among namesakes ("Goblin #2") says after its number what sets it apart,
    and a card in another zone says where it is."""
    label = o.label
    out, at = [], 0
    for _, name, thing in named:
        i = label.find(name, at)
        if i < 0:
            continue
        end = i + len(name)
        if isinstance(thing, str):  # a player
            shown = "you" if thing == me else names.get(thing, thing)
        else:
            on_battlefield = getattr(thing, "zone", "battlefield") == "battlefield"
            controller = thing.controller if on_battlefield else getattr(thing, "owner", "")
            whose = "your" if controller == me else f"{names.get(controller, controller)}'s"
            shown = f"{whose} {name}"
            number = _NUMBER.match(label, end)
            if number:  # the engine's number tells options apart, not cards
                end = number.end()
            if on_battlefield:  # the number on the card, among its controller's namesakes
                n = namesake_number(g, thing)
                shown += f" #{n}" if n else ""
                where = _apart(g, thing, me) if n else ""
            else:
                shown += number.group() if number else ""
                where = _apart(g, thing, me)
            if where:
                shown += f" ({where})"
        out.append(label[at:i] + shown)
        at = end
    return "".join(out) + label[at:]


def _apart(g: GameState, obj: Obj, me: str) -> str:
    """What tells a permanent from its namesakes (its power and toughness where they are not
    the printed ones, tapped or untapped where they differ in it, damage, counters), or where
    a card in another zone is."""
    if obj.zone == "library":
        library = g.player(obj.owner).library
        if obj.owner != me or obj not in library:
            return "library"
        n = library.index(obj)
        return "top of your library" if n == 0 else f"your library, {_ordinal(n + 1)} from the top"
    if obj.zone != "battlefield":
        return {"hand": "hand", "graveyard": "graveyard", "exile": "exile"}.get(obj.zone, "")
    bits = []
    if is_creature(g, obj):
        c = chars(g, obj)
        if (c.power, c.toughness) != (c.base_power, c.base_toughness):
            bits.append(f"{c.power}/{c.toughness}")
    # Tapped or untapped only where its namesakes are not all alike in it: the number on the
    # card tells them apart already, and a block's line saying "(untapped)" of every blocker
    # (and "(tapped)" of every attacker) made the phone's docked prompt grow over the cards.
    namesakes = [o for o in g.battlefield if o.controller == obj.controller and o.name == obj.name]
    if any(o.tapped != obj.tapped for o in namesakes):
        bits.append("tapped" if obj.tapped else "untapped")
    if obj.damage:
        bits.append(f"{obj.damage} damage")
    bits.extend(f"{n} {kind}" for kind, n in sorted(obj.counters.items()) if n)
    return ", ".join(bits)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@functools.lru_cache(maxsize=4096)
def log_line_for(line: str, me: str) -> str:
    """A log line as the viewer reads it. The engine writes whose each object is by name (one
    text for both players and the replay): a target ("casts Kick in the Door targeting Bob's
    Dungeon Crawler"), a permanent at the start of a line ("Bob's Goblin is destroyed") and one
    dealt damage ("deals 2 damage to Goblin (Bob's)"). To the viewer its own things are
    "your", "Your" and "(yours)", and itself as a target "you"; its own turn's first line says
    "Turn 9: your turn"."""
    if not me:
        return line
    name = re.escape(me)
    line = re.sub(rf"^{name}'s ", "Your ", line)
    line = turn_heading_for(line, me)
    # A pass explained (engine/stops.py) names the turn's player: "in your main 2".
    line = re.sub(rf"^(Your priority is passed in ){name}'s ", r"\1your ", line)
    line = line.replace(whose_after(me), "(yours)")
    at = line.find(_TARGETING)
    if at < 0:
        return line
    cut = at + len(_TARGETING)
    tail = re.sub(rf"(^|, ){name}'s ", r"\1your ", line[cut:])
    tail = re.sub(rf"(^|, ){name}(?=, |$| \()", r"\1you", tail)
    return line[:cut] + tail
