"""The use-cases of a game, one module per concern (laid out like Zulip's `zerver/actions/`).

Callers import this package and use what it re-exports (`services.submit_answer(...)`); the
modules behind it:

- `acting`, `answers`, `actions`: what a seated player does. `acting`: the frame every action
  runs in (one transaction, the checks every action shares) and the time loss; `answers`: an
  answer, or a scry placed in one prompt; `actions`: concede, claim, pace and stops, a rematch
  offer, and `perform` for a parsed form or socket message;
- `lifecycle`: checking a scenario, creating, joining (starting), cancelling, the rematch
  (offered, then accepted);
- `practice`: a dungeon designer's practice game ("Try it"), about to venture into the dungeon;
- `computer`: the computer opponent's players, games against it, its pending decisions, and
  answering for it through `answers.submit_answer`; `computer_queue`: which waiting decision a
  worker takes next (round-robin between the people the computer plays);
- `engines`: the per-process engine cache, replay and catch-up from the log;
- `store`: an action's SQL, the lock that starts it and the writes that end it;
- `clock`: the chess clock as a value, with the time passed in;
- `pace`: the automatic answers of a seat that chose not to be asked, and its stops;
- `presence`: connections, who is online, absences, what a page shows of each seat's time;
- `broadcast`: telling a game's pages "version N" after commit;
- `players`, `errors`: who is asking, and `ActionRefused`;
- `seeks`, `time_controls`: quick pairing (Play now: a seek waits until a matching one comes,
  atomically with any number of servers) and a time control as one value;
- `ratings`: Glicko-2 ratings (who may play rated, the update when a rated game ends, the
  profile's history and results, the leaderboard);
- `takeback`: asking to take back one's last answer, the opponent's reply, withdrawing, and
  what a page shows of it;
- `replays`, `replay_summary`: a game's replay for one viewer (snapshots, stepping, playing on
  from a point) and the summary of a finished game;
- `training`, `training_state`, `training_view`: lessons and puzzles played at the table (a
  training game: starting it, the hook in `store.commit` that ends it, what the table shows);
  `puzzle_ratings`, `glicko`: the puzzles' Glicko-2 ratings; `puzzle_drafts`: a puzzle draft
  from a point of a replay, and the check before one is published.
- `chat`: the chat at the table (its two rooms, who reads and writes what, muting, free text,
  reports), used as `services.chat.…`; `rate_limits`: how often a player or an address may
  do something (`rate_limits.allow`).
- `correspondence`, `turn_mail`: games of days per move (the deadline, the "Your turn" list,
  the days as words) and the mail that tells a player it is their turn, used as
  `services.correspondence.…` and `services.turn_mail.…`.

Dependencies run one way: views and consumers call this package, which calls the models, the
engine and game/runtime, never the other way round.
"""

from . import chat, correspondence, rate_limits, turn_mail
from .acting import check_time
from .actions import claim_win, concede, perform, set_pace, set_stop
from .answers import submit_answer, submit_scry
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
from .computer_queue import take_turn
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
from .puzzle_drafts import Verdict, check_text, draft_from_replay
from .puzzle_list import PuzzleRow, daily_puzzle, next_puzzle, puzzle_rows, running_game_code
from .puzzle_ratings import rating_of
from .ratings import (
    ACTIVE_DAYS,
    PROVISIONAL_RD,
    OpponentResults,
    history,
    is_provisional,
    leaderboard,
    may_play_rated,
    results_by_opponent,
    shown,
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
from .seeks import (
    LIST_POLL_SECONDS,
    SEEK_POLL_SECONDS,
    arrived,
    cancel_seek,
    check_seek,
    is_correspondence,
    open_seeks,
    play_now,
    rating_window,
)
from .takeback import (
    TakebackView,
    ask_takeback,
    reply_takeback,
    takeback_view,
    takeback_words,
    withdraw_takeback,
)
from .time_controls import DAYS_PER_MOVE, MAX_INCREMENT, MAX_MINUTES, PRESETS, TimeControl
from .training import give_up, lesson_list, start_lesson, start_puzzle, try_again
from .training_view import TrainingView, training_view

__all__ = [
    "ACTIVE_DAYS",
    "PROVISIONAL_RD",
    "LIST_POLL_SECONDS",
    "MAX_INCREMENT",
    "MAX_MINUTES",
    "OpponentResults",
    "PRESETS",
    "DAYS_PER_MOVE",
    "SEEK_POLL_SECONDS",
    "TimeControl",
    "arrived",
    "cancel_seek",
    "check_seek",
    "history",
    "is_provisional",
    "leaderboard",
    "may_play_rated",
    "is_correspondence",
    "open_seeks",
    "play_now",
    "rating_window",
    "results_by_opponent",
    "shown",
    "chat",
    "correspondence",
    "rate_limits",
    "turn_mail",
    "LEVEL_NAMES",
    "Turn",
    "answer_for_computer",
    "computer_player",
    "computer_turn",
    "create_computer_game",
    "overdue_turns",
    "pending_turns",
    "set_computer_runner",
    "take_turn",
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
    "TakebackView",
    "ask_takeback",
    "reply_takeback",
    "takeback_view",
    "takeback_words",
    "withdraw_takeback",
    "TrainingView",
    "Verdict",
    "check_text",
    "draft_from_replay",
    "PuzzleRow",
    "daily_puzzle",
    "puzzle_rows",
    "rating_of",
    "running_game_code",
    "give_up",
    "lesson_list",
    "next_puzzle",
    "start_lesson",
    "start_puzzle",
    "training_view",
    "try_again",
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
    "submit_scry",
    "timings",
    "unique_engine_names",
    "viewer_alive",
    "viewer_connected",
    "viewer_disconnected",
    "viewers_alive",
]
