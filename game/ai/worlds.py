"""Sampled worlds: copies of a game in which everything the seat cannot see is a guess.

An `Engine` runs its rules as a generator, which cannot be copied, so a copy is made the way a
server rebuilds a game: by replaying the setup and answer log (`engine.game.replay`). That copy
holds the real hidden cards, so before anything reads it, every hidden thing is overwritten from
the computer's own random stream (docs/ai.md, "It never peeks"), with what the seat remembers
having seen (memory.py) kept:

- the other player's hand (except cards it has revealed) and library: sampled from the cards
  the seat cannot rule out. The cards it saw go back into that hand (or that hand or library);
  the preset decks are public, so the rest is the preset deck most likely given the cards that
  player has shown, minus those cards; a deck of its own (no preset explains what it showed) is
  guessed from the cards it showed and the presets' cards;
- the seat's own library: the cards whose place it knows (scry, a mulligan's bottom) stay, the
  rest of its decklist minus every card of its own it can see fills the other places in a fresh
  order;
- every hidden object gets a fresh id (deals number a deck's cards in decklist order, so a real
  id could name a hidden card), and the world's setup holds no real hidden deck or seed;
- the game's random generator: a new one, seeded from the stream.

What remains of the replayed copy is what the seat's view shows (`view_for`) and what it
remembers, so two games that look the same to the seat give the same worlds for the same seed.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from game.decks import STARTER_DECKS
from game.engine.cards import CARDS
from game.engine.game import Engine, GameSetup, replay
from game.engine.state import GameState, Obj

from .memory import Seen, seen_by, shown_cards

PRESETS = [Counter(deck) for deck in STARTER_DECKS.values()]
POOL = sorted({name for deck in STARTER_DECKS.values() for name in deck})


def _own_cards_in_sight(g: GameState, seat: str) -> Counter[str]:
    seen = shown_cards(g, seat)
    for o in g.player(seat).hand:
        if not o.revealed:
            seen[o.card.name] += 1
    return seen


def _likely_deck(shown: Counter[str], rng: random.Random) -> Counter[str] | None:
    """A preset deck drawn by how likely it makes the cards shown (None: no preset has them)."""
    weights = []
    for deck in PRESETS:
        if any(deck[name] < n for name, n in shown.items()):
            weights.append(0.0)
            continue
        size = sum(deck.values())
        w = 1.0
        for name, n in shown.items():
            w *= (deck[name] / size) ** n
        weights.append(w)
    if sum(weights) <= 0:
        return None
    return rng.choices(PRESETS, weights=weights)[0]


def opponent_unknown(
    g: GameState, opp: str, rng: random.Random, seen: Seen | None = None
) -> tuple[list[str], list[str]]:
    """A guess at the cards of `opp`'s hidden hand and of their library (as many as each has),
    holding the cards the seat remembers there."""
    p = g.player(opp)
    hand_n = sum(1 for o in p.hand if not o.revealed)
    need = hand_n + len(p.library)
    seen = seen or Seen()
    in_hand = sorted(seen.their_hand.elements())[:hand_n]
    somewhere = sorted((seen.their_hidden + Counter(seen.their_hand) - Counter(in_hand)).elements())
    somewhere = somewhere[: need - len(in_hand)]
    known = Counter(in_hand) + Counter(somewhere)
    evidence = shown_cards(g, opp) + known
    unknown = need - len(in_hand) - len(somewhere)
    deck = _likely_deck(evidence, rng)
    if deck is not None:
        cards = sorted((deck - evidence).elements())
    else:
        shown = sorted(evidence.elements())
        cards = [
            rng.choice(shown or POOL) if rng.random() < 0.5 else rng.choice(POOL)
            for _ in range(unknown)
        ]
    rng.shuffle(cards)
    while len(cards) < unknown:
        cards.append(rng.choice(POOL))
    rest = somewhere + cards[:unknown]
    rng.shuffle(rest)
    hand = in_hand + rest[: hand_n - len(in_hand)]
    rng.shuffle(hand)
    return hand, rest[hand_n - len(in_hand) :]


def own_library(
    g: GameState, game: Engine, seat: str, rng: random.Random, seen: Seen | None = None
) -> list[str]:
    """The seat's library, top first: the cards whose place it knows where they are, its
    decklist minus its cards in sight and those in a fresh order around them."""
    library = g.player(seat).library
    placed = (seen or Seen()).own_placed
    known = {o.id: placed[o.id] for o in library if o.id in placed}
    decklist = Counter(decklist_of(game.setup, seat))
    rest = decklist - _own_cards_in_sight(g, seat) - Counter(known.values())
    cards = sorted(rest.elements())
    rng.shuffle(cards)
    n = len(library) - len(known)
    while len(cards) < n:  # a position without a decklist: guess from what is in sight
        cards.append(rng.choice(sorted(_own_cards_in_sight(g, seat).elements()) or POOL))
    fill = iter(cards)
    return [known[o.id] if o.id in known else next(fill) for o in library]


def decklist_of(setup: GameSetup, seat: str) -> list[str]:
    """The seat's own decklist: its deck, or a scenario's that starts from the deal."""
    position = setup.position or {}
    if position.get("deal"):
        return list(((position.get("setup") or {}).get(seat) or {}).get("library") or [])
    return list(setup.decks.get(seat, []))


def _honest_setup(setup: GameSetup, seat: str, guessed: list[str], seed: int) -> GameSetup:
    """The setup of a world: the other deck as guessed, a fresh seed, and a scenario position
    without the hidden zones' cards."""
    opp = next(name for name in setup.players if name != seat)
    position = setup.position
    if position is not None:
        players = dict(position.get("setup") or {})
        for name, zones in ((opp, ("hand", "library")), (seat, ("library",))):
            if name in players:
                players[name] = {k: v for k, v in players[name].items() if k not in zones}
        position = {**position, "setup": players}
    decks = {**setup.decks, opp: guessed}
    return dataclasses.replace(setup, seed=seed, decks=decks, position=position)


def hidden_objects(world: Engine, seat: str) -> list[Obj]:
    """The objects of `world` the seat cannot see: the other hand's unrevealed cards, the other
    library, its own library."""
    g = world.state
    p = g.player(g.opponent(seat))
    return [o for o in p.hand if not o.revealed] + list(p.library) + list(g.player(seat).library)


def _fresh_ids(world: Engine, seat: str) -> None:
    """Give every hidden object a new id, but those the pending decision names (the seat sees
    them: its scry's cards). A priority decision's options, listed when first read, name no
    hidden object."""
    d = world.pending
    named = {i for o in d.source for i in o.objs} if d and not callable(d.source) else set()
    for o in hidden_objects(world, seat):
        if o.id not in named:
            o.id = world.state.new_id()


def determinize(world: Engine, game: Engine, seat: str, rng: random.Random) -> None:
    """Overwrite every hidden card of `world` (a replayed copy of `game`) with samples."""
    g = world.state
    seen = seen_by(game, seat)
    opp = g.opponent(seat)
    p = g.player(opp)
    hand, library = opponent_unknown(g, opp, rng, seen)
    hidden_hand = [o for o in p.hand if not o.revealed]
    for o, name in zip(hidden_hand + p.library, hand + library, strict=True):
        o.card = CARDS[name]
    mine = g.player(seat).library
    for o, name in zip(mine, own_library(g, game, seat, rng, seen), strict=True):
        o.card = CARDS[name]
    _fresh_ids(world, seat)
    guessed = sorted([*hand, *library, *shown_cards(g, opp).elements()])
    world.setup = _honest_setup(world.setup, seat, guessed, rng.getrandbits(64))
    g.rng = random.Random(rng.getrandbits(64))


def sample_world(game: Engine, seat: str, rng: random.Random) -> Engine:
    """A copy of `game` at its pending decision with every hidden card sampled."""
    world = replay(game.setup, game.answers)
    determinize(world, game, seat, rng)
    return world
