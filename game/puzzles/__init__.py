"""Puzzles: positions in the scenario format with a goal and a published solution
(docs/puzzles.md). `checker` proves a puzzle sound by trying every line; pure Python on the
engine, like `game.scenario`."""
