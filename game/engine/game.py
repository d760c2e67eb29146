"""The engine's entry point: an `Engine` runs one game until a decision is pending, then takes
answers.

The rules run as a generator that yields each `Decision`; an answer is validated against the
pending decision's options before it is sent in, so an illegal answer changes nothing. A game is
fully determined by its `GameSetup` and its answer log, which `replay` uses
(docs/architecture.md, "Persistence by replay").

The engine also records how far back the log may be cut by a takeback (`sealed`): never across
randomness (any draw from the game's generator, rng.py) nor across a disclosure (a card out of
a library, out of a hand but by its owner's own answer, hidden cards shown to a player, a card
revealed: `GameState.disclose`). docs/rules-coverage.md, "Takebacks", has the whole rule.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CARDS, TOKENS
from .choices import choose_objects
from .decisions import Decision, IllegalAnswer, Option
from .dungeon import DungeonSpec
from .headings import turn_heading
from .kinds import MULLIGAN, MULLIGAN_BOTTOM, PLAY_OR_DRAW
from .ops import load
from .position import apply_position
from .sba import end_game
from .state import STEPS, DungeonState, GameOver, GameState, Obj
from .turns import run_turns
from .view import judge_view, view_for
from .zones import draw, shuffle

# A game runs whatever operation a card or a room names. The modules that declare operations
# import the rules (effects, ops), so neither can import them back: the entry point loads them.
load()

OPENING_HAND = 7
# Why an answer can't be taken back after the game's generator was used (words for a player).
RANDOM = "something random happened (a shuffle, a coin flip or a random choice)"


@dataclass
class GameSetup:
    """Everything a game is built from besides the answers."""

    players: list[str]
    seed: int | str = 0  # a secret (rng.new_secret_seed) or a whole number (rng.make_rng)
    decks: dict[str, list[str]] = field(default_factory=dict)
    dungeons: dict[str, DungeonSpec] = field(default_factory=dict)
    position: dict[str, Any] | None = None  # a scenario setup (see position.py)
    # Games stored before object ids were given out in seat order replay with the order of
    # their position's mapping, as they were played (position.py, apply_position).
    position_in_mapping_order: bool = False
    # The coin flip's winner chooses to play or draw (CR 103.1). Games stored before that was
    # asked replay without the question, the winner playing first, as they were played.
    play_or_draw: bool = True


class Engine:
    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.state = GameState(setup.players, setup.seed, setup.dungeons)
        self.answers: list[tuple[str, Any]] = []
        # What each answer answered: the decision's kind and the game log's lines it wrote,
        # [start, stop) (None: an answer given before a snapshot this engine was resumed from).
        # A takeback names the answer it takes back by them, in words both players read.
        self.answer_marks: list[tuple[str, int, int] | None] = []
        self.pending: Decision | None = None
        self._flip_winner = ""
        # The answers before `sealed` can no longer be taken back: something was revealed or
        # random (`sealed_why`) while the engine carried them out.
        self.sealed = 0
        self.sealed_why = ""
        self._seen = (0, 0)  # the state's disclosures and the generator's draws, last looked at
        if setup.position is not None and setup.position.get("deal"):
            # A scenario that starts at the very beginning: its libraries are the decks.
            decks = {
                name: list(spec.get("library") or [])
                for name, spec in (setup.position.get("setup") or {}).items()
            }
            self._deal(decks)
            self._gen = self._run("untap", resume=False, opening=True)
        elif setup.position is not None:
            start_step = apply_position(
                self.state, setup.position, in_mapping_order=setup.position_in_mapping_order
            )
            self._gen = self._run(start_step, resume=True, opening=False)
        else:
            self._deal(setup.decks)
            self._gen = self._run("untap", resume=False, opening=True)
        self._step(None)

    # running ----------------------------------------------------------------------------------
    def _deal(self, decks: dict[str, list[str]]) -> None:
        g = self.state
        for p in g.players:
            for name in decks.get(p.name, []):
                p.library.append(Obj(g.new_id(), CARDS[name], p.name, p.name, "library"))
            shuffle(g, p.name)
        # The coin flip (CR 103.1): its winner decides who plays first (`_play_or_draw`).
        winner = g.rng.choice([p.name for p in g.players])
        g.active = g.first_player = winner
        self._flip_winner = winner
        if not self.setup.play_or_draw:
            g.note(f"{winner} wins the coin flip and plays first", "CR 103.1")

    def _run(
        self, start_step: str, *, resume: bool, opening: bool
    ) -> Generator[Decision, Any, None]:
        g = self.state
        try:
            if opening:
                if self.setup.play_or_draw:
                    yield from self._play_or_draw()
                yield from self._mulligans()
                g.note(turn_heading(1, g.active))
            yield from run_turns(g, start_step, resume)
        except GameOver:
            return

    def _play_or_draw(self) -> Generator[Decision, Any, None]:
        """CR 103.1: the winner of the coin flip decides which player takes the first turn; the
        mulligans (CR 103.5) follow in that turn order."""
        g = self.state
        winner = self._flip_winner
        other = g.opponent(winner)
        g.note(f"{winner} wins the coin flip", "CR 103.1")
        answer = yield Decision(
            winner,
            PLAY_OR_DRAW,
            f"You won the coin flip: play first, or draw and let {other} play first?",
            [Option("play", "play"), Option("draw", "draw")],
        )
        first = winner if answer == "play" else other
        g.active = g.first_player = first
        chose = "to play first" if answer == "play" else f"to draw: {other} plays first"
        g.note(f"{winner} chooses {chose}", "CR 103.1")

    def _mulligans(self) -> Generator[Decision, Any, None]:
        """London mulligan (CR 103.5): everyone draws seven; then, in turn order, each player
        who hasn't kept decides; all who take a mulligan shuffle their hand back and draw seven
        again, and the round repeats for them; finally each puts one card on the bottom for
        each mulligan taken."""
        g = self.state
        order = g.apnap()
        for name in order:
            draw(g, name, OPENING_HAND)
        deciding = list(order)
        while deciding:
            again = []
            for name in deciding:
                p = g.player(name)
                answer = yield Decision(
                    name,
                    MULLIGAN,
                    f"Keep this hand of {len(p.hand)}"
                    + (f" (you'll put {p.mulligans} on the bottom)?" if p.mulligans else "?"),
                    [Option("keep", "keep"), Option("mulligan", "mulligan")],
                )
                if answer == "mulligan":
                    again.append(name)
            for name in again:
                p = g.player(name)
                p.mulligans += 1
                g.note(f"{name} takes a mulligan", "CR 103.5")
                for o in list(p.hand):
                    p.hand.remove(o)
                    o.zone = "library"
                    p.library.append(o)
                shuffle(g, name)
                draw(g, name, OPENING_HAND)
            deciding = [n for n in again if g.player(n).mulligans < OPENING_HAND]
        for name in order:
            p = g.player(name)
            if not p.mulligans:
                g.note(f"{name} keeps {len(p.hand)} cards")
                continue
            chosen = yield from choose_objects(
                g,
                name,
                list(p.hand),
                p.mulligans,
                f"Put {p.mulligans} card{'s' if p.mulligans != 1 else ''} on the bottom of "
                "your library",
                MULLIGAN_BOTTOM,
            )
            for o in chosen:
                p.hand.remove(o)
                o.zone = "library"
                p.library.append(o)
            g.note(f"{name} keeps {len(p.hand)} cards", "CR 103.5")

    def _step(self, answer: Any) -> None:
        try:
            self.pending = self._gen.send(answer)
        except StopIteration:
            self.pending = None
        if self.pending is not None:
            self._shown(self.pending)
        self._seal()

    # takebacks --------------------------------------------------------------------------------
    def _shown(self, d: Decision) -> None:
        """A decision whose options name cards in a library, or in another player's hand, shows
        its player hidden cards (a scry, a search, a look at the top): a disclosure. A priority
        decision lists its options lazily and names only the player's own hand and public
        zones: it is not looked at."""
        g = self.state
        options = d.listed
        if g.disclosures != self._seen[0] or not options or not any(o.objs for o in options):
            return  # (an operation that said what it showed, "alice looked at …", says better)
        hidden = {o.id for p in g.players for o in p.library}
        hidden.update(o.id for p in g.players if p.name != d.player for o in p.hand)
        if any(i in hidden for o in options for i in o.objs):
            g.disclose(f"{d.player} was shown hidden cards")

    def _seal(self) -> None:
        """Seal the answers given so far when something was revealed or random since the last
        look. (A world the computer samples swaps in a generator of its own that does not
        count, game/ai/worlds.py: nobody takes back there.)"""
        g = self.state
        seen = (g.disclosures, getattr(g.rng, "draws", 0))
        if seen != self._seen:
            self.sealed = len(self.answers)
            self.sealed_why = g.disclosed if seen[0] != self._seen[0] else RANDOM
            self._seen = seen

    # answering --------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.over

    def answer(self, player: str, choice: str | Sequence[str]) -> None:
        """Answer the pending decision with option id(s); raises IllegalAnswer otherwise."""
        if self.pending is None:
            raise IllegalAnswer("The game is over; there is nothing to answer.")
        d = self.pending
        normalised = d.validate(player, choice)
        self.answers.append((player, normalised))
        d.answered()
        self.state.answering = player
        start = len(self.state.log)
        self._step(normalised)
        self.answer_marks.append((d.kind, start, len(self.state.log)))

    def answer_labels(self, player: str, labels: str | Sequence[str]) -> None:
        """Answer by option label(s), as a scenario file or a bot's log does."""
        d = self.pending
        if d is None:
            raise IllegalAnswer("The game is over; there is nothing to answer.")
        wanted = [labels] if isinstance(labels, str) else list(labels)
        by_label = {o.label: o.id for o in d.options}
        ids = []
        for label in wanted:
            if label not in by_label:
                raise IllegalAnswer(f"{label!r} is not an option.", d)
            ids.append(by_label[label])
        self.answer(player, ids if (d.multi or d.ordered) else ids[0])

    def concede(self, player: str, *, line: str | None = None) -> None:
        """A player concedes (CR 104.3a); it is logged as an answer so replays keep it. `line`
        is the game log's words when the loss is not a concession as players say it (a time
        loss, a claimed win); the rules treat them alike."""
        g = self.state
        if g.over:
            raise IllegalAnswer("The game is already over.")
        if player not in g.by_name:
            raise IllegalAnswer(f"{player!r} is not a player in this game.")
        self.answers.append((player, "!concede"))
        start = len(g.log)
        p = g.player(player)
        p.lost = True
        p.conceded = True
        p.loss_reason = "conceded"
        if line is None:
            g.note(f"{player} concedes", "CR 104.3a")
        else:
            g.note(line)
        with contextlib.suppress(GameOver):
            end_game(g)
        self._gen.close()
        self.pending = None
        self.answer_marks.append(("concede", start, len(g.log)))

    def apply_logged(self, player: str, answer: Any, *, line: str | None = None) -> None:
        """Apply one entry of an answer log: an answer, or the `"!concede"` marker `concede`
        writes (so a replay, or a catch-up from the log, reaches the same result); `line` as
        `concede` takes it."""
        if answer == "!concede":
            self.concede(player, line=line)
        else:
            self.answer(player, answer)

    @classmethod
    def resumed(
        cls, setup: GameSetup, state: GameState, answers: Sequence[tuple[str, Any]]
    ) -> Engine:
        """The game continued from `state`, a copy taken when the active player had just
        received priority at the start of a step (engine/snapshots.py says when that is safe),
        after `answers`."""
        game = cls.__new__(cls)
        game.setup = setup
        game.state = state
        game.answers = list(answers)
        game.answer_marks = [None] * len(game.answers)
        game.pending = None
        # What was revealed before the snapshot is not known here: nothing before it can be
        # taken back (a resumed engine serves replays and the computer, never a takeback).
        game.sealed = len(game.answers)
        game.sealed_why = "the game was resumed from a snapshot"
        game._seen = (state.disclosures, getattr(state.rng, "draws", 0))
        serial = state.step_serial
        game._gen = game._run(state.step, resume=True, opening=False)
        game._step(None)
        state.step_serial = serial  # resuming enters the step again; it was entered once
        return game

    # views ------------------------------------------------------------------------------------
    def view_for(self, seat: str | None) -> dict[str, Any]:
        return view_for(self, seat)

    def state_json(self) -> dict[str, Any]:
        return judge_view(self)


def replay(setup: GameSetup, answers: Sequence[tuple[str, Any]]) -> Engine:
    """Rebuild a game from its setup and answer log (docs/architecture.md, "Persistence by
    replay")."""
    game = Engine(setup)
    for player, answer in answers:
        game.apply_logged(player, answer)
    return game


__all__ = ["STEPS", "DungeonState", "Engine", "GameSetup", "TOKENS", "replay"]
