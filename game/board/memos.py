"""Every cache of the board, in one place: what is the same for every viewer and version is made
once per distinct content and reused. Each memo says what its key holds and why that is enough:
that is the board's knowledge; the memos themselves are game/runtime/lru.py's `LRU` (and
`functools` caches where a lookup is made for each line of every render, a C cache's cost).

Rendered HTML (`FRAGMENTS`, `PIECES`) is filled by render.py, which knows the templates; the
rest is view-model values, which are frozen, so sharing them between renders is safe.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from django.urls import reverse

from dungeons.maplayout import DungeonMap, layout
from game.engine.carddef import CardDef
from game.engine.cards import CARDS, TOKENS
from game.engine.headings import is_heading
from game.engine.stops import STOP_STEPS
from game.runtime.lru import LRU

from .text import STEP_LABELS, STEP_ORDER, headings_first, mana_symbols, split_citation
from .viewmodel import CardInfo, GameUrls, LogLine, Permanent, Step

if TYPE_CHECKING:
    from game.engine.dungeon import DungeonSpec
    from game.models import Game

# Cards by name, tokens by kind (two kinds of token may share a name: `tokens.token_kind`).
_BY_NAME: dict[str, CardDef] = {**TOKENS, **{c.name: c for c in CARDS.values()}}


@functools.cache  # card definitions don't change while the server runs
def card_info(name: str) -> CardInfo:
    card = _BY_NAME.get(name)
    if card is None:
        return CardInfo(name, (), "", "", None, None, "colorless", frozenset())
    colors = "".join(sorted(card.colors)) or ("land" if "Land" in card.types else "colorless")
    return CardInfo(
        name=card.name,
        cost=mana_symbols(card.cost.text if card.cost else ""),
        type_line=card.type_line,
        text=card.text,
        power=card.power,
        toughness=card.toughness,
        colors=colors if len(colors) <= 1 or colors in ("land", "colorless") else "multi",
        printed_keywords=frozenset(card.keywords),
    )


@functools.lru_cache(maxsize=256)
def log_lines(lines: tuple[str, ...], players: tuple[str, ...]) -> tuple[tuple[int, LogLine], ...]:
    """The log's older lines (`numbered`), split once per distinct set (they change every
    hundred lines, and a long game has thousands: one lookup per render instead of one per
    line)."""
    return numbered(lines, len(lines), players)


def numbered(
    lines: tuple[str, ...], newest: int, players: tuple[str, ...]
) -> tuple[tuple[int, LogLine], ...]:
    """Newest-first log lines of a game between `players` (engine names), each with its number
    in the log (the first's is `newest`), each heading moved up above the lines of its phase
    (text.headings_first)."""
    items = [(newest - i, log_line(line, players)) for i, line in enumerate(lines)]
    return headings_first(items, lambda item: item[1].heading)


@functools.lru_cache(maxsize=8192)
def log_line(line: str, players: tuple[str, ...]) -> LogLine:
    """A line of the game log between `players`, its rule citation apart: split once per
    distinct line (a new answer adds a line or a few, and the panel shows the last 80)."""
    return LogLine(*split_citation(line), heading=is_heading(line, players))


@functools.lru_cache(maxsize=4096)  # a step of the turn and a set of stops: few distinct
def turn_steps(
    current: str, side: str = "", stops: frozenset[str] | None = None
) -> tuple[Step, ...]:
    """The steps of the turn; with `stops` (the viewer's stop keys, engine/stops.py) and `side`
    ("mine" or "theirs": whose turn it is for the viewer), each step where priority is given
    is a stop the viewer can turn on or off for that side."""
    if stops is None:
        return tuple(Step(s, STEP_LABELS[s], s == current) for s in STEP_ORDER)
    whose = "your turn" if side == "mine" else "the opponent's turn"
    steps = []
    for s in STEP_ORDER:
        on = f"{side}:{s}" in stops
        steps.append(
            Step(
                s,
                STEP_LABELS[s],
                s == current,
                settable=s in STOP_STEPS,
                stop=on,
                stop_title=(
                    f"you stop here on {whose}; click to pass through it"
                    if on
                    else f"click to stop here on {whose}"
                )
                if s in STOP_STEPS
                else "",
            )
        )
    return tuple(steps)


@functools.lru_cache(maxsize=4096)
def game_urls(code: str) -> GameUrls:
    def url(route: str) -> str:
        return reverse(route, args=[code])

    return GameUrls(
        act=url("game_act"),
        game=url("game"),
        watch=url("watch_game"),
        cancel=url("cancel_game"),
        rematch=url("rematch"),
        scenario_file=url("scenario_file"),
        lobby=reverse("lobby"),
        replay=url("replay"),
    )


# The read-only map of a player's dungeon, laid out once per game, dungeon and room: a game's
# dungeon specs never change once it has started, and nothing mutates a map. (Keyed by code
# too: a primary key alone may come back after a delete.)
MAPS: LRU[tuple[int, str, str, str | None], DungeonMap] = LRU(1024)


def side_map(game: Game, spec: DungeonSpec, room: str | None) -> DungeonMap:
    return MAPS.get_or_make(
        (game.pk, game.code, spec.name, room), lambda: layout(spec, current=room)
    )


# A permanent without the viewer's buttons, by the digest of the engine's view of it (sides.py):
# what it shows depends on that view alone (and the card pool), and its HTML is memoised by the
# same key (PIECES).
PERMANENTS: LRU[bytes, Permanent] = LRU(4096)

# Rendered HTML. Whole fragments that are a function of a few plain values (render.MEMO_KEYS:
# the dungeon maps, a fifth of a render that changes only when someone ventures, and the log,
# the same for both players), and small pieces (a permanent or a card without the viewer's
# buttons: under a kB each, and many). A log is a few kB and a new one comes with every answer:
# each memo holds a few MB at most. tests/web/test_board_memo.py holds the keys honest.
FRAGMENTS: LRU[tuple[str, object], str] = LRU(2048)
PIECES: LRU[tuple[str, bytes | str], str] = LRU(4096)

# A new chat line as a page receives it (board/chat.py), by its game's code, the line itself
# (its id, room, kind, words and author: a stored message never changes) and what the viewer is
# to it (a visitor, its author, another reader): the spectator sockets of a process share a few
# renders.
CHAT_LINES: LRU[tuple[str, object, str], str] = LRU(512)
