"""What a seat has seen that its view of the moment no longer shows (docs/ai.md, "It never
peeks").

A player remembers the cards scry showed on top of their library and the ones they put on the
bottom after a mulligan, and the card of the other player's that went back to their hand. The
view of the moment (`view_for`) has forgotten them, so the computer reads the game's history: it
replays the answer log (as a server rebuilds a game) and after each answer takes in only what
its seat was shown:

- its own decisions and answers: a scry shows it the top of its library and it chooses where
  each card goes, a mulligan's bottom names the cards it puts there, an explore names the top
  card it may leave there;
- the other player's cards in sight (battlefield, graveyard, exile, the stack, cards revealed
  in hand), and whether a card went into that player's hand: a card that leaves sight when one
  goes into the hand went there;
- that cards were put in a random order (every shuffle is public): the replay's random generator
  is wrapped to say which objects a shuffle moved, never where they went. What the seat knew of
  their places is forgotten.

A known card keeps its place in the library until a shuffle: a library changes only at its top
(a draw, a mill) and bottom, or by a search, which shuffles, so where a known card stands follows
from what the seat saw. Nothing else of the replayed game is read, so two games that look the
same to the seat give the same memory.

The replay is kept per game (a thinking process keeps its copy of a game from one decision to the
next) and goes on from where it stopped, so a decision costs the replay of the answers since the
last one.
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from game.engine import kinds
from game.engine.effects_permanents import explored_card
from game.engine.game import Engine, GameSetup
from game.engine.state import GameState, Obj


@dataclass
class Seen:
    """The seat's memory at a decision."""

    # Objects of the seat's own library (by id) whose card, and so place, the seat knows.
    own_placed: dict[int, str] = field(default_factory=dict)
    # The other player's cards known to be in their hand (they went there from sight).
    their_hand: Counter[str] = field(default_factory=Counter)
    # The other player's cards known to be in their hand or library, which of the two unknown.
    their_hidden: Counter[str] = field(default_factory=Counter)

    def copy(self) -> Seen:
        return Seen(dict(self.own_placed), Counter(self.their_hand), Counter(self.their_hidden))


def shown_cards(g: GameState, player: str) -> Counter[str]:
    """The cards `player` owns that are in sight: battlefield, graveyard, exile, the stack and
    revealed cards in hand (tokens are no cards of a deck)."""
    p = g.player(player)
    seen: Counter[str] = Counter()
    for o in g.battlefield:
        if o.owner == player and not o.token:
            seen[o.card.name] += 1
    for zone in (p.graveyard, p.exile):
        for o in zone:
            if not o.token:
                seen[o.card.name] += 1
    for item in g.stack:
        if item.card is not None and item.card.owner == player and not item.card.token:
            seen[item.card.card.name] += 1
    for o in p.hand:
        if o.revealed:
            seen[o.card.name] += 1
    return seen


# The seat's own decisions that show it cards of its library and leave them there.
_PLACING = frozenset({kinds.SCRY, kinds.SCRY_ORDER, kinds.MULLIGAN_BOTTOM})


class _ShuffleWatch(random.Random):
    """The replayed game's own generator, unchanged (every call goes to it), that reports the
    objects each shuffle puts in a random order."""

    def __init__(self, inner: random.Random, moved: Callable[[MutableSequence[Any]], None]):
        # No random.Random.__init__: this generator has no stream of its own.
        self._inner = inner
        self._moved = moved

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        self._moved(x)
        self._inner.shuffle(x)

    def choice(self, seq: Any) -> Any:
        return self._inner.choice(seq)

    def random(self) -> float:
        return self._inner.random()

    def getrandbits(self, k: int) -> int:
        return self._inner.getrandbits(k)


class _Memory:
    """A replay of one game that takes in, answer by answer, what `seat` was shown."""

    def __init__(self, setup: GameSetup, seat: str) -> None:
        self.seat = seat
        self.engine = Engine(setup)  # the deal's shuffle is done: nothing is known yet
        g = self.engine.state
        g.rng = _ShuffleWatch(g.rng, self._shuffled)
        self.other = g.opponent(seat)
        self.seen = Seen()
        self._in_sight = shown_cards(g, self.other)
        self._their_hand = {o.id for o in g.player(self.other).hand}
        self._sizes = self._zone_sizes(g)

    @property
    def answers(self) -> list[tuple[str, Any]]:
        return self.engine.answers

    def _shuffled(self, objects: MutableSequence[Any]) -> None:
        for o in objects:
            if isinstance(o, Obj):
                self.seen.own_placed.pop(o.id, None)

    def take(self, player: str, answer: Any) -> None:
        """Replay one answer and take in what the seat saw of it."""
        e = self.engine
        g = e.state
        d = e.pending
        looked: dict[int, str] = {}
        if d is not None and d.player == self.seat:
            if d.kind in _PLACING:
                for opt in d.options:
                    for i in opt.objs:
                        o = g.find(i)
                        if o is not None:
                            looked[i] = o.name
            elif d.kind == kinds.YES_NO and (explored := explored_card(d.prompt)) is not None:
                # An explore: the card it revealed, named by the prompt, is the top of the
                # library; "no" leaves it there.
                library = g.player(self.seat).library
                if library:
                    looked[library[0].id] = explored
        e.apply_logged(player, answer)
        if looked:
            for o in g.player(self.seat).library:
                if o.id in looked:
                    self.seen.own_placed[o.id] = looked[o.id]
        self._follow_the_other(g)

    def _zone_sizes(self, g: GameState) -> tuple[int, ...]:
        p = g.player(self.other)
        return (len(g.log), len(g.battlefield), len(g.stack), len(p.hand), len(p.graveyard))

    def _follow_the_other(self, g: GameState) -> None:
        """Where the other player's cards went, from what was in sight before and after."""
        # Most answers (a pass) move nothing and write nothing in the log: nothing to look at.
        sizes = self._zone_sizes(g)
        if sizes == self._sizes:
            return
        self._sizes = sizes
        p = g.player(self.other)
        in_sight = shown_cards(g, self.other)
        hand = {o.id for o in p.hand}
        if in_sight == self._in_sight and hand == self._their_hand:
            return
        arrived = in_sight - self._in_sight
        gone = self._in_sight - in_sight
        left_hand = len(self._their_hand - hand)
        into_hand = bool(hand - self._their_hand)
        seen = self.seen
        # A card that comes into sight may be a remembered one (cast from the hand, milled).
        for name in sorted(arrived.elements()):
            if left_hand and seen.their_hand[name]:
                seen.their_hand[name] -= 1
                left_hand -= 1
            elif seen.their_hidden[name]:
                seen.their_hidden[name] -= 1
        # A card that leaves sight without coming back into it went into a hidden zone: the hand
        # if a card went there (a card returned to its owner's hand), else hand or library.
        for name, n in gone.items():
            (seen.their_hand if into_hand else seen.their_hidden)[name] += n
        seen.their_hand += Counter()  # drop the zeros
        seen.their_hidden += Counter()
        # More remembered than the hand holds (cards went from the hand into the library):
        # the rest are in the hand or the library.
        hidden_hand = sum(1 for o in p.hand if not o.revealed)
        while sum(seen.their_hand.values()) > hidden_hand:
            name = max(seen.their_hand)
            seen.their_hand[name] -= 1
            seen.their_hidden[name] += 1
            seen.their_hand += Counter()
        self._in_sight = in_sight
        self._their_hand = hand


# One memory per game object and seat, taken up where it stopped at the next decision.
_MEMORIES: weakref.WeakKeyDictionary[Engine, dict[str, _Memory]] = weakref.WeakKeyDictionary()


def seen_by(game: Engine, seat: str) -> Seen:
    """What `seat` has seen in `game` up to its pending decision (a copy, the caller's own)."""
    memories = _MEMORIES.setdefault(game, {})
    memory = memories.get(seat)
    done = 0 if memory is None else len(memory.answers)
    # A game's answer log only grows, so the memory goes on from its last answer if the game
    # still holds it there.
    if (
        memory is None
        or done > len(game.answers)
        or (done and game.answers[done - 1] != memory.answers[-1])
    ):
        memory = memories[seat] = _Memory(game.setup, seat)
        done = 0
    for player, answer in game.answers[done:]:
        memory.take(player, answer)
    return memory.seen.copy()
