"""Decisions: the one way into the engine.

The engine runs until some player must decide something and then exposes exactly one pending
`Decision`. Every input (browser, scenario file, bot, test) answers it by option id. An answer
that is not legal raises `IllegalAnswer` before anything changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


class IllegalAnswer(ValueError):
    """An answer that the pending decision does not accept; the game is unchanged."""

    def __init__(self, message: str, decision: Decision | None = None) -> None:
        legal = ""
        if decision is not None:
            legal = " Legal options: " + ", ".join(o.label for o in decision.options)
            if decision.multi:
                legal += f" (choose {decision.min_count} to {decision.max_count} of them)"
        super().__init__(message + legal)
        self.decision = decision


@dataclass(slots=True)
class Option:
    id: str
    label: str
    objs: tuple[int, ...] = ()  # object ids the label names (so aliases can stand for names)
    data: object = None


@dataclass(slots=True)
class Decision:
    player: str
    kind: str
    prompt: str
    options: list[Option]
    multi: bool = False
    min_count: int = 1
    max_count: int = 1
    ordered: bool = False  # the answer is an ordering of all options (first = top)
    check: Callable[[list[Option]], str | None] | None = None
    _by_id: dict[str, Option] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        dedupe_labels(self.options)
        self._by_id = {o.id: o for o in self.options}

    def option(self, option_id: str) -> Option:
        try:
            return self._by_id[option_id]
        except KeyError:
            raise IllegalAnswer(f"{option_id!r} is not an option of this decision.", self) from None

    def validate(self, player: str, answer: str | Sequence[str]) -> str | list[str]:
        """Return the normalised answer (an id, or a list of ids) or raise IllegalAnswer."""
        if player != self.player:
            raise IllegalAnswer(
                f"It is {self.player}'s decision ({self.kind}), not {player}'s.", self
            )
        if not self.multi and not self.ordered:
            if not isinstance(answer, str):
                if isinstance(answer, (list, tuple)) and len(answer) == 1:
                    answer = answer[0]
                else:
                    raise IllegalAnswer("This decision takes exactly one option.", self)
            self.option(answer)
            return answer
        if isinstance(answer, str):
            answer = [answer]
        ids = list(answer)
        chosen = [self.option(i) for i in ids]
        if len(set(ids)) != len(ids):
            raise IllegalAnswer("An option was chosen twice.", self)
        if self.ordered:
            if len(ids) != len(self.options):
                raise IllegalAnswer("Order every one of the options.", self)
        elif not self.min_count <= len(ids) <= self.max_count:
            raise IllegalAnswer(
                f"Choose between {self.min_count} and {self.max_count} options, not {len(ids)}.",
                self,
            )
        if self.check is not None:
            problem = self.check(chosen)
            if problem:
                raise IllegalAnswer(problem, self)
        return ids

    def to_json(self) -> dict:
        return {
            "player": self.player,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [o.label for o in self.options],
            "option_ids": [o.id for o in self.options],
            "multi": self.multi,
            "ordered": self.ordered,
            "min": self.min_count,
            "max": self.max_count,
        }


def dedupe_labels(options: list[Option]) -> None:
    """Give options that would share a label a ` #N` suffix (SCENARIOS.md, option labels)."""
    labels = [o.label for o in options]
    if len(set(labels)) == len(labels):
        return  # the usual case: nothing to tell apart
    counts = Counter(labels)
    seen: Counter[str] = Counter()
    for o in options:
        if counts[o.label] > 1:
            seen[o.label] += 1
            o.label = f"{o.label} #{seen[o.label]}"
