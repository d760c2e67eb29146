"""The players of the search's sampled games: who the other player is taken to be.

A search that plays the other side as Medium alone models its opponent as exactly Medium: it
learns to beat Medium's habits (which inflates Hard against Medium) and is blindsided by a
player who attacks with everything or holds a trick for combat. So each sampled world gives the
other player one of a few styles, in turn (`STYLES`), and the search's own side is played by
Medium:

- `medium`: the rules of thumb;
- `aggressive`: Medium, except that it attacks with every creature that can (at the player);
- `tricky`: Medium, except that during combat, once blockers are declared, it casts an instant
  it holds (a pump, a removal spell: its targets go where Medium's targets rule aims them).

The style of a world depends only on the world's number, never on what the world holds, so the
mix is the same in every game that looks the same to the seat. What the other player has shown
of its habits in the public log (habits.py) is kept in every style: one that has never blocked
blocks in the sampled games only where a blocker kills an attacker and lives, one that has never
attacked does not attack.
"""

from __future__ import annotations

import random
from functools import cache

from game.engine.decisions import Decision
from game.engine.state import GameState

from .answers import Answer, valid_subset
from .combat import beats
from .habits import habits
from .policy import Policy


class Aggressive(Policy):
    """Attacks with everything that can attack, at the player."""

    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        everything = [o.id for o in d.options if ":" not in o.id]
        if not everything:
            return super().on_declare_attackers(g, d)
        return valid_subset(d, everything)


class Tricky(Policy):
    """Casts an instant it holds once blockers are declared (the combat trick a person keeps)."""

    def on_priority(self, g: GameState, d: Decision) -> Answer:
        if g.step == "declare_blockers" and not g.stack and g.combat is not None:
            for o in d.options:
                if not o.id.startswith("cast:"):
                    continue
                face = self._face(g, o)
                if face is not None and "Instant" in face.types and face.spell_targets:
                    return o.id
        return super().on_priority(g, d)


class NeverBlocks(Policy):
    """The habit of a player who has let every attacker through so far: it blocks only where a
    blocker kills an attacker and lives (`combat.beats`), a free kill anyone takes."""

    def on_declare_blockers(self, g: GameState, d: Decision) -> Answer:
        chosen: list[str] = []
        used: set[int] = set()
        for o in d.options:
            blocker, attacker = o.data  # type: ignore[misc]
            if blocker.id in used or attacker.id in used or not beats(g, blocker, attacker):
                continue
            chosen.append(o.id)
            used |= {blocker.id, attacker.id}
        return valid_subset(d, chosen)


class NeverAttacks(Policy):
    """The habit of a player who has kept every creature home so far (a goaded one must go)."""

    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        goaded = [o.id for o in d.options if ":" not in o.id and o.data[0].goaded_by]  # type: ignore[index]
        return valid_subset(d, goaded)


STYLES: tuple[type[Policy], ...] = (Policy, Aggressive, Policy, Tricky)


@cache
def _with_habits(style: type[Policy], no_blocks: bool, no_attacks: bool) -> type[Policy]:
    bases = [NeverBlocks] * no_blocks + [NeverAttacks] * no_attacks
    return type(f"{style.__name__}AsRead", (*bases, style), {}) if bases else style


def rollout_players(g: GameState, seat: str, world: int, seed: int) -> dict[str, Policy]:
    """The players of sampled world number `world`: Medium for `seat`, the world's style for the
    other player."""
    read = habits(g, g.opponent(seat))
    style = _with_habits(STYLES[world % len(STYLES)], read.never_blocks, read.never_attacks)
    return {
        p.name: (Policy if p.name == seat else style)(p.name, random.Random(seed + i))
        for i, p in enumerate(g.players)
    }


__all__ = ["STYLES", "Aggressive", "NeverAttacks", "NeverBlocks", "Tricky", "rollout_players"]
