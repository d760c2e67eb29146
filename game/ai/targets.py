"""Targets and divided damage: each target phrase gets the targets that gain most by what the
text does to them (spells.py: a harmful effect on the other player's things, a helpful one on
the seat's own, removal at a threat), divided damage the targets and split that kill most or
are lethal."""

from __future__ import annotations

from game.engine.decisions import Decision
from game.engine.ops import reading
from game.engine.state import GameState, StackItem

from .answers import Answer
from .combat_removal import removal_targets
from .rules import Rules
from .spells import Text, best_division, choose, division_value, gain
from .tricks import trick_targets


class TargetRules(Rules):
    def on_choose_targets(self, g: GameState, d: Decision) -> Answer:
        trick = trick_targets(g, self.seat, d)  # a combat trick goes where it changes a fight
        if trick is not None:
            return trick
        removal = removal_targets(g, self.seat, d)  # removal in a fight: what changes it most
        if removal is not None:
            return removal
        item = _item_for(g, d, self.seat)
        by_ref = {o.data: o.id for o in d.options}
        refs = list(by_ref)
        shielded = _shielded_already(g, self.seat, item)
        if len(shielded) < len(refs):
            refs = [r for r in refs if r not in shielded]
        if item is None:
            text, index = Text([], []), 0
        else:
            text, index = Text.of_item(item), len(item.targets)
        spec = text.specs[index] if index < len(text.specs) else None
        high = d.max_count if d.multi else 1
        low = d.min_count if d.multi else 1
        if spec is not None and spec.divided:
            division = best_division(g, self.seat, text, index, refs, spec.divided, high)
            picks = division.refs or [
                max(refs, key=lambda r: gain(g, self.seat, text, index, r, spec.divided))
            ]
        else:
            picks = choose(g, self.seat, text, index, refs, low, high)
            if high == 1 and self.slip(0.3):  # (Easy) a good target, not always the best
                gaining = [r for r in refs if gain(g, self.seat, text, index, r) > 0]
                if len(gaining) > 1:
                    picks = [self.rng.choice(sorted(gaining))]
        ids = [by_ref[r] for r in picks]
        return ids if d.multi else ids[0]

    def on_divide(self, g: GameState, d: Decision) -> Answer:
        item = _item_for(g, d, self.seat)
        if item is None or not item.targets:
            return d.options[0].id
        text, index = Text.of_item(item), len(item.targets) - 1
        refs = list(item.targets[index])
        splits = [_parse_split(o.label) for o in d.options]

        def value(i: int) -> tuple[float, int]:
            return (round(division_value(g, self.seat, text, index, refs, splits[i]), 6), -i)

        best = max(range(len(d.options)), key=value)
        return d.options[best].id


def option_gains(g: GameState, d: Decision, seat: str) -> dict[str, float] | None:
    """What each option of a target decision gains `seat` by what the text does to it
    (`spells.gain`); None where that is not read so: no spell or ability of the seat's found,
    or divided damage (its division decides)."""
    item = _item_for(g, d, seat)
    if item is None:
        return None
    text, index = Text.of_item(item), len(item.targets)
    spec = text.specs[index] if index < len(text.specs) else None
    if spec is None or spec.divided:
        return None
    return {o.id: gain(g, seat, text, index, o.data) for o in d.options}


def _shielded_already(g: GameState, seat: str, item: StackItem | None) -> set[object]:
    """What the seat's other shields on the stack target (`Reading.shields`, Seasoned
    Dungeoneer's trigger) when `item` is one too: two such triggers put on the stack at once
    aimed at one attacker, and the first to resolve gave it protection from creatures, which
    made it an illegal target of the second (CR 702.16b), so one attacker was shielded, not
    two (Medium's lethal attack of two Dungeoneers)."""

    def shields(x: StackItem) -> bool:
        return any(reading(s).shields for s in x.effect)

    if item is None or not shields(item):
        return set()
    return {
        ref
        for other in g.stack
        if other is not item and other.controller == seat and shields(other)
        for group in other.targets
        for ref in group
    }


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
