"""The view-model of one viewer's board (viewmodel.BoardView): the page assembled from the
engine's `view_for(seat)` (hidden information already removed), the viewer's own decision and
the game's rows. Its parts are made in `seats.py` (who sits where, the turn strip), `sides.py`
(each player's half of the table), `prompt.py` (the viewer's decision) and `snapshot.py` (what
is read under the engine's lock); here are the rest: the maps of a choice, the stack, the log,
what the viewer waits for, the end of the game, a player's absence and the takebacks (what the
viewer may ask, a request pending: services.takeback_view; while one is, the viewer's decision
is not offered).

Everything a viewer sees comes from that view plus, for the viewer's own pending decision only,
the decision's options. The one exception is deliberate: the options of the other seat's dungeon
and room choices are shown, because which dungeons and rooms can be entered is public (they are
outside the game or on an open map); every other pending decision of the other seat is only
named.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django.conf import settings

from dungeons.maplayout import DungeonMap, layout
from game import services
from game.engine.kinds import KINDS, PRIORITY
from game.engine.targets import with_share
from game.models import Game, Player, Seat

from . import memos, query, sides, snapshot, whose
from .prompt import obj_actions
from .seats import seat_view, turn_view
from .snapshot import Snapshot
from .text import clock_text, waiting_text
from .viewmodel import (
    Absence,
    AnswerTime,
    BoardView,
    Over,
    SeatView,
    StackItem,
    Waiting,
    WaitingTrigger,
)

if TYPE_CHECKING:
    from game.engine.game import Engine

# The log is sent in two fragments: the older lines in chunks of LOG_CHUNK, a fragment that
# changes once every LOG_CHUNK lines, and the newest (at least LOG_RECENT, fewer than
# LOG_RECENT + LOG_CHUNK), the one that changes with every answer. So the whole log can be read
# while an answer sends a few kB of it.
LOG_CHUNK = 100
LOG_RECENT = 20


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
    seat_views = tuple(
        seat_view(s, is_viewer=s.pk == mine, connected=s.pk in online, timing=timing[s.pk])
        for s in seats
    )
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
        snap = snapshot.read(engine, my_seat, names)
        takeback, note = _takeback(game, seats, mine, engine)
    if takeback is not None and (takeback.mine or takeback.theirs):
        # The game waits for the request's reply: the viewer's decision is not offered
        # meanwhile (services refuse its answers), the request is.
        snap = replace(snap, prompt=None)
    started = _started(game, base, seat_views, my_seat, snap)
    return replace(started, takeback=takeback, takeback_note=note)


def _takeback(
    game: Game, seats: list[Seat], mine: int | None, engine: Engine
) -> tuple[services.TakebackView | None, str]:
    """The seated viewer's takebacks (services.takeback_view), or for a spectator a note of a
    pending request, in the public words both players read."""
    if mine is not None:
        seat = next(s for s in seats if s.pk == mine)
        return services.takeback_view(game, seats, seat, engine), ""
    asking = next((s for s in seats if s.takeback_to is not None), None)
    if asking is None or game.status != Game.ACTIVE:
        return None, ""
    other = next(s for s in seats if s.pk != asking.pk)
    what = services.takeback_words(engine, asking.takeback_to)
    who, them = asking.player.display_name, other.player.display_name
    return None, f"{who} asks to take back an answer ({what}); {them} is to reply."


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
    holder = pending["player"] if pending and pending.get("kind") == PRIORITY else None
    # The viewer sits at the bottom; a spectator sees the host at the bottom.
    bottom = my_seat or seats[0]
    top = next(s for s in seats if s.pk != bottom.pk)
    actions = obj_actions(snap.prompt)
    top_side, bottom_side = (sides.side(game, s, snap, actions, holder) for s in (top, bottom))
    training = services.training_view(game, base["viewer"])  # a lesson or a puzzle
    absent, wake_in = _absence_and_wake_up(game, seats)
    answer_time, answer_wake = _answer_time(game, seats)
    if answer_wake is not None:
        wake_in = answer_wake if wake_in is None else min(wake_in, answer_wake)
    stack = tuple(stack_item(item) for item in view["stack"])
    # Whose each target is, in the viewer's words ("targeting your Goblin"); a spectator reads
    # the names the engine wrote.
    me = my_seat.engine_name if my_seat else ""
    log = [whose.log_line_for(line, me) for line in view["log"]]
    split = max(0, len(log) - LOG_RECENT) // LOG_CHUNK * LOG_CHUNK
    lines = tuple(reversed(log[split:]))
    older = tuple(reversed(log[:split]))
    players = tuple(snap.player_names)
    return BoardView(
        **base,
        waiting_for_opponent=False,
        title=(training.title if training else " vs ".join(s.display_name for s in seats))
        + " · Venture",
        version=view["version"],
        wake_in=wake_in,
        absent=absent,
        answer_time=answer_time,
        turn=turn_view(view["turn"], pending, my_seat),
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
        log=memos.numbered(lines, len(log), players),
        log_lines=lines,
        log_total=len(log),
        log_archive=memos.log_lines(older, players),
        log_archive_lines=older,
        log_players=players,
        over=_over(game, view, seats, my_seat),
        training=training,
    )


# maps, stack, the end --------------------------------------------------------------------------
def _choice_maps(snap: Snapshot) -> tuple[DungeonMap, ...]:
    """The choice of a dungeon: every option's full map, side by side (buttons for the viewer
    who chooses; read-only for the other seat, whose choice is public)."""
    prompt = snap.prompt
    if prompt is not None and prompt.layout == "dungeons":
        return tuple(
            layout(snap.dungeons[o.label], card_option=o.id)
            for o in prompt.options
            if o.label in snap.dungeons
        )
    if snap.public_choice and KINDS[snap.public_choice[0]].layout == "dungeons":
        return tuple(
            layout(snap.dungeons[label])
            for label in snap.public_choice[1]
            if label in snap.dungeons
        )
    return ()


def _room_choice_map(snap: Snapshot, my_seat: SeatView | None) -> DungeonMap | None:
    """The viewer's fork: chosen on the map itself, drawn full size in the prompt."""
    prompt = snap.prompt
    if prompt is None or prompt.layout != "rooms" or my_seat is None:
        return None
    dungeon = snap.view["players"][my_seat.engine_name]["dungeon"]
    spec = snap.dungeons.get(dungeon["name"]) if dungeon else None
    if spec is None:
        return None
    options = {o.label: o.id for o in prompt.options}
    return layout(spec, current=dungeon["room"], room_options=options)


def stack_item(item: dict[str, Any]) -> StackItem:
    return StackItem(
        id=item["id"],
        name=item["name"],
        kind=item["kind"],
        controller=item["controller"],
        label=item["label"],
        text=item["text"],
        targets=tuple(
            with_share(t, n)
            for t, n in zip(
                item["targets"], item.get("division") or [None] * len(item["targets"]), strict=True
            )
        ),
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


def _answer_time(game: Game, seats: tuple[SeatView, ...]) -> tuple[AnswerTime | None, float | None]:
    """A correspondence game's notice of the deciding seat's time to answer, and when its words
    next change (by the hour, by the minute in the last day, then the claim once it is out)."""
    seat = next((s for s in seats if s.timing.answer_in is not None), None)
    if seat is None or game.status != Game.ACTIVE:
        return None, None
    left = seat.timing.answer_in or 0.0
    out = left <= 0
    viewer_seated = any(s.is_viewer for s in seats)
    notice = AnswerTime(
        seat,
        services.correspondence.days_text(left),
        game.days_per_move,
        out,
        out and viewer_seated and not seat.is_viewer,
    )
    if out:
        return notice, None
    step = 3600 if left >= 86400 else 60
    return notice, (left % step or step) + 0.05
