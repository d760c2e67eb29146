"""Copies of a game at its pending decision, made without replaying the whole log each time.

An `Engine` runs its rules as a generator, which cannot be copied. Its state can be copied where
a fresh generator started from it goes on exactly as the running one would: where the active
player has just received priority at the start of a step (engine/snapshots.py). So the game is
replayed once, keeping a snapshot at the last such point before the decision; each copy resumes
from a copy of that snapshot and replays only the answers given since (a step or two: a handful
of answers, against the hundreds of a whole log). The copy holds the real hidden cards, exactly as
a full replay would: `worlds.determinize` must overwrite them before anything reads the copy.
"""

from __future__ import annotations

from game.engine import snapshots
from game.engine.game import Engine, replay

# Snapshots are taken only in the log's last answers: a copy of the state costs about as much as
# replaying a few dozen answers, and the last resumable point is almost always near the end (a
# step is a few answers long). A decision farther than this from any step's start is copied by
# a full replay.
SNAPSHOT_WINDOW = 80


class Fork:
    """`game` replayed once, to hand out copies of it at its pending decision."""

    def __init__(self, game: Engine) -> None:
        self.setup = game.setup
        self.answers = list(game.answers)
        self.snapshot: snapshots.Snapshot | None = None
        walker = Engine(game.setup)
        first = len(self.answers) - SNAPSHOT_WINDOW
        for i, (who, answer) in enumerate(self.answers):
            serial = walker.state.step_serial
            walker.apply_logged(who, answer)
            if i >= first and snapshots.resumable(walker, serial):
                self.snapshot = snapshots.take(walker)
        version = self.snapshot.version if self.snapshot is not None else 0
        # What each copy replays: the answers since the snapshot (all of them without one).
        self.tail = self.answers[version:]

    def copy(self) -> Engine:
        """A fresh engine at the game's pending decision, with the real hidden cards."""
        snap = self.snapshot
        if snap is None:
            return replay(self.setup, self.answers)
        world = Engine.resumed(self.setup, snapshots.restore(snap), self.answers[: snap.version])
        for who, answer in self.tail:
            world.apply_logged(who, answer)
        return world


__all__ = ["Fork"]
