"""Scripted opponents for `bench/ai.py`: players with one fixed habit, to find out whether a level
can be exploited by it. They are test opponents, not levels a player can pick.

Each plays Medium's choices (`game.ai.policy.Policy`) except for its habit:

- `aggro` attacks with every creature that can attack, at the player, and never blocks;
- `turtle` never attacks (a goaded creature still must), and blocks with every creature that can
  block: Medium's blocks first, then each creature left over on the attacker it does best
  against (one it kills and survives, then survives, then kills, then the biggest), two at once
  on a menace attacker;
- `burn` is a face-burn player: whenever it has priority and can cast a spell (or activate an
  ability) whose damage can go at the other player, it does (after its land for the turn),
  whatever the board, where Medium keeps damage that kills nothing; a target of a damaging
  spell or ability is the other player when it can be, and divided damage goes to them as far
  as the division allows;
- `allin` and `noblock` are aggro's two halves apart (every creature attacks, Medium's blocks;
  Medium's attacks, no blocks), to tell which of its habits costs what.

`scripted_answer(name, game, seat, seed)` answers like `game.ai.decide`, from what the seat
may see, the same for the same position and seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from game.ai.answers import Answer, valid_subset
from game.ai.combat_math import Body, fight
from game.ai.features import body
from game.ai.lethal import face_damage
from game.ai.policy import Policy
from game.engine.decisions import Decision, Option
from game.engine.game import Engine
from game.engine.ops import reading
from game.engine.state import GameState, StackItem


class Aggro(Policy):
    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        at_the_player = [o.id for o in d.options if ":" not in o.id]
        return valid_subset(d, at_the_player)

    def on_declare_blockers(self, g: GameState, d: Decision) -> Answer:
        return []


class AllIn(Policy):
    on_declare_attackers = Aggro.on_declare_attackers


class NoBlock(Policy):
    on_declare_blockers = Aggro.on_declare_blockers


class Turtle(Policy):
    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        goaded = [o.id for o in d.options if ":" not in o.id and o.data[0].goaded_by]  # type: ignore[index]
        return valid_subset(d, goaded)

    def on_declare_blockers(self, g: GameState, d: Decision) -> Answer:
        chosen = list(super().on_declare_blockers(g, d))
        used = {d.option(i).data[0].id for i in chosen}  # type: ignore[index]
        menace = set(d.constraints.get("menace", [])) if d.constraints else set()

        def fits(ids: list[str]) -> bool:
            return d.check is None or d.check([d.option(i) for i in ids]) is None

        def preference(o: Option) -> tuple[int, int, str]:
            b, a = (body(g, x) for x in o.data)  # type: ignore[union-attr]
            return (_block_rank(b, a), -a.power, o.id)

        for opt in sorted(d.options, key=preference):
            blocker, attacker = opt.data  # type: ignore[misc]
            if blocker.id in used:
                continue
            if attacker.id in menace and not any(
                d.option(i).data[1].id == attacker.id  # type: ignore[index]
                for i in chosen
            ):
                # Menace takes two: this one and another creature left over that can block it.
                other = next(
                    (
                        o
                        for o in d.options
                        if o.data[1].id == attacker.id  # type: ignore[index]
                        and o.data[0].id not in used | {blocker.id}  # type: ignore[index]
                    ),
                    None,
                )
                extra = [opt.id] + ([other.id] if other is not None else [])
            else:
                extra = [opt.id]
            if fits(chosen + extra):
                chosen += extra
                used |= {d.option(i).data[0].id for i in extra}  # type: ignore[index]
        return chosen


def _block_rank(blocker: Body, attacker: Body) -> int:
    """The turtle's order of blocks, by the combat calculator: 0 kills and survives,
    1 survives, 2 trades, 3 chumps."""
    dead = fight(attacker, [blocker]).dead
    kills, survives = attacker.id in dead, blocker.id not in dead
    if survives:
        return 0 if kills else 1
    return 2 if kills else 3


class Burn(Policy):
    def on_priority(self, g: GameState, d: Decision) -> Answer:
        answer = super().on_priority(g, d)
        if isinstance(answer, str) and answer.startswith("play:"):
            return answer  # the land first: it may pay for the burn
        face = [o.id for o in d.options if face_damage(g, self.seat, o) > 0]
        return face[0] if face else answer

    def on_choose_targets(self, g: GameState, d: Decision) -> Answer:
        item = _asking(g, d, self.seat)
        face = next((o.id for o in d.options if o.data == ("player", g.opponent(self.seat))), None)
        if item is None or face is None or not _deals_damage(item, len(item.targets)):
            return super().on_choose_targets(g, d)
        if not d.multi:
            return face
        return valid_subset(d, [face]) if d.min_count <= 1 else super().on_choose_targets(g, d)

    def on_divide(self, g: GameState, d: Decision) -> Answer:
        item = _asking(g, d, self.seat)
        refs = list(item.targets[-1]) if item is not None and item.targets else []
        face = ("player", g.opponent(self.seat))
        if face not in refs:
            return super().on_divide(g, d)
        at = refs.index(face)

        def to_face(o: Option) -> int:
            parts = [p.strip() for p in o.label.split(", ") if p.strip()[:1].isdigit()]
            amounts = [int(p.split(" ", 1)[0]) for p in parts]
            return amounts[at] if at < len(amounts) else 0

        return max(d.options, key=lambda o: (to_face(o), o.id)).id


def _asking(g: GameState, d: Decision, seat: str) -> StackItem | None:
    """The seat's spell or ability on the stack whose targets or division `d` asks for (its
    prompt starts with the item's name)."""
    name = d.prompt.split(": ", 1)[0]
    return next((i for i in reversed(g.stack) if i.controller == seat and i.name == name), None)


def _deals_damage(item: StackItem, target: int) -> bool:
    steps = [s for s in item.effect if s.get("target") == target] or item.effect
    return any(reading(s).damage for s in steps)


SCRIPTED: dict[str, Callable[[str, random.Random], Policy]] = {
    "aggro": Aggro,
    "turtle": Turtle,
    "burn": Burn,
    "allin": AllIn,
    "noblock": NoBlock,
}


def scripted_answer(name: str, game: Engine, seat: str, seed: int) -> Answer:
    """The scripted player `name`'s answer to `seat`'s pending decision."""
    return SCRIPTED[name](seat, random.Random(seed)).answer(game)
