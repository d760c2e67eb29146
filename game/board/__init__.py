"""The game page for one viewer (docs/architecture.md, "The board").

- `viewmodel.py`: what a board shows, as frozen dataclasses (`BoardView` and its parts);
- `build.py`: the view-model from the engine's `view_for(seat)` and the game's rows, assembled
  from `seats.py` (a seat, the turn strip), `sides.py` (a player's half of the table),
  `prompt.py` (the viewer's decision) and `snapshot.py` (what is read under the engine's lock);
- `query.py`: the board's database reads (`load_board`: game, seats and presence in one query);
- `memos.py`: every cache of the board and what keys it (card info, maps, log lines, rendered
  HTML);
- `batching.py`: a page's board as a socket asks for it (the spectators' together, one render);
- `render.py`: the Jinja2 rendering, the fragments sent over the websocket and the page's board;
- `text.py`: the board's words (step names, waiting texts, clock faces);
- `replay.py`, `lifechart.py`: the replay page of a game (one point for one viewer, the
  controls, the summary of a finished game with its life chart);
- `ratingchart.py`: a profile's rating history as a chart drawn on the server, as the life
  chart is.
- `chat.py`: the chat at the table for one viewer (its panel's parts, a new line) and a replay
  point's chat, from services/chat.py's data.

Callers use the names below (`board.render_board`, `board.load_board`, ...).
"""

from __future__ import annotations

from . import chat
from .build import board_view
from .query import load_board
from .ratingchart import RatingChart, rating_chart
from .render import (
    FRAGMENTS,
    MEMO_KEYS,
    Blocks,
    FormData,
    Rendered,
    board_context,
    macros,
    piece,
    render_board,
    render_fragment,
    render_page_board,
    with_forms,
)
from .replay import render_point, render_replay, replay_url, replay_view, summary_view

__all__ = [
    "chat",
    "FRAGMENTS",
    "MEMO_KEYS",
    "Blocks",
    "FormData",
    "RatingChart",
    "Rendered",
    "board_context",
    "board_view",
    "load_board",
    "macros",
    "piece",
    "rating_chart",
    "render_board",
    "render_fragment",
    "render_page_board",
    "render_point",
    "render_replay",
    "replay_url",
    "replay_view",
    "summary_view",
    "with_forms",
]
