"""The effect vocabulary's registry: every operation a step may name, declared once.

A step is a dict `{"op": NAME, ...parameters}`. Each operation is declared where its rule lives,
with the `op` decorator: the shared ones in `effects.py`, a card's own beside the card
(`cards/*.py`), an official dungeon's own in `rooms/<dungeon>.py`, a rule's own beside the rule
(`ward.py`, `initiative.py`):

    @op(
        "scry",
        Param("amount", INT, required=True, minimum=0),
        asks=("scry", "scry_order"),
        does="scry N (CR 701.22)",
        reads=Reading(harms=False, worth=per_amount(0.35)),
    )
    def op_scry(g: GameState, ctx: Ctx, step: Step) -> Gen: ...

Everything else reads the vocabulary from here, so a new operation or parameter is written in
one place: the engine runs a step by its entry, `dungeon.validate_dungeon_dict` checks a room's
steps against the parameters, the admin's step form (`dungeons/forms.py`) builds its fields from
them, and the tables in docs/dungeons.md are generated from them (`vocabulary_doc.py`;
tests/engine/test_vocabulary.py and tests/dungeons/test_vocabulary_form.py hold the doc and the
form to the registry).

Every operation also says what a step of it means to the computer (`reads`, a `Reading`: whom
it hurts, roughly what it is worth), so the computer (`game/ai/`) keeps no table of operations
of its own: it reads `reading(step)`. The declaration is refused without one.

An operation that never asks a player anything (`asks` empty) is a plain function and runs as
one; only an operation that may ask is a generator, run with `yield from`. The decorator refuses
a declaration whose `asks` and function disagree, since the engine trusts it to decide which.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .state import GameState

# Parameter types. The first six may appear in dungeon data (and so in the admin's form); ANY
# is for card code only (a mapping of counters, a list of steps, a player's name chosen by code).
INT = "int"
TEXT = "text"
BOOL = "bool"
WORDS = "words"  # a list of words, comma-separated in the admin
PAIR = "pair"  # two integers, "1/1" in the admin
TARGET = "target"  # a target kind (a new phrase), the index of an earlier one, "self" or "it"
ANY = "any"
DATA_TYPES = (INT, TEXT, BOOL, WORDS, PAIR, TARGET)

# The decisions casting a spell may ask (an operation that casts one asks these too).
CASTING = ("choose_targets", "divide")

F = TypeVar("F", bound=Callable[..., Any])

Step = dict[str, Any]  # {"op": NAME, ...parameters}
# What a step is worth to `seat`, the player whose effect it is, in the position at hand.
Worth = Callable[["GameState", str, Step], float]
# A worth this large says the step wins the game now (the other player loses their last life):
# the computer takes such a play before anything else.
WINS = 100.0


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an operation."""

    name: str
    type: str
    required: bool = False
    # TEXT: the values it may take; WORDS: the words each item may be. Empty: anything.
    choices: tuple[str, ...] = ()
    minimum: int | None = None  # INT only
    pattern: str = ""  # TEXT: other values it accepts, a regular expression (target1, …)
    help: str = ""  # shown beside the admin's field
    card_only: bool = False  # card code may pass it; dungeon data may not

    def problems(self, value: Any) -> list[str]:
        """What is wrong with `value` for this parameter (empty when nothing)."""
        python, wording = _TYPES.get(self.type, ((object,), "anything"))
        if not isinstance(value, python) or (
            isinstance(value, bool) and self.type in (INT, TARGET)
        ):
            return [f"{self.name} has the wrong type ({value!r}); it takes {wording}"]
        if self.type == INT and self.minimum is not None and value < self.minimum:
            return [
                f"{self.name} can't be negative"
                if self.minimum == 0
                else f"{self.name} can't be less than {self.minimum}"
            ]
        if (
            self.type == TEXT
            and self.choices
            and value not in self.choices
            and not (self.pattern and re.fullmatch(self.pattern, value))
        ):
            return [f"unknown {self.name} {value!r}; known: {', '.join(self.choices)}"]
        if self.type == WORDS:
            bad = [
                w
                for w in value
                if not isinstance(w, str) or (self.choices and w not in self.choices)
            ]
            if bad:
                known = f"; known: {', '.join(self.choices)}" if self.choices else ""
                return [f"{self.name}: unknown {w!r}{known}" for w in bad]
        if self.type == PAIR and (
            len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            return [f"{self.name} takes two whole numbers, power/toughness (not {value!r})"]
        return []


_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    INT: ((int,), "a whole number"),
    TEXT: ((str,), "a text"),
    BOOL: ((bool,), "true or false"),
    WORDS: ((list,), "a list of words"),
    PAIR: ((list,), "two whole numbers"),
    TARGET: ((int, str), "a target kind, an earlier target's number, self or it"),
}


@dataclass(frozen=True, slots=True)
class Boost:
    """What a step does to the fight of the creature it names, for this turn only: a combat
    trick's effect ("gets +2/+0 and gains first strike until end of turn")."""

    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reading:
    """What a step of an operation means to the player whose effect it is, for the computer.

    The engine never reads it; the computer reads nothing else about operations (docs/ai.md):

    - `harms`: the step hurts what it names, so the computer aims its targets at the other
      player's things (and a helpful step at its own). A bool, or a function of the step when
      its parameters decide ("gets -4/-0" hurts, "gets +1/+1" helps).
    - `worth`: roughly what the step is worth to that player, in the units of the computer's
      position evaluation (a card in hand about 1.6, a 2/2 about 4, a point of life 0.3 to 1).
      A number, or a function (game, seat, step) when the position decides (a +1/+1 counter is
      worth something only with a creature of one's own). It values dungeon rooms.
    - `damage`: the step's `amount` is damage dealt to what it names, so the computer aims it
      where it kills.
    - `removes`: the step takes what it names away (destroyed, countered, returned to a hand):
      to the player who controlled it, it costs that thing's whole worth.
    - `ventures`: the step moves its player's venture marker, so it is worth what the next
      room is worth to that player.
    - `boost`: a function of the step giving its `Boost` when the step only changes the fight of
      the creature it names until the end of the turn (None otherwise): a combat trick, which
      the computer keeps for combat, where it changes who dies.
    - `drains`: the step's `amount` is life that each player its `who` names loses, with no
      way out: the computer counts a room's drain in what the other player can still take
      from it (a venture into Trap! on top of an attack).
    - `taps`: the step taps the permanent it acts on (Ray of Frost's creature as the Aura
      enters): the computer reads a creature kept from untapping as gone once it is tapped.
    - `returns_source`: the step returns its source to its owner's hand (Acererak as it
      enters): a permanent spell whose enter trigger does so is worth that trigger's other
      steps, not the permanent, and spends no card.
    - `shields`: the step gives the attacking party creature (Cleric, Rogue, Warrior or Wizard,
      CR 700.8) it targets protection from creatures: a "whenever you attack" trigger with it
      (Seasoned Dungeoneer) takes one attacker past every blocker in each combat.
    """

    harms: bool | Callable[[Step], bool]
    worth: float | Worth
    damage: bool = False
    removes: bool = False
    ventures: bool = False
    boost: Callable[[Step], Boost | None] | None = None
    drains: bool = False
    taps: bool = False
    returns_source: bool = False
    shields: bool = False

    def hurts(self, step: Step) -> bool:
        """Does this step hurt what it names?"""
        return self.harms(step) if callable(self.harms) else self.harms

    def boosts(self, step: Step) -> Boost | None:
        """What this step does to a fight this turn, when that is all it does."""
        return self.boost(step) if self.boost is not None else None

    def value(self, g: GameState, seat: str, step: Step) -> float:
        """What this step, of `seat`'s effect, is worth to `seat` now."""
        return self.worth(g, seat, step) if callable(self.worth) else self.worth


def amount_of(step: Step) -> int:
    """How many a step counts: its `amount`, one when not given."""
    return int(step.get("amount", 1))


def per_amount(each: float) -> Worth:
    """A worth of `each` for every one the step counts (every card drawn, every point gained)."""

    def worth(g: GameState, seat: str, step: Step) -> float:
        return each * amount_of(step)

    return worth


@dataclass(frozen=True, slots=True)
class Op:
    """One operation: what it is called, what it takes, what it may ask, how it runs."""

    name: str
    run: Callable[..., Any]  # (GameState, Ctx, Step) -> None, or a generator when it asks
    params: tuple[Param, ...] = ()
    asks: tuple[str, ...] = ()  # the kinds of Decision it may yield; empty: it never asks
    does: str = ""  # what it does, for docs/dungeons.md
    data: bool = True  # dungeon rooms (and the admin) may use it; False: card code only
    module: str = ""  # where it is declared
    reads: Reading | None = None  # what a step of it means to the computer; refused when None

    @property
    def data_params(self) -> tuple[Param, ...]:
        """The parameters dungeon data may give it."""
        return tuple(p for p in self.params if not p.card_only)

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.required)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


REGISTRY: dict[str, Op] = {}


def register(entry: Op) -> Op:
    if entry.name in REGISTRY:
        raise ValueError(
            f"operation {entry.name!r} is declared twice ({REGISTRY[entry.name].module} "
            f"and {entry.module})"
        )
    if bool(entry.asks) != inspect.isgeneratorfunction(entry.run):
        raise TypeError(
            f"operation {entry.name!r}: an operation that asks (asks={entry.asks!r}) is a "
            "generator and one that never asks is a plain function; the engine runs it by that"
        )
    names = [p.name for p in entry.params]
    if len(set(names)) != len(names):
        raise ValueError(f"operation {entry.name!r} names a parameter twice")
    if entry.data:
        if not entry.does:
            raise ValueError(f"operation {entry.name!r} needs `does` for docs/dungeons.md")
        for p in entry.data_params:
            if p.type not in DATA_TYPES:
                raise ValueError(f"operation {entry.name!r}: {p.name} can't be in dungeon data")
    if entry.reads is None:
        raise ValueError(
            f"operation {entry.name!r} needs `reads`, what a step of it means to the computer "
            "(whom it hurts, roughly what it is worth)"
        )
    REGISTRY[entry.name] = entry
    return entry


def op(
    name: str,
    *params: Param,
    asks: tuple[str, ...] = (),
    does: str = "",
    data: bool = True,
    reads: Reading | None = None,
) -> Callable[[F], F]:
    """Declare the decorated function as operation `name` (see the module's docstring)."""

    def decorate(fn: F) -> F:
        register(Op(name, fn, params, asks, does, data, fn.__module__, reads))
        return fn

    return decorate


# Every module that declares operations. Importing them fills REGISTRY; the card modules are
# loaded by the `cards` package and the official dungeons' modules by the `rooms` package.
_DECLARING = (
    "effects",
    "effects_players",
    "effects_permanents",
    "ward",
    "initiative",
    "cards",
    "rooms",
)


def load() -> dict[str, Op]:
    """The whole registry (importing every module that declares an operation, once)."""
    for name in _DECLARING:
        importlib.import_module(f"{__package__}.{name}")
    return REGISTRY


def reading(step: Step) -> Reading:
    """What `step` means to the computer: its operation's declared reading."""
    entry = REGISTRY.get(step["op"]) or load()[step["op"]]
    assert entry.reads is not None  # register refuses an operation without one
    return entry.reads


def data_ops() -> dict[str, Op]:
    """The operations dungeon rooms may use, by name, sorted."""
    return {name: entry for name, entry in sorted(load().items()) if entry.data}


def data_params() -> dict[str, Param]:
    """Every parameter dungeon data may give, by name, in order of first declaration.

    A name means the same thing (type, choices, bounds) in every operation that takes it, so
    the admin has one field for it; a declaration that breaks this is refused here.
    """
    out: dict[str, Param] = {}
    for entry in data_ops().values():
        for p in entry.data_params:
            seen = out.setdefault(p.name, p)
            if (seen.type, seen.choices, seen.minimum) != (p.type, p.choices, p.minimum):
                raise ValueError(
                    f"parameter {p.name!r} of {entry.name!r} differs from the one of the same "
                    "name in another operation; give it another name"
                )
    return out


def step_problems(step: Any, where: str, *, data: bool = True) -> list[str]:
    """What is wrong with one step against its operation's declaration, each naming `where`.

    `data`: the step is dungeon data, so only operations and parameters rooms may use count.
    Target phrases are the dungeon's business (`dungeon._step_problems`).
    """
    if not isinstance(step, dict) or "op" not in step:
        return [f"{where}: a step is a mapping with an 'op'."]
    vocabulary = data_ops() if data else load()
    name = step["op"]
    entry = vocabulary.get(name) if isinstance(name, str) else None
    if entry is None:
        return [f"{where}: unknown operation {name!r}; known: {', '.join(sorted(vocabulary))}."]
    params = {p.name: p for p in (entry.data_params if data else entry.params)}
    problems: list[str] = []
    for key, value in step.items():
        if key == "op":
            continue
        if key not in params:
            accepted = ", ".join(params) or "none"
            problems.append(f"unknown parameter {key!r}; accepted: {accepted}")
        else:
            problems += params[key].problems(value)
    problems += [f"missing parameter {p!r}" for p in entry.required if p not in step]
    return [f"{where} ({name}): {problem}." for problem in problems]
