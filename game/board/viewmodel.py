"""What one viewer's board shows, as plain typed values: the view-model the templates read.

Built by `build.py` from the engine's `view_for(seat)` (hidden information already removed), the
viewer's own decision and the game's rows; nothing here reads the database or the engine, and
nothing is set on a model instance. Frozen, so a value shared between renders (a card's info, a
map's steps, a log line) can't be changed by one of them; the lists a side fills while it is
built are tuples once it is made.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from game.engine.stops import ASK_FORCED, THEIR_TRIGGERS

if TYPE_CHECKING:
    from dungeons.maplayout import DungeonMap
    from game.engine.combat_damage import Incoming
    from game.models import Game, Player
    from game.services import SeatTiming, TakebackView


@dataclass(frozen=True, slots=True)
class CardInfo:
    """A card's printed face, from the card pool (the same for every game)."""

    name: str
    cost: tuple[str, ...]  # mana symbols: ("1", "G", "G")
    type_line: str
    text: str
    power: int | str | None
    toughness: int | str | None
    colors: str  # a color letter, "multi", "land" or "colorless": the frame's CSS class
    printed_keywords: frozenset[str]


@dataclass(frozen=True, slots=True)
class Option:
    """One option of the viewer's pending decision."""

    id: str
    dom_id: str
    label: str
    objs: tuple[int, ...]  # the objects it names; a button goes on the first
    mana: bool  # a mana ability
    text: str  # the rules text shown as the button's title
    display: str = ""  # the label as shown: whose each named thing is ("your Goblin")
    marks: str = ""  # what it names on the board, for highlighting ("o12 s40 pbob", whose.py)
    key: str = ""  # its key on the keyboard ("1".."9"), or ""
    checkbox: bool = False  # a multi-select's choice drawn on the card it names
    short: str = ""  # that choice's text on the card ("attack Bob")
    ticked: bool = False  # a multi-select's choice the form starts with (a goaded attacker)


@dataclass(frozen=True, slots=True)
class OptionGroup:
    """The options that name one player's things (a list of targets grouped by side)."""

    title: str  # "Bob's side", "Your side"; "" for the options that name nobody's
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Prompt:
    """The viewer's own pending decision; a priority decision's options grouped for the panel."""

    kind: str
    layout: str  # the prompt panel's part that shows it (game/engine/kinds.py, LAYOUTS)
    text: str
    options: tuple[Option, ...]
    pass_options: tuple[Option, ...]
    play_options: tuple[Option, ...]
    act_options: tuple[Option, ...]
    mana_options: tuple[Option, ...]
    multi: bool
    ordered: bool
    min: int
    max: int
    positions: tuple[int, ...]  # 1..n, an ordering's choices
    division: Division | None = None  # combat damage to divide: one amount per recipient
    # "Attack with all": the options that send every creature able to attack at the player (a
    # board-side convenience: the answer is still those options, ticked)
    all_ids: tuple[str, ...] = ()
    # The panel's buttons when identical hidden cards show once (prompt.py); empty: every option
    shown: tuple[Option, ...] = ()
    # The options grouped by whose side of the table they name, in the table's order (the other
    # player's above, yours below); empty when they name one side's things only.
    groups: tuple[OptionGroup, ...] = ()
    # A placement's places for each card: (the form's value, the button's text, in full)
    places: tuple[tuple[str, str, str], ...] = ()
    # Blocks, or a stop in the other player's combat: what its attack deals the viewer
    coming: Coming | None = None

    @property
    def keys(self) -> dict[str, str]:
        """Each keyed option's key by its id: a dungeon's or a room's button on a map shows it."""
        return {o.id: o.key for o in self.options if o.key}


@dataclass(frozen=True, slots=True)
class Coming:
    """At a blocks decision, or a stop in the other player's combat: what each attacker at the
    viewer deals (`combat_damage.Incoming`) and the viewer's life. The prompt says what the
    attackers left unblocked deal and what trample carries over blockers; at the blocks it
    follows the blocks chosen, and a Confirm into lethal damage asks twice, as does a pass into
    it once it is `final` (static/js/combat.js)."""

    attack: tuple[Incoming, ...]
    life: int
    # The blocks are declared and nothing waits on the stack: passing now lets this damage be
    # dealt, so a pass into lethal damage with something still to play asks twice too.
    final: bool = False

    @property
    def unblocked(self) -> int:
        return sum(a.dealt for a in self.attack if a.blocked_by is None)

    @property
    def trampled(self) -> int:
        return sum(a.dealt for a in self.attack if a.blocked_by is not None)

    @property
    def total(self) -> int:
        return self.unblocked + self.trampled

    @property
    def lethal(self) -> bool:
        return self.total >= self.life

    @property
    def by_token(self) -> str:
        """What the page's script reads: each unblocked attacker's damage, "o12:3 o14:3" (the
        board's object tokens)."""
        return " ".join(f"o{a.attacker}:{a.dealt}" for a in self.attack if a.blocked_by is None)

    @property
    def trample_json(self) -> str:
        """For the page's script, each trampler's strikes and what each possible blocker needs:
        {"o12": {"power": 5, "strikes": 1, "needs": {"o20": 2}}}; empty without one."""
        return json.dumps(
            {
                f"o{a.attacker}": {
                    "power": a.power,
                    "strikes": a.strikes,
                    "needs": {f"o{b}": n for b, n in a.needs},
                }
                for a in self.attack
                if a.trample
            }
        )


@dataclass(frozen=True, slots=True)
class Recipient:
    name: str  # as the viewer reads it ("Bob's Goblin", "Bob")
    marks: str  # what to highlight on the board
    filled: int  # its amount as the form is filled in (board/division.py)
    lethal: int | None  # the damage that kills it; None when none can (a player, indestructible)


@dataclass(frozen=True, slots=True)
class Division:
    """A division of combat damage as one amount per recipient (the page turns the amounts
    into the option that has them; without JavaScript the options are listed)."""

    total: int
    recipients: tuple[Recipient, ...]
    filled_id: str  # the option the amounts are filled in with
    legal_ids: str  # the options' ids, space-separated ("cd:1,4 cd:5,0 ...")


@dataclass(frozen=True, slots=True)
class Keyword:
    text: str
    granted: bool  # not printed on the card (an effect gave it)


@dataclass(frozen=True, slots=True)
class Counter:
    kind: str
    n: int


@dataclass(frozen=True, slots=True)
class Permanent:
    """A permanent as the viewer sees it. `key` identifies a permanent without the viewer's
    buttons: its HTML depends on the engine's view of it alone and is rendered once per key
    (render.piece); None when it carries buttons (rendered in place)."""

    id: int
    name: str
    card: str  # what the zoom looks up: the name, or a token's kind where kinds share a name
    info: CardInfo
    token: bool
    tapped: bool
    sick: bool
    types: tuple[str, ...]
    creature: bool
    keyword_list: tuple[Keyword, ...]
    counter_list: tuple[Counter, ...]
    loyalty: int
    has_pt: bool
    power: int | None
    toughness: int | None
    printed_power: int | str | None  # the card's own, which the marks compare against
    printed_toughness: int | str | None
    power_mark: str  # "", "up" or "down" against the printed value
    toughness_mark: str
    pt_changed: bool
    damage: int | None
    attached_to: str | None
    attacking: bool | None
    blocking: bool | None
    attacks: str | int | None  # the player or planeswalker (id) it attacks
    blocks: int | None  # the attacker it blocks (its id)
    blocks_name: str  # and its name
    attacks_name: str  # the name of the player or planeswalker it attacks
    blocked_by: tuple[str, ...]  # the names of its blockers, in order
    goaded_by: tuple[str, ...]  # the players who goaded it (CR 701.15)
    actions: tuple[Option, ...]
    key: bytes | None
    # Its number among its controller's namesakes ("#2", engine.targets.namesake_numbers).
    number: int = 0


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card in the viewer's hand; `key` as for a Permanent (its name and object id)."""

    name: str
    info: CardInfo
    actions: tuple[Option, ...]
    key: str | None
    obj_id: int | None = None  # its object id (the viewer's own hand: highlighting)


@dataclass(frozen=True, slots=True)
class Completed:
    dungeon: str
    turn: int | None  # None: completed before the position the game started from


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat as the page shows it: who, whether connected, their clock and pace."""

    pk: int
    engine_name: str
    display_name: str
    deck_name: str
    is_viewer: bool
    connected: bool
    timing: SeatTiming
    clock_text: str
    full_control: bool
    passing: str  # what the pace feature passes until ("until my next turn"), or ""
    stops: frozenset[str]  # where the pace feature stops the player ("mine:end", engine/stops.py)
    rematch_offered: bool = False  # once the game is over: this seat offers a rematch
    computer: str = ""  # the computer's level ("Easy"), "" for a person
    trigger_stop: ClassVar[str] = THEIR_TRIGGERS  # the stop key of the pace bar's toggle

    @property
    def stops_on_triggers(self) -> bool:
        """The pace feature stops the player on the opponent's triggered abilities."""
        return THEIR_TRIGGERS in self.stops

    forced_stop: ClassVar[str] = ASK_FORCED  # the stop key of "Ask when forced"

    @property
    def asks_forced(self) -> bool:
        """The player is asked even when only one answer is possible (engine/forced.py)."""
        return ASK_FORCED in self.stops


@dataclass(frozen=True, slots=True)
class Side:
    """One player's half of the table as the viewer may see it."""

    name: str
    display_name: str
    is_viewer: bool
    connected: bool
    life: int
    poison: int
    initiative: bool
    lost: bool
    hand_count: int
    library_count: int
    graveyard: tuple[str, ...]
    exile: tuple[str, ...]
    mana_pool: tuple[tuple[str, int], ...]
    revealed_hand: tuple[str, ...] | None
    lands: tuple[Permanent, ...]
    creatures: tuple[Permanent, ...]
    others: tuple[Permanent, ...]
    hand: tuple[HandCard, ...]
    dungeon: tuple[str, str] | None  # (dungeon, room) in the command zone
    completed: tuple[Completed, ...]
    dungeon_map: DungeonMap | None
    dungeon_room_text: str
    is_active: bool
    has_priority: bool
    deciding: bool
    computer: str = ""  # the computer's level ("Easy"), "" for a person

    @property
    def back_range(self) -> range:
        """Card backs drawn for a hidden hand (at most ten; the count is written too)."""
        return range(min(self.hand_count, 10))


@dataclass(frozen=True, slots=True)
class Step:
    key: str
    label: str
    current: bool
    settable: bool = False  # the viewer may turn a stop at this step on or off
    stop: bool = False  # the viewer's pace feature stops there (this turn's set)
    stop_title: str = ""  # what clicking it does


@dataclass(frozen=True, slots=True)
class Turn:
    number: int
    active: str
    step: str
    step_label: str
    steps: tuple[Step, ...]
    pregame: bool = False  # before the first turn: the play/draw choice, mulligans
    stops_settable: bool = False  # the strip's steps are the viewer's stop toggles
    stop_side: str = ""  # whose turn's stops they are: "mine" or "theirs"


@dataclass(frozen=True, slots=True)
class StackItem:
    id: int
    name: str
    kind: str  # "spell" or "ability"
    controller: str
    label: str
    text: str
    targets: tuple[str, ...]
    dungeon: str | None  # a room ability's dungeon


@dataclass(frozen=True, slots=True)
class WaitingTrigger:
    name: str
    controller: str
    text: str
    dungeon: str | None


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    rule: str  # its rule citation ("CR 704.5a"), or ""
    heading: bool = False  # a turn's or a phase's first line (engine/headings.py)


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the viewer is told of a decision that is not theirs."""

    player: str
    text: str
    kind: str


@dataclass(frozen=True, slots=True)
class Absence:
    """The notice of a player who left: a countdown, then the claim for the one present."""

    seat: SeatView
    ms: int
    text: str
    claimable: bool


@dataclass(frozen=True, slots=True)
class AnswerTime:
    """A correspondence game's time to answer: the deciding seat's days left, then, once they
    are out, the claim for the other player (services/correspondence.py)."""

    seat: SeatView
    text: str  # "2 days 3 h"
    days_per_move: int
    out: bool  # the days are out
    claimable: bool  # out, and the viewer is the other player


@dataclass(frozen=True, slots=True)
class Over:
    headline: str
    reason: str
    you_won: bool
    you_lost: bool
    rematch_url: str | None
    offered_by_me: bool = False  # the viewer offered a rematch; the other seat has not answered
    offered_by: str = ""  # the other player who offers the viewer a rematch, or ""
    opponent: str = ""  # the viewer's opponent (their display name)


@dataclass(frozen=True, slots=True)
class GameUrls:
    act: str
    game: str
    watch: str
    cancel: str
    rematch: str
    scenario_file: str
    lobby: str
    replay: str


@dataclass(frozen=True)
class BoardView:
    """The whole board for one viewer: the board template's context (`context()`). The fields
    after `online` are those of a started game; a game waiting for its second player has only
    the first ones."""

    game: Game
    viewer: Player | None
    seats: tuple[SeatView, ...]
    my_seat: SeatView | None
    spectator: bool
    ws_url: str
    urls: GameUrls
    position_file: bool
    invite_link: str
    watch_link: str
    waiting_for_opponent: bool
    online: frozenset[int]
    title: str
    version: int | None = None
    wake_in: float | None = None  # seconds until time alone changes this page
    absent: Absence | None = None
    answer_time: AnswerTime | None = None
    turn: Turn | None = None
    priority: str | None = None
    deciding: str | None = None
    top: Side | None = None
    bottom: Side | None = None
    sides_top_bottom: tuple[Side, ...] = ()
    prompt: Prompt | None = None
    choice_maps: tuple[DungeonMap, ...] = ()
    room_choice_map: DungeonMap | None = None
    waiting: Waiting | None = None
    stack: tuple[StackItem, ...] = ()
    pass_text: str = "Pass"
    waiting_triggers: tuple[WaitingTrigger, ...] = ()
    # The log, newest first, each line with its number (memos.numbered: headings above their
    # phase's lines).
    log: tuple[tuple[int, LogLine], ...] = ()
    log_lines: tuple[str, ...] = field(default=(), repr=False)  # the raw lines: the log's memo key
    log_total: int = 0
    log_archive: tuple[tuple[int, LogLine], ...] = ()  # the older lines, as `log` (a fragment)
    log_archive_lines: tuple[str, ...] = field(default=(), repr=False)  # their memo key
    log_players: tuple[str, ...] = ()  # the game's players: which lines are headings (memo keys)
    over: Over | None = None
    # Takebacks (services/takeback.py): the seated viewer's (whether they may ask and why not, a
    # request pending on either side); a spectator's note of a pending request.
    takeback: TakebackView | None = None
    takeback_note: str = ""
    # A lesson or a puzzle played here (services.training_view): its words beside the board.
    training: Any = None

    def context(self) -> dict[str, Any]:
        """The template context: a dict of the fields (the views add the page's own keys)."""
        return dict(vars(self))
