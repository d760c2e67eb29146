"""The use-cases of a game, one module per concern (laid out like Zulip's `zerver/actions/`).

Callers import this package and use what it re-exports (`services.submit_answer(...)`); the
modules behind it:

- `actions`: what a seated player does (answer, concede, claim, pace and stops, a rematch
  offer), the checks every action shares, the time loss, and `perform` for a parsed form or
  socket message;
- `lifecycle`: checking a scenario, creating, joining (starting), cancelling, the rematch
  (offered, then accepted);
- `practice`: a dungeon designer's practice game ("Try it"), about to venture into the dungeon;
- `computer`: the computer opponent's players, games against it, its pending decisions, and
  answering for it through `actions.submit_answer`;
- `engines`: the per-process engine cache, replay and catch-up from the log;
- `store`: an action's SQL, the lock that starts it and the writes that end it;
- `clock`: the chess clock as a value, with the time passed in;
- `pace`: the automatic answers of a seat that chose not to be asked, and its stops;
- `presence`: connections, who is online, absences, what a page shows of each seat's time;
- `broadcast`: telling a game's pages "version N" after commit;
- `players`, `errors`: who is asking, and `ActionRefused`;
- `replays`, `replay_summary`: a game's replay for one viewer (snapshots, stepping, playing on
  from a point) and the summary of a finished game;
- `chat`: the chat at the table (its two rooms, who reads and writes what, muting, free text,
  reports), used as `services.chat.…`; `rate_limits`: how often a player or an address may
  do something (`rate_limits.allow`).

Dependencies run one way: views and consumers call this package, which calls the models, the
engine and game/runtime, never the other way round.
"""

from . import chat, rate_limits
from .actions import (
    check_time,
    claim_win,
    concede,
    perform,
    set_pace,
    set_stop,
    submit_answer,
)
from .broadcast import notify_game_changed, set_computer_runner
from .computer import (
    LEVEL_NAMES,
    Turn,
    answer_for_computer,
    computer_player,
    computer_turn,
    create_computer_game,
    overdue_turns,
    pending_turns,
)
from .engines import clear_engine_cache, engine_setup, offer_answers, reading, replay_game
from .errors import ActionRefused
from .lifecycle import (
    ScenarioStart,
    cancel_game,
    check_scenario,
    create_game,
    decline_rematch,
    dungeon_dicts_in_play,
    join_game,
    rematch,
    unique_engine_names,
)
from .pace import pass_destination, stops_of
from .players import GameRef, find_game, player_for_user, seat_of
from .practice import start_practice
from .presence import (
    SeatTiming,
    absences,
    online_seat_ids,
    timings,
    viewer_alive,
    viewer_connected,
    viewer_disconnected,
    viewers_alive,
)
from .replay_summary import Summary, summary
from .replays import (
    PlayOn,
    Timeline,
    clear_timelines,
    play_on,
    play_on_offer,
    point,
    scenario_at,
    timeline,
)

__all__ = [
    "chat",
    "rate_limits",
    "LEVEL_NAMES",
    "Turn",
    "answer_for_computer",
    "computer_player",
    "computer_turn",
    "create_computer_game",
    "overdue_turns",
    "pending_turns",
    "set_computer_runner",
    "ActionRefused",
    "PlayOn",
    "Summary",
    "Timeline",
    "clear_timelines",
    "play_on",
    "play_on_offer",
    "point",
    "scenario_at",
    "summary",
    "timeline",
    "ScenarioStart",
    "SeatTiming",
    "absences",
    "cancel_game",
    "check_scenario",
    "check_time",
    "claim_win",
    "clear_engine_cache",
    "concede",
    "create_game",
    "decline_rematch",
    "dungeon_dicts_in_play",
    "engine_setup",
    "join_game",
    "notify_game_changed",
    "offer_answers",
    "online_seat_ids",
    "pass_destination",
    "perform",
    "find_game",
    "GameRef",
    "player_for_user",
    "reading",
    "rematch",
    "replay_game",
    "seat_of",
    "set_pace",
    "set_stop",
    "stops_of",
    "start_practice",
    "submit_answer",
    "timings",
    "unique_engine_names",
    "viewer_alive",
    "viewer_connected",
    "viewer_disconnected",
    "viewers_alive",
]
