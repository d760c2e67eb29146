"""The game page for one viewer: the engine's view turned into template context and fragments.

Everything a viewer sees comes from `engine.view_for(their seat)` (hidden information already
removed) plus, for the viewer's own pending decision only, the decision's options. The one
exception is deliberate: the options of the other seat's dungeon and room choices are shown,
because which dungeons and rooms can be entered is public (they are outside the game or on an
open map); every other pending decision of the other seat is only named.

`render_board` renders each block of `templates/jinja2/game/board.html` (Jinja2: see
game/runtime/templating.py) for one viewer; the consumer sends them over the websocket
(`hx-swap-oob`), and the page view embeds the same board in the whole page.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.urls import reverse
from markupsafe import Markup

from dungeons.maplayout import DungeonMap, layout
from game.engine.cards import CARDS, TOKENS
from game.engine.cards.base import CardDef
from game.engine.decisions import Decision
from game.engine.dungeon import DungeonSpec
from game.engine.game import Engine

from . import services
from .models import Connection, Game, Player, Seat
from .runtime import templating
from .runtime.prepared import PreparedQuery

# The blocks of templates/jinja2/game/board.html that make up the live board, each the id of its
# root.
FRAGMENTS = ("topbar", "opponent", "me", "hand", "stack", "maps", "prompt", "pace", "log", "over")
LOG_LINES = 80

_BY_NAME: dict[str, CardDef] = {}
for _card in list(TOKENS.values()) + list(CARDS.values()):
    _BY_NAME[_card.name] = _card

STEP_LABELS = {
    "untap": "Untap",
    "upkeep": "Upkeep",
    "draw": "Draw",
    "precombat_main": "Main 1",
    "beginning_of_combat": "Beginning of combat",
    "declare_attackers": "Declare attackers",
    "declare_blockers": "Declare blockers",
    "combat_damage": "Combat damage",
    "end_of_combat": "End of combat",
    "postcombat_main": "Main 2",
    "end": "End step",
    "cleanup": "Cleanup",
}
STEP_ORDER = list(STEP_LABELS)

# What the other seat is told about a decision it can't see ("Bob is choosing a room").
WAITING_TEXT = {
    "priority": "has priority",
    "mulligan": "is deciding whether to keep their hand",
    "mulligan_bottom": "is choosing cards to put on the bottom",
    "choose_dungeon": "is choosing a dungeon",
    "choose_room": "is choosing a room",
    "choose_targets": "is choosing targets",
    "declare_attackers": "is declaring attackers",
    "declare_blockers": "is declaring blockers",
    "pay_ward": "is deciding whether to pay for ward",
    "unless": "is deciding whether to pay",
    "yes_no": "is making a choice",
    "scry": "is scrying",
    "scry_order": "is scrying",
    "discard": "is choosing a card to discard",
    "sacrifice": "is choosing what to sacrifice",
    "search": "is searching their library",
    "divide": "is dividing damage",
    "choose_color": "is choosing a color",
    "cast_free": "is choosing a card to cast",
    "order_triggers": "is ordering triggered abilities",
}
_CITATION = re.compile(
    r"^(?P<text>.*?) \((?P<rule>(?:CR |AFR|Release|Undercity|CLB|Rulings?)[^()]*)\)$"
)
_SYMBOL = re.compile(r"\{([^}]+)\}")


# small pieces -----------------------------------------------------------------------------------
def mana_symbols(cost_text: str | None) -> list[str]:
    """ "{1}{G}{G}" -> ["1", "G", "G"]: each symbol is drawn as a pip."""
    return _SYMBOL.findall(cost_text or "")


@functools.cache  # card definitions don't change while the server runs
def card_info(name: str) -> dict[str, Any]:
    card = _BY_NAME.get(name)
    if card is None:
        return {"name": name, "cost": [], "type_line": "", "text": "", "colors": "colorless"}
    colors = "".join(sorted(card.colors)) or ("land" if "Land" in card.types else "colorless")
    return {
        "name": name,
        "cost": mana_symbols(card.cost.text if card.cost else ""),
        "type_line": card.type_line,
        "text": card.text,
        "power": card.power,
        "toughness": card.toughness,
        "colors": colors if len(colors) <= 1 or colors in ("land", "colorless") else "multi",
        "printed_keywords": sorted(card.keywords),
    }


@functools.lru_cache(maxsize=8192)
def split_citation(line: str) -> dict[str, str]:
    m = _CITATION.match(line)
    if m:
        return {"text": m["text"], "rule": m["rule"]}
    return {"text": line, "rule": ""}


@functools.lru_cache(maxsize=8192)
def log_item(line: str) -> Markup:
    """One line of the game log as its list item, its rule citation apart. Rendered once per
    distinct line: a new answer adds a line or a few, and the panel shows the last 80."""
    part = split_citation(line)
    cite = Markup(" <cite>{}</cite>").format(part["rule"]) if part["rule"] else ""
    return Markup("<li>{}{}</li>").format(part["text"], cite)


def waiting_text(name: str, kind: str) -> str:
    return f"{name} {WAITING_TEXT.get(kind, 'is deciding (' + kind.replace('_', ' ') + ')')}"


# the context ------------------------------------------------------------------------------------
@dataclass
class Side:
    """One player's half of the table as the viewer may see it."""

    name: str
    display_name: str
    seat: Seat
    view: dict[str, Any]
    is_viewer: bool
    lands: list[dict[str, Any]] = field(default_factory=list)
    creatures: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)
    hand: list[dict[str, Any]] = field(default_factory=list)
    dungeon_map: DungeonMap | None = None
    dungeon_room_text: str = ""
    is_active: bool = False
    has_priority: bool = False
    deciding: bool = False

    @property
    def back_range(self) -> range:
        """Card backs drawn for a hidden hand (at most ten; the count is written too)."""
        return range(min(self.view["hand_count"], 10))


def new_action_id() -> str:
    return secrets.token_hex(8)


class FreshActionId:
    """`{{ action_id }}` in a form: a new id each time it is rendered, so every form on the page
    carries its own. The server applies an id once (game.services), so a double click or a
    resent message is refused, while two different forms never collide.

    A render draws one random prefix (64 bits from `secrets`) and numbers its forms after it:
    as unique as a random id per form, without a system call for each of the dozens of forms
    of a board (they showed in the server's profile)."""

    def __init__(self) -> None:
        self.prefix = new_action_id()
        self.count = itertools.count()

    def __str__(self) -> str:
        return f"{self.prefix}{next(self.count):x}"


@dataclass
class FormData:
    """What every in-game form of one viewer's render carries (the templates' `f`): where it
    posts without JavaScript, the version it was rendered at, a fresh action id each time
    `f.action_id` is written, and the viewer's CSRF token for those plain posts."""

    act_url: str
    version: int | None
    action_id: FreshActionId
    csrf_token: str
    # The hidden fields every form repeats, written here rather than by two template macros
    # per form: a priority prompt has a dozen forms, and Jinja2's macro calls were a tenth of
    # a render. (markupsafe escapes what is interpolated, as the macros did.)
    csrf: Markup = field(init=False, repr=False)
    _version: Markup = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.csrf = (
            Markup('<input type="hidden" name="csrfmiddlewaretoken" value="{}">').format(
                self.csrf_token
            )
            if self.csrf_token
            else Markup("")
        )
        self._version = Markup('<input type="hidden" name="version" value="{}">').format(
            self.version
        )

    def fields(self) -> Markup:
        """The form's version and a fresh action id (FreshActionId: hex digits, nothing to
        escape)."""
        return Markup(
            f'{self._version}<input type="hidden" name="action_id" value="{self.action_id}">'
        )


def clock_text(ms: int | None) -> str:
    """A chess clock's face: "4:59", "1:02:03", "0:09.5" in the last ten seconds."""
    if ms is None:
        return ""
    if ms < 10_000:
        return f"0:{ms / 1000:04.1f}"
    seconds = math.ceil(ms / 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _permanent(p: dict[str, Any], actions: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    info = card_info(p["name"])
    out = dict(p)
    out["info"] = info
    if "power" in p:
        base_p = p.get("base_power")
        base_t = p.get("base_toughness")
        out["power_mark"] = (
            ""
            if base_p is None or p["power"] == base_p
            else ("up" if p["power"] > base_p else "down")
        )
        out["toughness_mark"] = (
            ""
            if base_t is None or p["toughness"] == base_t
            else ("up" if p["toughness"] > base_t else "down")
        )
        out["pt_changed"] = bool(out["power_mark"] or out["toughness_mark"])
    printed = set(info.get("printed_keywords", []))
    out["keyword_list"] = [
        {"text": k, "granted": k not in printed and not k.startswith("ward")} for k in p["keywords"]
    ]
    out["counter_list"] = [{"kind": k, "n": n} for k, n in sorted(p["counters"].items()) if n]
    out["actions"] = actions.get(p["id"], [])
    # Every key the templates ask for is present: a missing key costs Django a failed lookup
    # (exceptions and a dir() of the dict), dozens per render (docs/performance.md).
    for key in ("attacking", "blocking", "attached_to", "damage"):
        out.setdefault(key, None)
    out["counters"] = {"loyalty": 0, **p["counters"]}
    return out


def _option_dicts(d: Decision) -> list[dict[str, Any]]:
    out = []
    for i, o in enumerate(d.options):
        out.append(
            {
                "id": o.id,
                "dom_id": f"opt-{i}",
                "label": o.label,
                "objs": list(o.objs),
                "mana": o.data == "mana",
                "text": o.data if isinstance(o.data, str) and o.data != "mana" else "",
                "checkbox": False,
            }
        )
    return out


def _prompt(d: Decision) -> dict[str, Any]:
    options = _option_dicts(d)
    groups: dict[str, list[dict[str, Any]]] = {"pass": [], "play": [], "act": [], "mana": []}
    if d.kind == "priority":
        for o in options:
            if o["id"] == "pass":
                groups["pass"].append(o)
            elif o["mana"]:
                groups["mana"].append(o)
            elif o["label"].startswith(("cast ", "play ")):
                groups["play"].append(o)
            else:
                groups["act"].append(o)
    return {
        "kind": d.kind,
        "text": d.prompt,
        "options": options,
        "groups": groups,
        "multi": d.multi,
        "ordered": d.ordered,
        "min": d.min_count,
        "max": d.max_count,
        "positions": list(range(1, len(options) + 1)),
    }


PICK_VERBS = {
    "declare_attackers": "attack",
    "discard": "discard",
    "sacrifice": "sacrifice",
    "mulligan_bottom": "to the bottom",
}


def _pick_label(kind: str, label: str) -> str:
    """The short text on a card for a multi-select option that names it."""
    if kind == "declare_attackers" and " -> " in label:
        return "attack " + label.split(" -> ", 1)[1]
    if kind == "declare_blockers" and " blocks " in label:
        return "block " + label.split(" blocks ", 1)[1]
    return PICK_VERBS.get(kind, "choose")


def _map_for(
    spec: DungeonSpec, room: str | None, *, room_options: dict[str, str] | None = None
) -> DungeonMap:
    return layout(spec, current=room, room_options=room_options)


_MAPS: OrderedDict[tuple[int, str, str, str | None], DungeonMap] = OrderedDict()
_MAPS_LOCK = threading.Lock()


def _side_map(game: Game, spec: DungeonSpec, room: str | None) -> DungeonMap:
    """The read-only map of a player's dungeon, laid out once per game, dungeon and room: a
    game's dungeon specs never change once it has started, and nothing mutates the map. (Keyed
    by code too: a primary key alone may come back after a delete.)"""
    key = (game.pk, game.code, spec.name, room)
    with _MAPS_LOCK:
        found = _MAPS.get(key)
        if found is not None:
            _MAPS.move_to_end(key)
            return found
    made = _map_for(spec, room)
    with _MAPS_LOCK:
        _MAPS[key] = made
        while len(_MAPS) > 1024:
            _MAPS.popitem(last=False)
    return made


@functools.lru_cache(maxsize=4096)
def _game_urls(code: str) -> dict[str, str]:
    return {
        name: reverse(route, args=[code])
        for name, route in (
            ("act", "game_act"),
            ("game", "game"),
            ("watch", "watch_game"),
            ("cancel", "cancel_game"),
            ("rematch", "rematch"),
            ("scenario_file", "scenario_file"),
        )
    } | {"lobby": reverse("lobby")}


@dataclass
class Snapshot:
    """What was read from the engine under the cache lock: plain data only."""

    view: dict[str, Any]
    prompt: dict[str, Any] | None
    public_choice: dict[str, Any] | None
    dungeons: dict[str, DungeonSpec]
    my_hand_ids: list[int]


def _snapshot(engine: Engine, me: str | None) -> Snapshot:
    view = engine.view_for(me)
    d = engine.pending
    prompt = _prompt(d) if d is not None and me is not None and d.player == me else None
    # The other seat's dungeon and room choices are public; view_for gives their options.
    theirs = view["pending"]
    public = None
    if theirs and theirs["player"] != me and "options" in theirs:
        public = {"player": theirs["player"], "kind": theirs["kind"], "labels": theirs["options"]}
    hand_ids = view["players"][me]["hand_ids"] if me is not None else []
    return Snapshot(view, prompt, public, dict(engine.state.dungeons), hand_ids)


def board_context(
    game: Game, viewer: Player | None, *, base_url: str = "", seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The template context of the game page for `viewer` (None or a non-player: spectator).
    `base_url` ("http://host:port") makes the invite link absolute; `seats`, the game's seats
    with their players in order, when the caller has them already (`load_board`)."""
    if seats is None:
        seats = list(game.seats.select_related("player").order_by("position"))
    timing = services.timings(game, seats)
    if game.status == Game.ACTIVE:  # the timings read the connections already: one query less
        online = {s.pk for s in seats if timing[s.pk].absent_since is None}
    else:
        online = services.online_seat_ids(game)
    for seat in seats:
        seat.connected = seat.pk in online
        seat.timing = timing[seat.pk]
        seat.clock_text = clock_text(seat.timing.clock_ms)
    my_seat = next((s for s in seats if viewer is not None and s.player_id == viewer.pk), None)
    urls = _game_urls(game.code)
    ctx: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "my_seat": my_seat,
        "viewer": viewer,
        "spectator": my_seat is None,
        "ws_url": f"/ws/game/{game.code}/",
        "urls": urls,
        "position_file": game.position_file_open_to(viewer),
        "invite_link": base_url + urls["game"],
        "watch_link": base_url + urls["watch"],
        "wake_in": None,
        "version": None,
        "waiting_for_opponent": False,
        "online": frozenset(online),
    }
    if game.status == Game.OPEN or game.started is None:  # (not the setup: it is deferred)
        ctx["waiting_for_opponent"] = True
        ctx["title"] = "Waiting for an opponent · Venture"
        return ctx
    ctx["title"] = " vs ".join(s.player.display_name for s in seats) + " · Venture"
    me = my_seat.engine_name if my_seat else None
    with services.reading(game) as engine:
        snap = _snapshot(engine, me)
    view = snap.view
    ctx["version"] = view["version"]
    ctx["absent"], ctx["wake_in"] = _absence_and_wake_up(game, seats, my_seat)
    ctx["turn"] = {
        **view["turn"],
        "step_label": STEP_LABELS.get(view["turn"]["step"], view["turn"]["step"]),
        "steps": [
            {"key": s, "label": STEP_LABELS[s], "current": s == view["turn"]["step"]}
            for s in STEP_ORDER
        ],
    }
    # Who holds priority right now: only while a priority decision is pending (during the
    # resolution of a spell or ability nobody does, whatever the state last recorded).
    pending = view["pending"]
    holder = pending["player"] if pending and pending.get("kind") == "priority" else None
    ctx["priority"] = holder
    ctx["deciding"] = pending["player"] if pending else None
    by_name = {s.engine_name: s for s in seats}
    # The viewer sits at the bottom; a spectator sees the host at the bottom.
    bottom = my_seat or seats[0]
    top = next(s for s in seats if s.pk != bottom.pk)

    # Options tied to an object: buttons on the hand card or the permanent they name.
    obj_actions: dict[int, list[dict[str, Any]]] = {}
    prompt = snap.prompt
    if prompt is not None:
        for o in prompt["options"]:
            if o["mana"] or not o["objs"] or prompt["multi"] or prompt["ordered"]:
                continue
            obj_actions.setdefault(o["objs"][0], []).append(o)
        if prompt["multi"]:
            for o in prompt["options"]:
                for obj in o["objs"][:1]:
                    short = _pick_label(prompt["kind"], o["label"])
                    obj_actions.setdefault(obj, []).append({**o, "checkbox": True, "short": short})

    sides = {}
    for seat in (top, bottom):
        pv = view["players"][seat.engine_name]
        pv.setdefault("revealed_hand", None)
        side = Side(
            name=seat.engine_name,
            display_name=seat.player.display_name,
            seat=seat,
            view=pv,
            is_viewer=seat == my_seat,
        )
        for p in pv["battlefield"]:
            perm = _permanent(p, obj_actions)
            # A permanent without buttons is a function of its view alone: rendered once
            # per distinct state and reused (most of a side's render; see _piece).
            perm["html"] = "" if perm["actions"] else _piece("permanent", perm, _digest(p))
            if "Land" in p["types"] and "Creature" not in p["types"]:
                side.lands.append(perm)
            elif "Creature" in p["types"]:
                side.creatures.append(perm)
            else:
                side.others.append(perm)
        if pv["hand"] is not None:
            ids = snap.my_hand_ids if seat == my_seat else [None] * len(pv["hand"])
            for name, obj_id in zip(pv["hand"], ids, strict=False):
                card = {
                    "name": name,
                    "info": card_info(name),
                    "actions": obj_actions.get(obj_id, []) if obj_id is not None else [],
                }
                card["html"] = "" if card["actions"] else _piece("hand_card", card, name)
                side.hand.append(card)
        if pv["dungeon"] is not None:
            spec = snap.dungeons.get(pv["dungeon"]["name"])
            if spec is not None:
                side.dungeon_map = _side_map(game, spec, pv["dungeon"]["room"])
                room = spec.rooms.get(pv["dungeon"]["room"])
                side.dungeon_room_text = room.text if room else ""
                if prompt is not None and prompt["kind"] == "choose_room" and seat == my_seat:
                    # The fork is chosen on the map itself, drawn full size in the prompt.
                    ctx["room_choice_map"] = _map_for(
                        spec,
                        pv["dungeon"]["room"],
                        room_options={o["label"]: o["id"] for o in prompt["options"]},
                    )
        side.is_active = view["turn"]["active"] == seat.engine_name
        side.has_priority = holder == seat.engine_name
        side.deciding = bool(pending and pending.get("player") == seat.engine_name)
        sides[seat.pk] = side
    ctx["top"] = sides[top.pk]
    ctx["bottom"] = sides[bottom.pk]
    ctx["sides_top_bottom"] = [sides[top.pk], sides[bottom.pk]]

    # The choice of a dungeon: every option's full map, side by side.
    choice_maps: list[DungeonMap] = []
    if prompt is not None and prompt["kind"] == "choose_dungeon":
        for o in prompt["options"]:
            spec = snap.dungeons.get(o["label"])
            if spec is not None:
                m = _map_for(spec, None)
                m.option_id = o["id"]
                choice_maps.append(m)
    elif snap.public_choice and snap.public_choice["kind"] == "choose_dungeon":
        for label in snap.public_choice["labels"]:
            spec = snap.dungeons.get(label)
            if spec is not None:
                choice_maps.append(_map_for(spec, None))
    ctx["choice_maps"] = choice_maps
    ctx.setdefault("room_choice_map", None)
    ctx["prompt"] = prompt
    ctx["waiting"] = None
    if pending and prompt is None:
        deciding = by_name.get(pending["player"])
        who = deciding.player.display_name if deciding else pending["player"]
        ctx["waiting"] = {
            "player": pending["player"],
            "text": waiting_text(who, pending["kind"]),
            "kind": pending["kind"],
        }

    for item in view["stack"]:
        item.setdefault("dungeon", None)
    ctx["stack"] = view["stack"]
    ctx["pass_text"] = f"Pass (resolve {view['stack'][0]['name']})" if view["stack"] else "Pass"
    ctx["waiting_triggers"] = view["waiting_triggers"]
    log = view["log"]
    ctx["log"] = [log_item(line) for line in reversed(log[-LOG_LINES:])]
    ctx["log_total"] = len(log)
    ctx["over"] = None
    if game.status == Game.FINISHED or view["winner"]:
        winner = view["winner"]
        if winner == "draw":
            headline = "The game is a draw"
        elif winner in by_name:
            headline = f"{by_name[winner].player.display_name} wins"
        else:
            headline = "The game is over"
        rematch = Game.objects.filter(rematch_of=game).first()
        ctx["over"] = {
            "headline": headline,
            "reason": game.end_reason or view["end_reason"],  # a time loss: the game says why
            "you_won": my_seat is not None and winner == my_seat.engine_name,
            "you_lost": my_seat is not None and winner not in (None, "draw", my_seat.engine_name),
            "rematch": rematch,
        }
    return ctx


def _absence_and_wake_up(
    game: Game, seats: list[Seat], my_seat: Seat | None
) -> tuple[dict[str, Any] | None, float | None]:
    """The notice of a player who left (a countdown, then the claim for the one present), and
    in how many seconds this page must be redrawn by the server (a countdown ends, a clock
    reaches zero), or None."""
    if game.status != Game.ACTIVE:
        return None, None
    grace = settings.VENTURE_ABSENCE_GRACE_SECONDS
    wakes: list[float] = []
    absent = None
    for seat in seats:
        t = seat.timing
        if t.clock_running and t.clock_ms is not None:
            wakes.append(t.clock_ms / 1000 + 0.05)
        if t.absent_since is None or seat == my_seat:
            continue
        if t.absent_seconds < grace:
            wakes.append(grace - t.absent_seconds + 0.05)
            continue
        left = t.claimable_in or 0.0
        if left > 0:
            wakes.append(left + 0.05)
        absent = {
            "seat": seat,
            "ms": int(left * 1000),
            "text": clock_text(int(left * 1000)),
            "claimable": left <= 0 and my_seat is not None,
        }
    return absent, (min(wakes) if wakes else None)


# Each seat's freshest connection, read with the seats: presence and absence need nothing else
# (services.absences), so a render makes one query, not two.
_LATEST_SEEN = Subquery(
    Connection.objects.filter(seat=OuterRef("pk")).order_by("-last_seen").values("last_seen")[:1]
)


# Compiled once (game/runtime/prepared.py): this query runs for every page after every answer.
_BOARD_SEATS = PreparedQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("game", "player")
        .defer("deck", *(f"game__{name}" for name in Game.BULKY))
        .annotate(latest_seen=_LATEST_SEEN)
        .order_by("position")
    )
)


def load_board(game_id: int) -> tuple[Game, list[Seat] | None]:
    """The game and its seats (with their players, in order, and each seat's freshest
    connection) in one query instead of three, for a render: every page renders once per
    answer, so a query less per render counts. Neither the game's setup nor the seats' decks
    are read (JSON the board never shows). (No seat: the game alone, or Game.DoesNotExist;
    board_context then reads the seats itself.)"""
    seats = _BOARD_SEATS(game_id)
    if not seats:  # a game always has its host's seat; none: most likely no such game
        return Game.objects.get(pk=game_id), None
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one instance, as game.seats would give
    return game, seats


def render_board(
    game: Game,
    viewer: Player | None,
    *,
    whole: bool,
    csrf_token: str | None = None,
    base_url: str = "",
    seats: list[Seat] | None = None,
) -> Rendered:
    """The board for `viewer` alone (`Rendered`). `csrf_token` is the viewer's CSRF cookie, so
    plain-POST forms (rematch, cancel) in fragments work too."""
    ctx = with_forms(board_context(game, viewer, base_url=base_url, seats=seats), csrf_token)
    blocks = Blocks(ctx)
    if ctx["waiting_for_opponent"]:
        return Rendered(blocks.render("board"), {}, None, ctx["online"])
    fragments = {name: render_fragment(name, ctx, blocks) for name in FRAGMENTS}
    whole_board = blocks.render("board") if whole else None
    return Rendered(whole_board, fragments, ctx["wake_in"], ctx["online"])


def render_page_board(ctx: dict[str, Any], csrf_token: str) -> Markup:
    """The whole board inside the game page (templates/game/game.html embeds it)."""
    return Markup(Blocks(with_forms(ctx, csrf_token)).render("board"))  # noqa: S704 - autoescaped


def with_forms(ctx: dict[str, Any], csrf_token: str | None) -> dict[str, Any]:
    """`ctx` with what the board template needs besides the game: the forms' data (`f`) and
    the macros (`m`)."""
    ctx["f"] = FormData(ctx["urls"]["act"], ctx["version"], FreshActionId(), csrf_token or "")
    ctx["m"] = _macros()
    return ctx


def _template() -> Any:  # jinja2.Template (the environment caches it)
    return templating.board_environment().get_template("game/board.html")


def _macros() -> Any:  # the macros of game/_macros.html, as a module
    return templating.board_environment().get_template("game/_macros.html").module


class Blocks:
    """One viewer's context bound to the board template once, each block rendered from it
    (Jinja2 renders a block alone from a context: how the fragments are made)."""

    def __init__(self, ctx: dict[str, Any]) -> None:
        self.template = _template()
        self.context = self.template.new_context(ctx)

    def render(self, name: str) -> str:
        return "".join(self.template.blocks[name](self.context))


# Fragments that are a function of a few plain values are rendered once per distinct value and
# reused, for both players and every later version while the values stay the same: the dungeon
# maps (a fifth of a render, and they change only when someone ventures) and the game log (the
# same for both players). The key must hold everything the partial reads; tests/web/
# test_board_memo.py renders both ways through random games to keep it honest.
def _maps_key(ctx: dict[str, Any]) -> Any:
    return (
        ctx["game"].pk,
        ctx["game"].code,
        tuple(
            (
                side.name,
                side.display_name,
                json.dumps(side.view["dungeon"], sort_keys=True),
                json.dumps(side.view["completed"], sort_keys=True),
            )
            for side in ctx["sides_top_bottom"]
        ),
    )


def _log_key(ctx: dict[str, Any]) -> Any:
    return (ctx["log_total"], tuple(ctx["log"]))  # (each item's hash is computed once: cached)


MEMO_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {"maps": _maps_key, "log": _log_key}


class _Memo:
    """Rendered HTML by key, the least recently used entries dropped beyond `size`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[Any, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Any, render: Callable[[], str]) -> str:
        """`render()`, or what it gave last time for `key`."""
        with self.lock:
            html = self.entries.get(key)
            if html is not None:
                self.entries.move_to_end(key)
                return html
        html = render()
        with self.lock:
            self.entries[key] = html
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return html


# Whole fragments (a log is a few kB and a new one comes with every answer) and small pieces
# (a permanent or a card: well under a kB each, and many): each memo holds a few MB at most.
_FRAGMENTS_MEMO = _Memo(2048)
_PIECES_MEMO = _Memo(4096)


def _digest(data: Any) -> bytes:
    """A short key for plain data (dicts, lists, strings, numbers, booleans, None): 128 bits of
    BLAKE2 over its repr (the text itself as the key would be kept with every entry). Equal
    reprs are equal data; equal data with keys in another order only misses the memo once.
    (The repr is 2-3x cheaper than canonical JSON, and a render takes a key per permanent.)"""
    return hashlib.blake2b(repr(data).encode(), digest_size=16).digest()


def render_fragment(name: str, ctx: dict[str, Any], blocks: Blocks | None = None) -> str:
    """One block of game/board.html for the context of one viewer (`with_forms` applied)."""
    blocks = blocks or Blocks(ctx)
    key_of = MEMO_KEYS.get(name)
    if key_of is None:
        return blocks.render(name)
    return _FRAGMENTS_MEMO.get((name, key_of(ctx)), lambda: blocks.render(name))


def read_only_map(dungeon_map: DungeonMap) -> str:
    """A dungeon's map without any buttons (the admin's preview of a dungeon card)."""
    return str(_macros().dungeon_map(dungeon_map, None))


def _piece(macro: str, item: dict[str, Any], key: str | bytes) -> Markup:
    """A piece of a fragment (a permanent, a card in hand) that reads only `item` and is
    determined by `key`: rendered once per distinct key, for every viewer and version. Only
    pieces without the viewer's buttons come here (those carry the version and a fresh action
    id). tests/web/test_board_memo.py compares with fresh renders through random games."""
    html = _PIECES_MEMO.get((macro, key), lambda: str(getattr(_macros(), macro)(item, None)))
    return Markup(html)  # noqa: S704 - the macro's own autoescaped output


class Rendered(NamedTuple):
    """One viewer's board: the whole of it (when asked for, or while the game waits for its
    second player), each live partial by name, when the server must redraw it (seconds), and
    the seats it shows as connected (a heartbeat redraws it when that changed)."""

    board: str | None
    fragments: dict[str, str]
    wake_in: float | None
    online: frozenset[int]
