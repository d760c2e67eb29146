"""Targets and divided damage: a harmful effect goes to the other player's most valuable thing
it can deal with, a helpful one to the seat's own; divided damage kills the most value."""

from __future__ import annotations

from game.engine.continuous import chars
from game.engine.decisions import Decision
from game.engine.ops import reading
from game.engine.state import GameState, StackItem

from .answers import Answer
from .features import permanent_value
from .rules import Rules, is_creature
from .tricks import trick_targets


class TargetRules(Rules):
    def on_choose_targets(self, g: GameState, d: Decision) -> Answer:
        trick = trick_targets(g, self.seat, d)  # a combat trick goes where it changes a fight
        if trick is not None:
            return trick
        item = _item_for(g, d, self.seat)
        harmful = True
        amount = 0
        if item is not None:
            index = len(item.targets)
            steps = [s for s in item.effect if s.get("target") == index] or item.effect
            harmful = any(reading(s).hurts(s) for s in steps)
            amount = max(
                (int(s.get("amount", 0) or 0) for s in steps if reading(s).damage), default=0
            )
        scored = sorted(
            ((self._target_score(g, o.data, harmful, amount), o.id) for o in d.options),
            reverse=True,
        )
        want = d.max_count if d.multi else 1
        picks = [oid for s, oid in scored if s > 0][:want]
        if self.slip(0.3) and len(scored) > 1:
            positive = [oid for s, oid in scored if s > 0]
            if len(positive) > 1:
                picks = [self.rng.choice(positive)]
        if len(picks) < d.min_count:
            picks = [oid for _, oid in scored][: max(d.min_count, 1)]
        return picks if d.multi else picks[0]

    def _target_score(self, g: GameState, ref: object, harmful: bool, amount: int) -> float:
        me = self.seat
        kind, what = ref  # type: ignore[misc]
        sign = 1.0 if harmful else -1.0
        if kind == "player":
            mine = what == me
            base = 1.5 if amount else 0.5
            if amount and g.player(what).life <= amount:
                base = 100.0
            return (-base if mine else base) * sign
        if kind == "stack":
            item = g.stack_item(what)
            theirs = item is not None and item.controller != me
            return (2.0 if theirs else -2.0) * sign
        obj = g.permanent(what)
        if obj is None:
            return 0.0
        value = permanent_value(g, obj)
        if amount and is_creature(g, obj):
            c = chars(g, obj)
            if amount < c.toughness - obj.damage and "deathtouch" not in c.keywords:
                value *= 0.2  # damage that doesn't kill is mostly wasted
        return value * sign * (1.0 if obj.controller != me else -1.0)

    def on_divide(self, g: GameState, d: Decision) -> Answer:
        item = _item_for(g, d, self.seat)
        if item is None or not item.targets:
            return d.options[0].id
        refs = [r for refs in item.targets for r in refs]
        splits = [_parse_split(o.label) for o in d.options]

        def value(split: list[int]) -> float:
            total = 0.0
            for ref, n in zip(refs, split, strict=False):
                if ref[0] == "obj":
                    obj = g.permanent(ref[1])
                    if obj is None:
                        continue
                    c = chars(g, obj)
                    killed = n >= c.toughness - obj.damage
                    total += (permanent_value(g, obj) if killed else 0.0) * (
                        1 if obj.controller != self.seat else -1
                    )
                elif ref[0] == "player":
                    total += 0.3 * n * (1 if ref[1] != self.seat else -1)
            return total

        best = max(range(len(d.options)), key=lambda i: (value(splits[i]), -i))
        return d.options[best].id


def _item_for(g: GameState, d: Decision, seat: str) -> StackItem | None:
    """The spell or ability whose targets (or division) `d` asks for."""
    name = d.prompt.split(": ", 1)[0]
    for item in reversed(g.stack):
        if item.controller == seat and item.name == name:
            return item
    return None


def _parse_split(label: str) -> list[int]:
    return [
        int(part.strip().split(" ", 1)[0])
        for part in label.split(", ")
        if part.strip()[:1].isdigit()
    ]
