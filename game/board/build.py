"""The view-model of one viewer's board (viewmodel.BoardView), built by short functions from the
engine's `view_for(seat)` (hidden information already removed), the viewer's own decision and
the game's rows.

Everything a viewer sees comes from that view plus, for the viewer's own pending decision only,
the decision's options. The one exception is deliberate: the options of the other seat's dungeon
and room choices are shown, because which dungeons and rooms can be entered is public (they are
outside the game or on an open map); every other pending decision of the other seat is only
named.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.conf import settings

from dungeons.maplayout import DungeonMap, layout
from game import services
from game.engine.stops import destination
from game.models import Game, Player, Seat

from . import memos, query, whose
from .division import division
from .text import PREGAME_KINDS, STEP_LABELS, clock_text, pick_label, waiting_text
from .viewmodel import (
    Absence,
    BoardView,
    Completed,
    Counter,
    Division,
    HandCard,
    Keyword,
    Option,
    Over,
    Permanent,
    Prompt,
    SeatView,
    Side,
    StackItem,
    Turn,
    Waiting,
    WaitingTrigger,
)

if TYPE_CHECKING:
    from game.engine.decisions import Decision
    from game.engine.dungeon import DungeonSpec
    from game.engine.game import Engine
    from game.services import SeatTiming

# The log is sent in two fragments: the older lines in chunks of LOG_CHUNK, a fragment that
# changes once every LOG_CHUNK lines, and the newest (at least LOG_RECENT, fewer than
# LOG_RECENT + LOG_CHUNK), the one that changes with every answer. So the whole log can be read
# while an answer sends a few kB of it.
LOG_CHUNK = 100
LOG_RECENT = 20
ObjActions = dict[int, tuple[Option, ...]]
_NUMBERED = re.compile(r" #\d+$")  # the suffix that tells identical options apart
# Decisions whose options are read as a whole (a division of damage among several objects):
# shown in the prompt only, not as a button on the first object each names.
LIST_ONLY = frozenset({"divide", "assign_combat_damage", "assign_combat_damage_part"})
# Decisions whose first option is the usual answer (combat damage: lethal damage to each blocker
# in order, the rest to the last one), said so on it; it is not styled as recommended.
USUAL_FIRST = frozenset({"assign_combat_damage"})


@dataclass(frozen=True)
class Snapshot:
    """What is read from the engine under its lock: plain data only."""

    view: dict[str, Any]
    prompt: Prompt | None
    public_choice: tuple[str, tuple[str, ...]] | None  # the other seat's (kind, option labels)
    dungeons: dict[str, DungeonSpec]
    my_hand_ids: list[int]
    pass_text: str  # the pass button's words: where passing takes the viewer
    player_names: dict[str, str]  # engine name -> display name


def board_view(
    game: Game, viewer: Player | None, *, base_url: str = "", seats: list[Seat] | None = None
) -> BoardView:
    """The board of `game` for `viewer` (None or a non-player: spectator). `base_url`
    ("http://host:port") makes the invite link absolute; `seats`, the game's seats with their
    players in order, when the caller has them already (query.load_board)."""
    if seats is None:
        seats = query.seats_of(game)
    timing = services.timings(game, seats)
    if game.status == Game.ACTIVE:  # the timings read the connections already: one query less
        online = {s.pk for s in seats if timing[s.pk].absent_since is None}
    else:
        online = services.online_seat_ids(game) | {s.pk for s in seats if s.player.is_computer}
    mine = next((s.pk for s in seats if viewer is not None and s.player_id == viewer.pk), None)
    seat_views = tuple(_seat_view(s, s.pk == mine, s.pk in online, timing[s.pk]) for s in seats)
    my_seat = next((v for v in seat_views if v.is_viewer), None)
    urls = memos.game_urls(game.code)
    base: dict[str, Any] = {
        "game": game,
        "viewer": viewer,
        "seats": seat_views,
        "my_seat": my_seat,
        "spectator": my_seat is None,
        "ws_url": f"/ws/game/{game.code}/",
        "urls": urls,
        "position_file": game.position_file_open_to(viewer),
        "invite_link": base_url + urls.game,
        "watch_link": base_url + urls.watch,
        "online": frozenset(online),
    }
    if game.status == Game.OPEN or game.started is None:  # (not the setup: it is deferred)
        return BoardView(
            **base, waiting_for_opponent=True, title="Waiting for an opponent · Venture"
        )
    with services.reading(game) as engine:
        names = {s.engine_name: s.display_name for s in seat_views}
        snap = _snapshot(engine, my_seat, names)
    return _started(game, base, seat_views, my_seat, snap)


def _started(
    game: Game,
    base: dict[str, Any],
    seats: tuple[SeatView, ...],
    my_seat: SeatView | None,
    snap: Snapshot,
) -> BoardView:
    view = snap.view
    pending = view["pending"]
    # Who holds priority right now: only while a priority decision is pending (during the
    # resolution of a spell or ability nobody does, whatever the state last recorded).
    holder = pending["player"] if pending and pending.get("kind") == "priority" else None
    # The viewer sits at the bottom; a spectator sees the host at the bottom.
    bottom = my_seat or seats[0]
    top = next(s for s in seats if s.pk != bottom.pk)
    actions = _obj_actions(snap.prompt)
    top_side, bottom_side = (_side(game, s, snap, actions, holder) for s in (top, bottom))
    absent, wake_in = _absence_and_wake_up(game, seats)
    stack = tuple(_stack_item(item) for item in view["stack"])
    log = view["log"]
    split = max(0, len(log) - LOG_RECENT) // LOG_CHUNK * LOG_CHUNK
    lines = tuple(reversed(log[split:]))
    older = tuple(reversed(log[:split]))
    return BoardView(
        **base,
        waiting_for_opponent=False,
        title=" vs ".join(s.display_name for s in seats) + " · Venture",
        version=view["version"],
        wake_in=wake_in,
        absent=absent,
        turn=_turn(view["turn"], pending, my_seat),
        priority=holder,
        deciding=pending["player"] if pending else None,
        top=top_side,
        bottom=bottom_side,
        sides_top_bottom=(top_side, bottom_side),
        prompt=snap.prompt,
        choice_maps=_choice_maps(snap),
        room_choice_map=_room_choice_map(snap, my_seat),
        waiting=_waiting(pending, seats) if snap.prompt is None else None,
        stack=stack,
        pass_text=snap.pass_text,
        waiting_triggers=tuple(WaitingTrigger(**t) for t in view["waiting_triggers"]),
        log=tuple(memos.log_line(line) for line in lines),
        log_lines=lines,
        log_total=len(log),
        log_archive=memos.log_lines(older),
        log_archive_lines=older,
        over=_over(game, view, seats, my_seat),
    )


def _seat_view(seat: Seat, is_viewer: bool, connected: bool, timing: SeatTiming) -> SeatView:
    return SeatView(
        pk=seat.pk,
        engine_name=seat.engine_name,
        display_name=seat.player.display_name,
        deck_name=seat.deck_name,
        is_viewer=is_viewer,
        connected=connected,
        timing=timing,
        clock_text=clock_text(timing.clock_ms),
        full_control=seat.full_control,
        # "pass until my next turn" -> "until my next turn"
        passing=seat.get_pass_until_display()[5:] if seat.pass_until else "",
        stops=services.stops_of(seat),
        rematch_offered=seat.rematch_offered,
        computer=seat.player.get_computer_level_display() if seat.player.is_computer else "",
    )


# the engine's snapshot ---------------------------------------------------------------------------
def _snapshot(engine: Engine, my_seat: SeatView | None, names: dict[str, str]) -> Snapshot:
    me = my_seat.engine_name if my_seat else None
    view = engine.view_for(me)
    d = engine.pending
    prompt = None
    pass_words = "Pass"
    if d is not None and my_seat is not None and d.player == me:
        owners = whose.owners(engine.state, d, my_seat.engine_name, names)
        prompt = _prompt(d, owners, division(d, owners, names))
        if d.kind == "priority":
            pass_words = destination(
                engine.state, my_seat.engine_name, my_seat.stops, my_seat.full_control
            )
    # The other seat's dungeon and room choices are public; view_for gives their options.
    theirs = view["pending"]
    public = None
    if theirs and theirs["player"] != me and "options" in theirs:
        public = (theirs["kind"], tuple(theirs["options"]))
    hand_ids = view["players"][me]["hand_ids"] if me is not None else []
    return Snapshot(view, prompt, public, dict(engine.state.dungeons), hand_ids, pass_words, names)


def _prompt(d: Decision, owners: dict[str, whose.Owned], split: Division | None = None) -> Prompt:
    """The viewer's decision. Outside a priority decision an option that names objects or
    players says whose they are ("your Goblin", "Bob's Varis", whose.py); each option names
    its objects for the board's highlighting (`marks`) and gets a key of the keyboard."""
    options = []
    for i, o in enumerate(d.options):
        owned = owners.get(o.id)
        options.append(
            Option(
                id=o.id,
                dom_id=f"opt-{i}",
                label=o.label,
                objs=tuple(o.objs),
                mana=o.data == "mana",
                text=o.data if isinstance(o.data, str) and o.data != "mana" else "",
                display=(owned.display if owned else o.label)
                + (" (the usual division)" if i == 0 and d.kind in USUAL_FIRST else ""),
                marks=owned.marks if owned else " ".join(f"o{x}" for x in o.objs),
            )
        )
    groups: dict[str, list[Option]] = {"pass": [], "play": [], "act": [], "mana": []}
    if d.kind == "priority":
        for o in options:
            if o.id == "pass":
                groups["pass"].append(o)
            elif o.mana:
                groups["mana"].append(o)
            elif o.label.startswith(("cast ", "play ")):
                groups["play"].append(o)
            else:
                groups["act"].append(o)
        # The keys 1-9 go to the options in the order the panel shows them.
        keyed = _with_keys(groups["play"] + groups["act"])
        groups["play"], groups["act"] = keyed[: len(groups["play"])], keyed[len(groups["play"]) :]
        options = groups["pass"] + keyed + groups["mana"]
        options.sort(key=lambda o: int(o.dom_id[4:]))  # the engine's order for the rest
    else:
        options = _with_keys(options)
    return Prompt(
        kind=d.kind,
        text=d.prompt,
        options=tuple(options),
        pass_options=tuple(groups["pass"]),
        play_options=tuple(groups["play"]),
        act_options=tuple(groups["act"]),
        mana_options=tuple(groups["mana"]),
        multi=d.multi,
        ordered=d.ordered,
        min=d.min_count,
        max=d.max_count,
        positions=tuple(range(1, len(options) + 1)),
        division=split,
    )


def _with_keys(options: list[Option]) -> list[Option]:
    """The options with the keys 1-9, in order (passing has Space instead; a tenth has none)."""
    keys = iter("123456789")
    return [o if o.id == "pass" else replace(o, key=next(keys, "")) for o in options]


def _obj_actions(prompt: Prompt | None) -> ObjActions:
    """Options tied to an object: buttons on the hand card or the permanent they name (in a
    multi-select, the checkbox's label, with a short text; a mana ability, the source's button
    to tap it by hand: the mana waits in the pool for the next spell)."""
    found: dict[int, list[Option]] = {}
    if prompt is None:
        return {}
    for o in prompt.options:
        if not o.objs or prompt.multi or prompt.ordered or prompt.kind in LIST_ONLY:
            continue
        if o.mana:  # tapping a source by hand: a "tap" button on it, its cost as the title
            cost = _NUMBERED.sub("", o.label.split(": ", 1)[-1])
            short = "tap" if cost == "{T}" else cost
            o = replace(o, short=short, text=f"{cost}: add its mana to your pool now")
        elif prompt.kind != "priority":  # on the card itself its name goes without saying
            o = replace(o, short=pick_label(prompt.kind, o.display))
        found.setdefault(o.objs[0], []).append(o)
    if prompt.multi:
        for o in prompt.options:
            for obj in o.objs[:1]:
                short = pick_label(prompt.kind, o.display)
                found.setdefault(obj, []).append(replace(o, checkbox=True, short=short))
    return {obj: tuple(opts) for obj, opts in found.items()}


# one side of the table -------------------------------------------------------------------------
def _side(
    game: Game, seat: SeatView, snap: Snapshot, actions: ObjActions, holder: str | None
) -> Side:
    pv = snap.view["players"][seat.engine_name]
    pending = snap.view["pending"]
    # Before the first turn (the play/draw choice, mulligans) nobody's turn has begun.
    pregame = bool(pending and pending["kind"] in PREGAME_KINDS)
    is_active = snap.view["turn"]["active"] == seat.engine_name and not pregame
    # Names of what a permanent may fight: the permanents on the battlefield and the players.
    names: dict[int | str, str] = {
        p["id"]: p["name"] for side in snap.view["players"].values() for p in side["battlefield"]
    }
    names.update(snap.player_names)
    lands, creatures, others = _battlefield(pv["battlefield"], actions, is_active, names)
    dungeon = (pv["dungeon"]["name"], pv["dungeon"]["room"]) if pv["dungeon"] else None
    spec = snap.dungeons.get(dungeon[0]) if dungeon else None
    room = spec.rooms.get(dungeon[1]) if spec and dungeon else None
    return Side(
        name=seat.engine_name,
        display_name=seat.display_name,
        is_viewer=seat.is_viewer,
        connected=seat.connected,
        life=pv["life"],
        poison=pv["poison"],
        initiative=pv["initiative"],
        lost=pv["lost"],
        hand_count=pv["hand_count"],
        library_count=pv["library_count"],
        graveyard=tuple(pv["graveyard"]),
        exile=tuple(pv["exile"]),
        mana_pool=tuple(pv["mana_pool"].items()),
        revealed_hand=tuple(pv["revealed_hand"]) if pv.get("revealed_hand") is not None else None,
        lands=lands,
        creatures=creatures,
        others=others,
        hand=_hand(pv["hand"], snap.my_hand_ids if seat.is_viewer else None, actions),
        dungeon=dungeon,
        completed=tuple(Completed(c["dungeon"], c["turn"]) for c in pv["completed"]),
        dungeon_map=memos.side_map(game, spec, dungeon[1]) if spec and dungeon else None,
        dungeon_room_text=room.text if room else "",
        is_active=is_active,
        has_priority=holder == seat.engine_name,
        deciding=bool(pending and pending.get("player") == seat.engine_name),
        computer=seat.computer,
    )


def _battlefield(
    permanents: list[dict[str, Any]],
    actions: ObjActions,
    is_active: bool,
    names: dict[int | str, str],
) -> tuple[tuple[Permanent, ...], tuple[Permanent, ...], tuple[Permanent, ...]]:
    """A side's permanents as (lands, creatures, others). Summoning sickness (CR 302.6) is
    shown only where it matters: a creature of the player whose turn it is, that could attack
    but for it; on the other player's turn it only keeps {T} abilities off, which the buttons
    on it show."""
    lands, creatures, others = [], [], []
    for p in permanents:
        if p["sick"] and (not is_active or "haste" in p["keywords"]):
            p = {**p, "sick": False}
        # Who fights whom, in words on the cards (the lines between them are drawn by the page):
        # the names go into the permanent's view, so they are part of its memo key.
        if p.get("blocks") is not None:
            p = {**p, "blocks_name": names.get(p["blocks"], "")}
        if p.get("attacks") is not None:
            p = {**p, "attacks_name": names.get(p["attacks"], "")}
        if p.get("blocked_by"):
            p = {**p, "blocked_by_names": [names.get(b, "") for b in p["blocked_by"]]}
        acts = actions.get(p["id"], ())
        perm = _permanent(p, acts, None) if acts else _plain_permanent(p)
        if "Creature" in p["types"]:
            creatures.append(perm)
        elif "Land" in p["types"]:
            lands.append(perm)
        else:
            others.append(perm)
    return tuple(lands), tuple(creatures), tuple(others)


def _plain_permanent(p: dict[str, Any]) -> Permanent:
    """A permanent without the viewer's buttons: a function of the engine's view of it alone,
    so made once per distinct view (memos.PERMANENTS) and its HTML rendered once per key
    (render.piece). Most of a side, and a frozen dataclass costs microseconds to make."""
    key = _digest(p)
    return memos.PERMANENTS.get_or_make(key, lambda: _permanent(p, (), key))


def _permanent(p: dict[str, Any], actions: tuple[Option, ...], key: bytes | None) -> Permanent:
    info = memos.card_info(p["name"])
    has_pt = "power" in p
    power, toughness = p.get("power"), p.get("toughness")
    base_p, base_t = p.get("base_power"), p.get("base_toughness")
    power_mark = _mark(power, base_p) if has_pt else ""
    toughness_mark = _mark(toughness, base_t) if has_pt else ""
    counters = p["counters"]
    return Permanent(
        id=p["id"],
        name=p["name"],
        info=info,
        token=p["token"],
        tapped=p["tapped"],
        sick=p["sick"],
        types=tuple(p["types"]),
        creature="Creature" in p["types"],
        keyword_list=tuple(
            Keyword(k, k not in info.printed_keywords and not k.startswith("ward"))
            for k in p["keywords"]
        ),
        counter_list=tuple(Counter(k, n) for k, n in sorted(counters.items()) if n),
        loyalty=counters.get("loyalty", 0),
        has_pt=has_pt,
        power=power,
        toughness=toughness,
        base_power=base_p,
        base_toughness=base_t,
        power_mark=power_mark,
        toughness_mark=toughness_mark,
        pt_changed=bool(power_mark or toughness_mark),
        damage=p.get("damage"),
        attached_to=p.get("attached_to"),
        attacking=p.get("attacking"),
        blocking=p.get("blocking"),
        attacks=p.get("attacks"),
        blocks=p.get("blocks"),
        blocks_name=p.get("blocks_name", ""),
        attacks_name=p.get("attacks_name", ""),
        blocked_by=tuple(p.get("blocked_by_names", ())),
        actions=actions,
        key=key,
    )


def _mark(value: Any, printed: Any) -> str:
    """ "up" or "down" when an effect changed a printed power or toughness, else ""."""
    if printed is None or value == printed:
        return ""
    return "up" if value > printed else "down"


def _digest(data: Any) -> bytes:
    """A short key for plain data (dicts, lists, strings, numbers, booleans, None): 128 bits of
    BLAKE2 over its repr (the text itself as the key would be kept with every entry). Equal
    reprs are equal data; equal data with keys in another order only misses the memo once.
    (The repr is 2-3x cheaper than canonical JSON, and a render takes a key per permanent.)"""
    return hashlib.blake2b(repr(data).encode(), digest_size=16).digest()


def _hand(
    names: list[str] | None, ids: list[int] | None, actions: ObjActions
) -> tuple[HandCard, ...]:
    """The viewer's own hand (names: None for a hand the viewer can't see)."""
    if names is None:
        return ()
    cards = []
    for i, name in enumerate(names):
        obj_id = ids[i] if ids is not None and i < len(ids) else None
        acts = actions.get(obj_id, ()) if obj_id is not None else ()
        key = None if acts else f"{name}#{obj_id}"
        cards.append(HandCard(name, memos.card_info(name), acts, key, obj_id))
    return tuple(cards)


# maps, turn, stack, the end --------------------------------------------------------------------
def _choice_maps(snap: Snapshot) -> tuple[DungeonMap, ...]:
    """The choice of a dungeon: every option's full map, side by side (buttons for the viewer
    who chooses; read-only for the other seat, whose choice is public)."""
    prompt = snap.prompt
    if prompt is not None and prompt.kind == "choose_dungeon":
        return tuple(
            layout(snap.dungeons[o.label], card_option=o.id)
            for o in prompt.options
            if o.label in snap.dungeons
        )
    if snap.public_choice and snap.public_choice[0] == "choose_dungeon":
        return tuple(
            layout(snap.dungeons[label])
            for label in snap.public_choice[1]
            if label in snap.dungeons
        )
    return ()


def _room_choice_map(snap: Snapshot, my_seat: SeatView | None) -> DungeonMap | None:
    """The viewer's fork: chosen on the map itself, drawn full size in the prompt."""
    prompt = snap.prompt
    if prompt is None or prompt.kind != "choose_room" or my_seat is None:
        return None
    dungeon = snap.view["players"][my_seat.engine_name]["dungeon"]
    spec = snap.dungeons.get(dungeon["name"]) if dungeon else None
    if spec is None:
        return None
    options = {o.label: o.id for o in prompt.options}
    return layout(spec, current=dungeon["room"], room_options=options)


def _turn(turn: dict[str, Any], pending: dict[str, Any] | None, me: SeatView | None) -> Turn:
    """The turn and its steps; for a player, the steps of the strip are their stops for the
    turn being played (their own turn's, or the opponent's)."""
    step = turn["step"]
    side = "mine" if me is not None and turn["active"] == me.engine_name else "theirs"
    stops = me.stops if me is not None else None
    if pending and pending["kind"] in PREGAME_KINDS:  # no turn has begun: no step is current
        return Turn(
            number=turn["number"],
            active=turn["active"],
            step="",
            step_label=PREGAME_KINDS[pending["kind"]],
            steps=memos.turn_steps(""),
            pregame=True,
        )
    return Turn(
        number=turn["number"],
        active=turn["active"],
        step=step,
        step_label=STEP_LABELS.get(step, step),
        steps=memos.turn_steps(step, side, stops),
        stops_settable=stops is not None,
        stop_side=side,
    )


def _stack_item(item: dict[str, Any]) -> StackItem:
    return StackItem(
        id=item["id"],
        name=item["name"],
        kind=item["kind"],
        controller=item["controller"],
        label=item["label"],
        text=item["text"],
        targets=tuple(item["targets"]),
        dungeon=item.get("dungeon"),
    )


def _waiting(pending: dict[str, Any] | None, seats: tuple[SeatView, ...]) -> Waiting | None:
    """What the viewer is told of a decision that is not theirs."""
    if not pending:
        return None
    deciding = next((s for s in seats if s.engine_name == pending["player"]), None)
    who = deciding.display_name if deciding else pending["player"]
    kind = pending["kind"]
    return Waiting(player=pending["player"], text=waiting_text(who, kind), kind=kind)


def _over(
    game: Game, view: dict[str, Any], seats: tuple[SeatView, ...], my_seat: SeatView | None
) -> Over | None:
    winner = view["winner"]
    if game.status != Game.FINISHED and not winner:
        return None
    by_name = {s.engine_name: s for s in seats}
    if winner == "draw":
        headline = "The game is a draw"
    elif winner in by_name:
        headline = f"{by_name[winner].display_name} wins"
    else:
        headline = "The game is over"
    rematch = query.rematch_of(game)
    other = next((s for s in seats if my_seat is None or s.pk != my_seat.pk), None)
    return Over(
        headline=headline,
        reason=game.end_reason or view["end_reason"],  # a time loss: the game says why
        you_won=my_seat is not None and winner == my_seat.engine_name,
        you_lost=my_seat is not None and winner not in (None, "draw", my_seat.engine_name),
        rematch_url=rematch.get_absolute_url() if rematch else None,
        # A rematch is an offer the other player accepts (services.rematch).
        offered_by_me=my_seat is not None and my_seat.rematch_offered,
        offered_by=other.display_name
        if my_seat is not None and other is not None and other.rematch_offered
        else "",
        opponent=other.display_name if my_seat is not None and other is not None else "",
    )


def _absence_and_wake_up(
    game: Game, seats: tuple[SeatView, ...]
) -> tuple[Absence | None, float | None]:
    """The notice of a player who left (a countdown, then the claim for the one present), and
    in how many seconds this page must be redrawn by the server (a countdown ends, a clock
    reaches zero), or None."""
    if game.status != Game.ACTIVE:
        return None, None
    grace = settings.VENTURE_ABSENCE_GRACE_SECONDS
    viewer_seated = any(s.is_viewer for s in seats)
    wakes: list[float] = []
    absent = None
    for seat in seats:
        t = seat.timing
        if t.clock_running and t.clock_ms is not None:
            wakes.append(t.clock_ms / 1000 + 0.05)
        if t.absent_since is None or seat.is_viewer:
            continue
        if t.absent_seconds < grace:
            wakes.append(grace - t.absent_seconds + 0.05)
            continue
        left = t.claimable_in or 0.0
        if left > 0:
            wakes.append(left + 0.05)
        ms = int(left * 1000)
        absent = Absence(seat, ms, clock_text(ms), left <= 0 and viewer_seated)
    return absent, (min(wakes) if wakes else None)
