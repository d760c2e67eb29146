"""The replay page for one viewer: the table at one point of a game (services/replays.py gives
the point's view, already cut to what this viewer may see), the controls to move through it,
the summary of a finished game and what "play on from here" offers. Rendered from
templates/jinja2/game/replay.html with the board's macros (game/_macros.html), read-only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from markupsafe import Markup

from dungeons.mapdraw import map_macro
from game import services
from game.engine.kinds import PRIORITY
from game.models import Game, Player
from game.runtime import templating

from . import memos, query
from .build import stack_item
from .chat import render_replay_chat
from .lifechart import LifeChart, life_chart
from .render import macros, piece
from .seats import seat_view, turn_view
from .sides import side
from .snapshot import Snapshot
from .text import STEP_LABELS, headings_first
from .viewmodel import LogLine, Side, StackItem, Turn, WaitingTrigger

LOG_LINES = 60  # the log panel shows the last lines up to the point


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    at: int
    url: str
    current: bool = False
    key: str = ""  # the turn's number, the step's name


@dataclass(frozen=True, slots=True)
class ReplayLine:
    number: int
    line: LogLine
    new: bool  # written by the answer that reached this point


@dataclass(frozen=True)
class ReplayView:
    game: Game
    title: str
    url: str  # the replay's URL without a point
    at: int
    last: int
    url_at: str  # this point's URL
    first_url: str
    prev_url: str
    next_url: str
    last_url: str
    prev_event_url: str
    next_event_url: str
    turn: Turn
    perspective: str  # "You see what alice saw then.", …
    revealed: bool
    running: bool
    top: Side
    bottom: Side
    stack: tuple[StackItem, ...]
    waiting_triggers: tuple[WaitingTrigger, ...]
    event: str  # what the answer that reached this point did
    deciding: str  # who decides at this point, and what
    log: tuple[ReplayLine, ...]
    log_total: int
    turns: tuple[Link, ...]
    steps: tuple[Link, ...]  # the steps of this point's turn
    over: str | None  # the result, at the last point of a finished game
    play_on: services.PlayOn
    sides: tuple[str, str]  # the players of a game played on from here, in seat order
    my_side: int  # the side offered first: the viewer's own, if they played
    levels: tuple[tuple[str, str], ...]  # the computer's levels (value, label)
    play_on_url: str
    scenario_url: str | None  # the scenario file of this point (or of the nearest one)
    nearest_url: str | None
    nearest_label: str | None
    chat: Markup  # the players' room to this point, for the game's two players only
    # Staff only: make a puzzle draft from this point (learn app, services/puzzle_drafts.py).
    draft_url: str | None = None


def replay_url(game: Game, at: int | None = None) -> str:
    base = reverse("replay", args=[game.code])
    return base if at is None else f"{base}?at={at}"


def replay_view(game: Game, viewer: Player | None, tl: services.Timeline, at: int) -> ReplayView:
    seats = query.seats_of(game)
    names = {s.engine_name: s.player.display_name for s in seats}
    with tl.lock:
        view = tl.view(at)
    frame = tl.frames[at]
    base = replay_url(game)

    def url(k: int) -> str:  # (a page has a link per turn: reversed once, not per link)
        return f"{base}?at={k}"

    visible = {name for name, pv in view["players"].items() if pv["hand"] is not None}
    # `is_viewer` draws a hand as cards rather than backs: every hand this viewer may see.
    seat_views = tuple(seat_view(s, is_viewer=s.engine_name in visible) for s in seats)
    mine = next((s for s in seats if viewer is not None and s.player_id == viewer.pk), None)
    bottom_seat = next((v for v in seat_views if mine and v.pk == mine.pk), seat_views[0])
    top_seat = next(v for v in seat_views if v.pk != bottom_seat.pk)
    snap = Snapshot(view, None, None, dict(tl.engine.state.dungeons), [], "", names)
    pending = view["pending"]
    holder = pending["player"] if pending and pending["kind"] == PRIORITY else None
    top, bottom = (side(game, s, snap, {}, holder) for s in (top_seat, bottom_seat))
    start, stop = tl.new_lines(at)
    lines = tl.log(at)
    first = max(0, len(lines) - LOG_LINES)
    log = headings_first(
        [
            ReplayLine(n + 1, memos.log_line(lines[n], tuple(tl.players)), start <= n < stop)
            for n in range(len(lines) - 1, first - 1, -1)
        ],
        lambda r: r.line.heading,
    )
    offer = services.play_on_offer(tl, at)
    nearest = offer.nearest if not offer.allowed else None
    return ReplayView(
        game=game,
        title=" vs ".join(names[n] for n in tl.players) + " · replay · Venture",
        url=replay_url(game),
        at=at,
        last=tl.last,
        url_at=url(at),
        first_url=url(0),
        prev_url=url(max(0, at - 1)),
        next_url=url(min(tl.last, at + 1)),
        last_url=url(tl.last),
        prev_event_url=url(tl.previous_event(at)),
        next_event_url=url(tl.next_event(at)),
        turn=turn_view(view["turn"], view["pending"], None),
        perspective=_perspective(tl, names),
        revealed=tl.reveal,
        running=game.status != Game.FINISHED,
        top=top,
        bottom=bottom,
        stack=tuple(stack_item(item) for item in view["stack"]),
        waiting_triggers=tuple(WaitingTrigger(**t) for t in view["waiting_triggers"]),
        event=_event(tl, at, names),
        deciding=_deciding(pending, names),
        log=log,
        log_total=len(lines),
        turns=tuple(
            Link(f"Turn {t} · {names.get(a, a)}", k, url(k), t == frame.turn, str(t))
            for t, k, a in tl.turn_starts()
        ),
        steps=tuple(
            Link(STEP_LABELS.get(step, step), k, url(k), step == frame.step, step)
            for t, step, k in tl.step_starts()
            if t == frame.turn
        ),
        over=_over(view, names) if at == tl.last else None,
        play_on=offer,
        sides=(names.get(tl.players[0], tl.players[0]), names.get(tl.players[1], tl.players[1])),
        my_side=tl.players.index(mine.engine_name) if mine else 0,
        levels=tuple(Player.COMPUTER_LEVELS),
        play_on_url=reverse("replay_play_on", args=[game.code]),
        scenario_url=(
            reverse("replay_scenario", args=[game.code]) + f"?at={at}" if offer.allowed else None
        ),
        nearest_url=url(nearest) if nearest is not None else None,
        nearest_label=_point_label(tl, nearest, names) if nearest is not None else None,
        chat=render_replay_chat(services.chat.replay_lines(game, viewer, at)),
        draft_url=(
            reverse("puzzle_draft", args=[game.code])
            if offer.allowed and viewer is not None and viewer.user.is_staff
            else None
        ),
    )


def _perspective(tl: services.Timeline, names: dict[str, str]) -> str:
    if tl.reveal:
        return "The game is over: both hands are shown."
    if tl.seat is not None:
        return f"The game is still running: you see what {names.get(tl.seat, tl.seat)} saw then."
    return "The game is still running: you see what a spectator saw then (no hands)."


def _event(tl: services.Timeline, at: int, names: dict[str, str]) -> str:
    if at == 0:
        return "The start of the game."
    a = tl.answers[at - 1]
    who = names.get(a.player, a.player)
    kind = a.kind.replace("_", " ")
    if a.label is None:
        return f"{who} made a choice ({kind}); what it did is in the log."
    return f"{who}: {a.label}" + ("" if a.kind in (PRIORITY, "concede") else f" ({kind})")


def _deciding(pending: dict[str, Any] | None, names: dict[str, str]) -> str:
    if not pending:
        return "The game is over."
    who = names.get(pending["player"], pending["player"])
    if pending.get("prompt"):
        return f"{who} decides: {pending['prompt']}"
    return f"{who} decides ({pending['kind'].replace('_', ' ')})."


def _over(view: dict[str, Any], names: dict[str, str]) -> str | None:
    winner = view["winner"]
    if not winner:
        return None
    head = "A draw" if winner == "draw" else f"{names.get(winner, winner)} wins"
    return f"{head}{': ' + view['end_reason'] if view['end_reason'] else ''}."


def _point_label(tl: services.Timeline, at: int, names: dict[str, str]) -> str:
    f = tl.frames[at]
    step = STEP_LABELS.get(f.step, f.step).lower()
    return f"turn {f.turn}, {names.get(f.active, f.active)}’s {step} (answer {at})"


# the summary -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SummaryView:
    summary: services.Summary
    names: dict[str, str]
    chart: LifeChart
    players: tuple[tuple[int, str], ...]  # (index, display name)


def summary_view(game: Game, tl: services.Timeline, at: int | None = None) -> SummaryView | None:
    """The summary of a finished game (None while it runs)."""
    if not tl.reveal:
        return None
    s = services.summary(tl)
    names = {seat.engine_name: seat.player.display_name for seat in query.seats_of(game)}
    turn = tl.frames[at].turn if at is not None else None
    chart = life_chart(s.players, names, s.turns, s.life, turn)
    return SummaryView(
        s, names, chart, tuple((i, names.get(p, p)) for i, p in enumerate(s.players))
    )


# rendering -------------------------------------------------------------------------------------
def _template() -> Any:
    return templating.board_environment().get_template("game/replay.html")


def _context(rv: ReplayView, sv: SummaryView | None, csrf_token: str) -> dict[str, Any]:
    return {
        "r": rv,
        "s": sv,
        "m": macros(),
        "draw_map": map_macro(),
        "piece": piece,
        "csrf_token": csrf_token,
    }


def render_replay(rv: ReplayView, sv: SummaryView | None, csrf_token: str) -> Markup:
    """The whole replay (table, controls, summary) for the page."""
    t = _template()
    ctx = t.new_context(_context(rv, sv, csrf_token))
    return Markup("".join(t.blocks["page"](ctx)))


def render_point(rv: ReplayView, csrf_token: str) -> str:
    """The part of the page that changes from point to point (what a step swaps in)."""
    t = _template()
    ctx = t.new_context(_context(rv, None, csrf_token))
    return "".join(t.blocks["point"](ctx))
