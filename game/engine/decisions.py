"""Decisions: the one way into the engine.

The engine runs until some player must decide something and then exposes exactly one pending
`Decision`. Every input (browser, scenario file, bot, test) answers it by option id. An answer
that is not legal raises `IllegalAnswer` before anything changes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


class IllegalAnswer(ValueError):
    """An answer that the pending decision does not accept; the game is unchanged."""

    def __init__(
        self, message: str, decision: Decision | None = None, *, list_options: bool = True
    ) -> None:
        # A refusal of a combination of legal options (one blocker for two attackers, menace)
        # says only what is wrong: a list of the options with "choose 0 to 3 of them" after it
        # would read as if the refused combination were allowed.
        legal = ""
        if decision is not None and list_options:
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
    # Labels this option had before, still accepted by scenario files, a public contract
    # (docs/scenarios.md, "Option labels").
    former: tuple[str, ...] = ()
    # Ids of options this one now stands for (identical cards once offered one by one, now one
    # choice): a stored game's answer log may name them, and answering with one takes that card.
    former_ids: tuple[str, ...] = ()


@dataclass(slots=True)
class Decision:
    """One pending decision. `source` is its options, or a function that lists them: a
    priority decision's options (every castable card, every activatable ability) cost more to
    find than anything else the engine does, and replaying a log (a cache miss, a catch-up)
    answers most of them with "pass", which `known` says is an option without listing the rest.
    The function runs at most once, while the decision is pending (the state it reads is the
    state the decision was made in); once answered unlisted, the options are gone."""

    player: str
    kind: str  # one of the registry's (kinds.py)
    prompt: str
    source: list[Option] | Callable[[], list[Option]]
    multi: bool = False
    min_count: int = 1
    max_count: int = 1
    ordered: bool = False  # the answer is an ordering of all options (first = top)
    check: Callable[[list[Option]], str | None] | None = None
    known: tuple[str, ...] = ()  # ids that are options whatever `source` lists (only if lazy)
    # What a board needs beyond the options to offer only legal answers, e.g. for blocks which
    # attackers need two or more blockers (menace); public data about the decision.
    constraints: dict | None = None
    # The options a multi-select's form starts ticked: what the answer must hold anyway (a
    # goaded creature's attack, CR 701.15b). A board's convenience; the check still decides.
    ticked: tuple[str, ...] = ()
    _options: list[Option] | None = field(default=None, repr=False)
    _by_id: dict[str, Option] = field(default_factory=dict, repr=False)
    _answered: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        if not callable(self.source):
            self._list(self.source)

    def _list(self, options: list[Option]) -> list[Option]:
        dedupe_labels(options)
        self._by_id = {alias: o for o in options for alias in o.former_ids}
        self._by_id.update((o.id, o) for o in options)
        self._options = options
        return options

    @property
    def options(self) -> list[Option]:
        if self._options is not None:
            return self._options
        if self._answered:
            raise RuntimeError(f"the options of an answered {self.kind} decision were never listed")
        assert callable(self.source)
        return self._list(self.source())

    @property
    def listed(self) -> list[Option] | None:
        """The options if they have been listed already (None: a lazy decision not yet looked
        at), without listing them."""
        return self._options

    def answered(self) -> None:
        """The game has moved on: its state is no longer the one the options would be read
        from (Engine.answer calls this)."""
        self._answered = True

    def option(self, option_id: str) -> Option:
        self.options  # noqa: B018 - listed on first use
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
            if self._options is None and answer in self.known:
                return answer  # (replaying "pass": the other options are never listed)
            self.option(answer)
            return answer
        if isinstance(answer, str):
            answer = [answer]
        ids = list(answer)
        chosen = [self.option(i) for i in ids]
        if len(set(ids)) != len(ids):
            raise IllegalAnswer("An option was chosen twice.", self)
        # The decision's own rule first: "Gloom Stalker can't block both …" says what is wrong
        # where "choose between 0 and 1 options" only counts.
        if self.check is not None:
            problem = self.check(chosen)
            if problem:
                raise IllegalAnswer(problem, self, list_options=False)
        if self.ordered:
            if len(ids) != len(self.options):
                raise IllegalAnswer("Order every one of the options.", self)
        elif not self.min_count <= len(ids) <= self.max_count:
            raise IllegalAnswer(
                f"Choose between {self.min_count} and {self.max_count} options, not {len(ids)}.",
                self,
            )
        return ids

    def to_json(self) -> dict:
        out = {
            "player": self.player,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [o.label for o in self.options],
            "option_ids": [o.id for o in self.options],
            # The objects each option names, in the order its label names them (a block:
            # [blocker, attacker]), so a board can point at them.
            "option_objs": [list(o.objs) for o in self.options],
            "multi": self.multi,
            "ordered": self.ordered,
            "min": self.min_count,
            "max": self.max_count,
        }
        if self.constraints is not None:
            out["constraints"] = self.constraints
        return out


_COPY_NUMBER = re.compile(r" #\d+$")


def without_copy_number(label: str) -> str:
    """A label without the ` #N` that `dedupe_labels` ends it with (copies of one card)."""
    return _COPY_NUMBER.sub("", label)


def dedupe_labels(options: list[Option]) -> None:
    """Give options that would share a label a ` #N` suffix (docs/scenarios.md, "Option labels")."""
    labels = [o.label for o in options]
    if len(set(labels)) == len(labels):
        return  # the usual case: nothing to tell apart
    counts = Counter(labels)
    seen: Counter[str] = Counter()
    for o in options:
        if counts[o.label] > 1:
            seen[o.label] += 1
            o.label = f"{o.label} #{seen[o.label]}"
