"""The other player's combat habits, read from the public log as a person at the table reads them.

A player who has been asked to block and never has will likely not block now; one
who has had creatures to attack with several times and never has will likely not attack. The
log says both: the engine writes "X declares no attackers" / "X declares no blockers" only when X
was asked (it had a creature that could attack or block), and "X attacks …" / "X blocks: …" when
X did. The computer reads nothing else from it here, and the log is the same for both seats
(docs/ai.md, "It never peeks").
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.state import GameState

# Chances declined, with none taken, before a habit is believed. Two declined blocks: one is a
# choice a careful player often makes (a 3/3 not traded for a 2/1, a life total kept for later),
# and read as a habit it sent a lone 2/1 into two untapped 3/3s (seen against Hard,
# tests/ai/habits/one_declined_block_is_no_habit.yaml). Against a player who never blocks, the
# turn spent not attacking past its untapped creatures costs Medium about 2 points in 100
# against the scripted aggro player; a player who held back a block on purpose to ambush the
# next attack wins one creature by it, once: its first block ends the reading.
BLOCKS_DECLINED = 2
ATTACKS_DECLINED = 3


@dataclass(frozen=True, slots=True)
class Habits:
    attacked: int = 0  # combats where it attacked
    held_back: int = 0  # combats where it could attack and didn't
    blocked: int = 0  # combats where it blocked
    let_through: int = 0  # combats where it could block and didn't

    @property
    def never_blocks(self) -> bool:
        return self.blocked == 0 and self.let_through >= BLOCKS_DECLINED

    @property
    def never_attacks(self) -> bool:
        return self.attacked == 0 and self.held_back >= ATTACKS_DECLINED


def habits(g: GameState, name: str) -> Habits:
    """What `name` has done with its chances to attack and to block so far this game."""
    attacked = held_back = blocked = let_through = 0
    attacks, no_attack = f"{name} attacks ", f"{name} declares no attackers"
    blocks, no_block = f"{name} blocks: ", f"{name} declares no blockers"
    for line in g.log:
        if not line.startswith(name):
            continue
        if line.startswith(attacks):
            attacked += 1
        elif line.startswith(no_attack):
            held_back += 1
        elif line.startswith(blocks):
            blocked += 1
        elif line.startswith(no_block):
            let_through += 1
    return Habits(attacked, held_back, blocked, let_through)


__all__ = ["Habits", "habits"]
