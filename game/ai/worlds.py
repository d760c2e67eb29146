"""Sampled worlds: copies of a game in which everything the seat cannot see is a guess.

An `Engine` runs its rules as a generator, which cannot be copied, so a copy is made the way a
server rebuilds a game: by replaying the setup and answer log (`engine.game.replay`). That copy
holds the real hidden cards, so before anything reads it, every hidden thing is overwritten from
the computer's own random stream (docs/ai.md, "Never peeks"):

- the other player's hand (except cards it has revealed) and library: sampled from the cards
  the seat cannot rule out. The preset decks are public, so the guess is the preset deck most
  likely given the cards that player has shown, minus those cards; a deck of its own (no preset
  explains what it showed) is guessed from the cards it showed and the presets' cards;
- the seat's own library: its decklist minus every card of its own it can see, in a fresh order;
- the game's random generator: a new one, seeded from the stream.

What remains of the replayed copy is what the seat's view shows (`view_for`), so two games that
look the same to the seat give the same worlds for the same seed.
"""

from __future__ import annotations

import random
from collections import Counter

from game.decks import STARTER_DECKS
from game.engine.cards import CARDS
from game.engine.game import Engine, replay
from game.engine.state import GameState

PRESETS = [Counter(deck) for deck in STARTER_DECKS.values()]
POOL = sorted({name for deck in STARTER_DECKS.values() for name in deck})


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


def _own_cards_in_sight(g: GameState, seat: str) -> Counter[str]:
    seen = shown_cards(g, seat)
    for o in g.player(seat).hand:
        if not o.revealed:
            seen[o.card.name] += 1
    return seen


def opponent_unknown(g: GameState, opp: str, rng: random.Random) -> list[str]:
    """A guess at the cards of `opp`'s hidden hand and library (as many as there are)."""
    p = g.player(opp)
    need = sum(1 for o in p.hand if not o.revealed) + len(p.library)
    seen = shown_cards(g, opp)
    weights = []
    for deck in PRESETS:
        if any(deck[name] < n for name, n in seen.items()):
            weights.append(0.0)
            continue
        size = sum(deck.values())
        w = 1.0
        for name, n in seen.items():
            w *= (deck[name] / size) ** n
        weights.append(w)
    if sum(weights) > 0:
        deck = rng.choices(PRESETS, weights=weights)[0]
        rest = deck - seen
        cards = sorted(rest.elements())
    else:
        shown = sorted(seen.elements())
        cards = [
            rng.choice(shown or POOL) if rng.random() < 0.5 else rng.choice(POOL)
            for _ in range(need)
        ]
    rng.shuffle(cards)
    while len(cards) < need:
        cards.append(rng.choice(POOL))
    return cards[:need]


def own_library(g: GameState, game: Engine, seat: str, rng: random.Random) -> list[str]:
    """The seat's decklist minus its cards in sight, in a fresh order."""
    decklist = Counter(game.setup.decks.get(seat, []))
    rest = decklist - _own_cards_in_sight(g, seat)
    cards = sorted(rest.elements())
    rng.shuffle(cards)
    n = len(g.player(seat).library)
    while len(cards) < n:  # a position without a decklist: guess from what is in sight
        cards.append(rng.choice(sorted(_own_cards_in_sight(g, seat).elements()) or POOL))
    return cards[:n]


def determinize(world: Engine, game: Engine, seat: str, rng: random.Random) -> None:
    """Overwrite every hidden card of `world` (a replayed copy of `game`) with samples."""
    g = world.state
    opp = g.opponent(seat)
    guesses = opponent_unknown(g, opp, rng)
    p = g.player(opp)
    hidden = [o for o in p.hand if not o.revealed] + list(p.library)
    for o, name in zip(hidden, guesses, strict=True):
        o.card = CARDS[name]
    mine = g.player(seat).library
    for o, name in zip(mine, own_library(g, game, seat, rng), strict=True):
        o.card = CARDS[name]
    g.rng = random.Random(rng.getrandbits(64))


def sample_world(game: Engine, seat: str, rng: random.Random) -> Engine:
    """A copy of `game` at its pending decision with every hidden card sampled."""
    world = replay(game.setup, game.answers)
    determinize(world, game, seat, rng)
    return world
