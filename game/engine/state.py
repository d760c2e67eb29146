"""The game state: plain Python objects, nothing else (docs/architecture.md, "Pure and
deterministic")."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .carddef import CardDef, Step, TargetSpec
from .rng import make_rng

if TYPE_CHECKING:
    from .dungeon import DungeonSpec

STEPS = (
    "untap",
    "upkeep",
    "draw",
    "precombat_main",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "combat_damage",
    "end_of_combat",
    "postcombat_main",
    "end",
    "cleanup",
)
STEP_NAMES = {s: s.replace("_", " ") for s in STEPS}
MAIN_STEPS = ("precombat_main", "postcombat_main")
# The steps of a combat from the declaration of attackers to its damage (CR 508-510), and those
# of a turn after its combat damage: no creature attacks or deals combat damage again.
ATTACK_STEPS = frozenset(STEPS[STEPS.index("declare_attackers") : STEPS.index("end_of_combat")])
AFTER_COMBAT = frozenset(STEPS[STEPS.index("end_of_combat") :])
LANDS_PER_TURN = 1  # CR 305.2


class GameOver(Exception):
    """Raised inside the game loop when the game has ended (CR 104)."""


@dataclass(slots=True, eq=False)
class Obj:
    """A card, token or spell copy in one zone. A zone change makes a new object (CR 400.7)."""

    id: int
    card: CardDef
    owner: str
    controller: str
    zone: str
    token: bool = False
    tapped: bool = False
    sick: bool = False
    damage: int = 0
    deathtouch_damage: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    timestamp: int = 0
    attached_to: int | None = None
    alias: str | None = None
    revealed: bool = False
    may_cast_creature: bool = False  # exiled on an adventure (CR 715.4)
    play_until: tuple[str, int] | None = None  # "you may play it" permission (who, until turn)
    play_free: bool = False
    exile_if_leaves: bool = False  # "If it would leave the battlefield, exile it instead"
    goaded_by: dict[str, int] = field(default_factory=dict)  # goading player -> turn goaded
    entered_turn: int = 0

    @property
    def name(self) -> str:
        return self.card.name


@dataclass(slots=True, eq=False)
class DungeonState:
    """A dungeon card in its owner's command zone and where the venture marker stands."""

    instance: int  # id of this dungeon object; a new one each time a dungeon enters (CR 400.7)
    spec: DungeonSpec
    room: str

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(slots=True, eq=False)
class Player:
    name: str
    life: int = 20
    poison: int = 0
    library: list[Obj] = field(default_factory=list)
    hand: list[Obj] = field(default_factory=list)
    graveyard: list[Obj] = field(default_factory=list)
    exile: list[Obj] = field(default_factory=list)
    pool: dict[str, int] = field(default_factory=dict)
    lands_played: int = 0
    drew_from_empty: bool = False
    lost: bool = False
    loss_reason: str = ""
    conceded: bool = False
    dungeon: DungeonState | None = None
    completed: list[tuple[str, int]] = field(default_factory=list)
    initiative: bool = False
    ventures_this_turn: int = 0
    mulligans: int = 0
    emblems: list[Any] = field(default_factory=list)  # (name, Static, timestamp) (CR 114)

    def zone(self, name: str) -> list[Obj]:
        return {
            "library": self.library,
            "hand": self.hand,
            "graveyard": self.graveyard,
            "exile": self.exile,
        }[name]


@dataclass(slots=True, eq=False)
class StackItem:
    """A spell or ability on the stack (CR 405, 113.7a: independent of its source)."""

    id: int
    kind: str  # "spell" or "ability"
    name: str  # a spell's card name; an ability's source name (a room's name for a room)
    controller: str
    text: str
    effect: list[Step]
    target_specs: list[TargetSpec]
    targets: list[list[tuple[str, Any]]] = field(default_factory=list)
    card: Obj | None = None  # the spell's card
    source_id: int | None = None
    source_name: str = ""
    dungeon_instance: int | None = None  # a room ability's source dungeon (for CR 704.5t)
    dungeon_name: str = ""
    cant_be_countered: bool = False
    division: list[int] = field(default_factory=list)
    intervening_if: Any = None
    optional: bool = False
    adventure: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def amounts(self) -> list[int | None]:
        """Each target's share of divided damage, in the order of `targets` flattened (None: a
        target of a phrase that divides nothing). Announced as the spell is cast (CR 601.2d),
        so public from then on."""
        out: list[int | None] = []
        for i, refs in enumerate(self.targets):
            spec = self.target_specs[i] if i < len(self.target_specs) else None
            divided = spec is not None and spec.divided and len(self.division) == len(refs)
            out += list(self.division) if divided else [None] * len(refs)
        return out

    @property
    def triggered(self) -> bool:
        """A triggered ability, a room's too (CR 309.4c): every trigger is put on the stack with
        the event that triggered it; an activated ability never has one."""
        return self.kind == "ability" and "event" in self.extra

    @property
    def ability_kind(self) -> str:
        """ "triggered ability", "room ability" or "ability"; "" for a spell."""
        if self.kind == "spell":
            return ""
        if self.dungeon_name:
            return "room ability"
        return "triggered ability" if self.triggered else "ability"

    @property
    def subject(self) -> str:
        """The object as a sentence of the log names it ("… is countered"): a spell, or a room's
        ability, by its name; another ability as its source's ("Stirring Bard's ability"), which
        is not the card itself."""
        if self.kind == "spell" or self.dungeon_name or self.source_id is None:
            return self.name
        return f"{self.name}'s ability"

    @property
    def label(self) -> str:
        """The object as players name it (the pass button): a spell by its name, an ability by
        its source ("Varis, Silverymoon Ranger's triggered ability")."""
        return f"{self.name}'s {self.ability_kind}" if self.ability_kind else self.name


@dataclass(slots=True, eq=False)
class PendingTrigger:
    """A triggered ability that has triggered and waits to be put on the stack (CR 603.3)."""

    name: str
    controller: str
    text: str
    effect: list[Step]
    target_specs: list[TargetSpec]
    source_id: int | None = None
    source_name: str = ""
    dungeon_instance: int | None = None
    dungeon_name: str = ""
    intervening_if: Any = None
    optional: bool = False
    event: dict[str, Any] = field(default_factory=dict)
    # Which of a source's triggers this is, for the log line that puts it on the stack (the
    # initiative has three, all named "The initiative").
    why: str = ""


@dataclass(slots=True, eq=False)
class ContinuousEffect:
    """A continuous effect from a resolved spell or ability (CR 611), applied in layers."""

    timestamp: int
    affects: int | None  # object id, or None for a player-affecting effect
    duration: str  # "end_of_turn", "until_next_turn", "permanent"
    controller: str  # whose "your next turn" ends it
    power: int = 0
    toughness: int = 0
    set_base: tuple[int, int] | None = None
    keywords: tuple[str, ...] = ()
    lose_all_abilities: bool = False
    cant_attack: bool = False
    cant_block_by_walls: bool = False
    add_types: tuple[str, ...] = ()
    set_subtypes: tuple[str, ...] | None = None
    protection_from_creatures: bool = False
    player: str | None = None
    player_hexproof: bool = False
    started_turn: int = 0


@dataclass(slots=True)
class Combat:
    attackers: dict[int, str] = field(default_factory=dict)  # attacker id -> defender name/pw id
    blockers: dict[int, list[int]] = field(default_factory=dict)  # attacker -> blockers in order
    blocking: dict[int, int] = field(default_factory=dict)  # blocker -> attacker
    dealt_first_strike: set[int] = field(default_factory=set)
    regular_dealt: bool = False  # the regular (or only) combat damage is dealt
    attacked_alone: bool = False
    declared: bool = False  # attackers were declared (CR 508.8 looks at the declaration)


class _Reading:
    def __init__(self, g: GameState) -> None:
        self.g = g
        self.outer = g.chars_memo is not None

    def __enter__(self) -> None:
        if not self.outer:
            self.g.chars_memo = {}
            self.g.sources_memo = {}

    def __exit__(self, *exc: object) -> None:
        if not self.outer:
            self.g.chars_memo = None
            self.g.sources_memo = None


class GameState:
    """Everything about one game. Rules live in the modules named for them, not here."""

    def __init__(self, player_names: list[str], seed: int | str, dungeons: dict[str, DungeonSpec]):
        self.players = [Player(n) for n in player_names]
        self.by_name = {p.name: p for p in self.players}
        self.rng: random.Random = make_rng(seed)
        self.dungeons = dungeons
        self.battlefield: list[Obj] = []
        self.stack: list[StackItem] = []
        self.pending_triggers: list[PendingTrigger] = []
        self.effects: list[ContinuousEffect] = []
        self.combat: Combat | None = None
        self.turn = 1
        self.active = player_names[0]
        self.first_player = player_names[0]
        self.step = "precombat_main"
        self.step_serial = 0
        self.priority: str | None = None
        self._next_id = 1
        self._timestamp = 0
        self.log: list[str] = []
        # The heading of the phase in progress, written before its first line (headings.py),
        # and the last heading written.
        self.heading = ""
        self.heading_written = ""
        self.winner: str | None = None
        self.end_reason = ""
        self.over = False
        self.triggered_once: set[tuple[int, int, int]] = set()  # (obj, ability, turn)
        self.loyalty_used: set[tuple[int, int]] = set()  # (planeswalker, turn), CR 606.3
        self.creatures_died_this_turn = 0
        # A token may have left the battlefield since the last state-based check (704.5d): set
        # by zones.move; True at first, for tokens a scenario's position puts anywhere.
        self.tokens_may_be_out = True
        # What has been revealed so far (a count, and the latest in words a player may read):
        # the engine seals every answer before a disclosure against takebacks (game.py,
        # `Engine.sealed`). Randomness is counted by the generator itself (rng.py).
        self.disclosures = 0
        self.disclosed = ""
        # Whose answer the engine is carrying out ("" before the first): a card that leaves its
        # owner's hand by that owner's own answer (a spell cast, a land played, a discard
        # chosen) shows the other player only what its owner chose to show (zones.move).
        self.answering = ""
        # Memos valid only inside a read-only section (see `reading`): characteristics and mana
        # sources are computed once per object there instead of once per question.
        self.chars_memo: dict[int, Any] | None = None
        self.sources_memo: dict[str, Any] | None = None

    # ids and time -------------------------------------------------------------------------
    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def new_timestamp(self) -> int:
        self._timestamp += 1
        return self._timestamp

    # lookups --------------------------------------------------------------------------------
    def player(self, name: str) -> Player:
        return self.by_name[name]

    def opponent(self, name: str) -> str:
        return next(p.name for p in self.players if p.name != name)

    def apnap(self) -> list[str]:
        """Active player first, then the others in turn order (CR 101.4)."""
        names = [p.name for p in self.players]
        i = names.index(self.active)
        return names[i:] + names[:i]

    def find(self, obj_id: int) -> Obj | None:
        for o in self.battlefield:
            if o.id == obj_id:
                return o
        for p in self.players:
            for zone in (p.hand, p.graveyard, p.exile, p.library):
                for o in zone:
                    if o.id == obj_id:
                        return o
        for item in self.stack:
            if item.card is not None and item.card.id == obj_id:
                return item.card
        return None

    def permanent(self, obj_id: int) -> Obj | None:
        for o in self.battlefield:
            if o.id == obj_id:
                return o
        return None

    def stack_item(self, item_id: int) -> StackItem | None:
        for s in self.stack:
            if s.id == item_id:
                return s
        return None

    def controlled(self, player: str) -> list[Obj]:
        return [o for o in self.battlefield if o.controller == player]

    # read-only sections ---------------------------------------------------------------------
    def reading(self) -> _Reading:
        """`with g.reading():` marks code that asks many questions and changes nothing."""
        return _Reading(self)

    # what is revealed -----------------------------------------------------------------------
    def disclose(self, why: str) -> None:
        """Something hidden from a player was shown to them, or left a hidden zone (`why`, in
        words that name no hidden card): no answer before this can be taken back."""
        self.disclosures += 1
        self.disclosed = why

    # the log --------------------------------------------------------------------------------
    def note(self, text: str, rule: str | None = None) -> None:
        if self.heading and self.heading != self.heading_written:
            self.log.append(self.heading)
            self.heading_written = self.heading
        self.log.append(f"{text} ({rule})" if rule else text)
