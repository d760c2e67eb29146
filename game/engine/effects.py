"""Running effect steps, and what the operations share: the context of a resolving ability,
who and what a step names, and the primitives other rules modules use too (life, damage,
countering).

The operations themselves are declared in the registry (`ops.py`): the shared ones in
`effects_players.py` and `effects_permanents.py`, a card's own beside the card, an official
dungeon's own in `rooms/`. Steps that name a target use `target: N`, the index of the ability's
target phrase.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .carddef import Step
from .choices import Gen
from .continuous import chars
from .ops import REGISTRY, TEXT, data_params
from .state import GameState, Obj, StackItem
from .targets import Ref, numbered_name, ref_name, whose_after
from .tokens import TOKENS
from .zones import move


@dataclass(slots=True)
class Ctx:
    """Who and what a resolving ability is about."""

    controller: str
    item: StackItem | None = None
    source_id: int | None = None
    event: dict[str, Any] = field(default_factory=dict)
    legal: list[list[Ref]] = field(default_factory=list)  # targets still legal, per phrase
    memory: dict[str, Any] = field(default_factory=dict)

    def source(self, g: GameState) -> Obj | None:
        return g.permanent(self.source_id) if self.source_id is not None else None


def run_steps(g: GameState, ctx: Ctx, steps: list[Step]) -> Gen:
    """Run steps in order. An operation that never asks is a plain function: calling it does
    the whole step, and no generator is made for it."""
    for step in steps:
        entry = REGISTRY[step["op"]]
        if entry.asks:
            yield from entry.run(g, ctx, step)
        else:
            entry.run(g, ctx, step)


# who and what a step names ----------------------------------------------------------------------
def players_for(g: GameState, ctx: Ctx, who: str) -> list[str]:
    if who == "you":
        return [ctx.controller]
    if who == "each_player":
        return [p for p in g.apnap() if not g.player(p).lost]
    if who == "each_opponent":
        return [p for p in g.apnap() if p != ctx.controller and not g.player(p).lost]
    if who.startswith("target"):
        return [v for kind, v in targets_of(ctx, who) if kind == "player"]
    raise ValueError(f"unknown player selector {who!r}")


def targets_of(ctx: Ctx, spec: Any) -> list[Ref]:
    index = (
        int(str(spec).removeprefix("target").strip() or 0) if not isinstance(spec, int) else spec
    )
    if index >= len(ctx.legal):
        return []
    return ctx.legal[index]


def objects_for(g: GameState, ctx: Ctx, step: Step, key: str = "target") -> list[Obj]:
    spec = step.get(key, 0)
    if spec == "self":
        src = ctx.source(g)
        return [src] if src is not None else []
    if spec == "it":
        o = ctx.memory.get("it")
        return [o] if o is not None and o.zone == "battlefield" else []
    out = []
    for kind, value in targets_of(ctx, spec):
        if kind == "obj":
            o = g.find(value)
            if o is not None:
                out.append(o)
    return out


def token_def(name: str):
    return TOKENS[name]


def describe_targets(g: GameState, item: StackItem) -> str:
    names = [ref_name(g, r) for refs in item.targets for r in refs]
    return ", ".join(names)


# primitives -------------------------------------------------------------------------------------
def lose_life(g: GameState, name: str, amount: int) -> None:
    if amount <= 0:
        return
    g.player(name).life -= amount
    g.note(f"{name} loses {amount} life (now {g.player(name).life})")


def gain_life(g: GameState, name: str, amount: int) -> None:
    if amount <= 0:
        return
    g.player(name).life += amount
    g.note(f"{name} gains {amount} life (now {g.player(name).life})")


def deal_damage(
    g: GameState,
    source_name: str,
    source: Obj | None,
    ref: Ref,
    amount: int,
    *,
    combat: bool = False,
    deathtouch: bool = False,
    lifelink_to: str | None = None,
) -> int:
    """Deal damage to a player or a permanent (CR 120); returns the damage dealt."""
    if amount <= 0:
        return 0
    kind, value = ref
    if kind == "obj" and source is not None and "Creature" in chars(g, source).types:
        target = g.permanent(value)
        if target is not None and "protection from creatures" in chars(g, target).keywords:
            g.note(
                f"Damage from {source_name} to {target.name} is prevented (protection)",
                "CR 702.16e",
            )
            return 0
    if kind == "player":
        g.player(value).life -= amount
        g.note(f"{source_name} deals {amount} damage to {value} (now {g.player(value).life})")
    else:
        o = g.permanent(value)
        if o is None:
            return 0
        if "Planeswalker" in o.card.types and "Creature" not in chars(g, o).types:
            o.counters["loyalty"] = o.counters.get("loyalty", 0) - amount
        else:
            o.damage += amount
            if deathtouch:
                o.deathtouch_damage = True
        # Whose after the name, so that the sentence up to it reads as it always has (scenario
        # files check log fragments, docs/scenarios.md).
        whom = f"{numbered_name(g, o)} {whose_after(o.controller)}"
        if source is not None and source.name == o.name and source.controller != o.controller:
            # Two namesakes fighting: "Wolf deals 2 damage to Wolf (yours)" would not say whose
            # Wolf dealt it (a playtest). Whose goes first, as a death's line has it, so the
            # sentence from the name on reads as it always has.
            source_name = f"{source.controller}'s {source_name}"
        g.note(f"{source_name} deals {amount} damage to {whom}")
    if lifelink_to is not None:
        gain_life(g, lifelink_to, amount)  # lifelink (CR 702.15b)
    return amount


def counter(g: GameState, item: StackItem, by: str, rule: str = "CR 701.6a") -> bool:
    """Counter a spell or ability: it leaves the stack without resolving (CR 701.6a)."""
    if item.cant_be_countered:
        g.note(f"{item.subject} can't be countered and stays on the stack", "CR 101.2")
        return False
    g.stack.remove(item)
    if item.kind == "spell" and item.card is not None:
        move(g, item.card, "graveyard")
    g.note(f"{item.subject} is countered by {by}", rule)
    return True


class _TextChoices(Mapping[str, tuple[str, ...]]):
    """The fixed values of each text parameter dungeon data may give, read from the registry
    when asked (dungeons/models.py builds its field choices from it)."""

    def _all(self) -> dict[str, tuple[str, ...]]:
        return {n: p.choices for n, p in data_params().items() if p.type == TEXT and p.choices}

    def __getitem__(self, key: str) -> tuple[str, ...]:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


STEP_CHOICES: Mapping[str, tuple[str, ...]] = _TextChoices()
