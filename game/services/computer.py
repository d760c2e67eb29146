"""The computer opponent's use-cases: its players, starting a game against it, what it has to
decide, and answering for it through the same checks as a person's answer.

The computer is a `Player` per level (`computer_level`), seated like a person; a game against it
is an ordinary game (stored, logged, replayed, rematched). Its answers go through
`answers.submit_answer` with the version it thought about and the action id
`computer.<version>` (a browser's ids cannot hold a dot, game/forms/actions.py), so a turn
handed out twice, to two workers or again after a timeout, is applied once: the second is
refused as a repeat or as answered already, and changes nothing. After a takeback
(services/takeback.py) the same versions come again with other decisions: the id then names the
log's epoch too (`computer.<epoch>.<version>`), and an answer thought about before it is refused
as stale.

Who runs its turns is game/computer_turns.py's business (a server's child process, or a
Channels worker); what it thinks is game/ai/'s. `store.commit` hands out each of the computer's
decisions after commit (`broadcast.notify_computer_turn`) and stamps `Game.computer_since`,
which `overdue_turns` reads to hand out again a decision nobody answered (a worker that died
mid-thought).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game.models import Game, Player, Seat
from game.runtime.thinking import Job

from .answers import submit_answer
from .computer_limit import check_room_for_computer_game
from .engines import key_of, reading
from .errors import ActionRefused
from .lifecycle import dungeon_dicts_in_play, start_game
from .training_state import defence_for

log = logging.getLogger(__name__)

LEVEL_NAMES = dict(Player.COMPUTER_LEVELS)
ACTION_PREFIX = "computer."
# Refusals that only mean someone (another worker, an earlier try) got there first, or the game
# moved on: nothing to do.
_MOVED_ON = {"repeat", "already_answered", "stale", "over", "not_yours", "not_started"}


def computer_player(level: str) -> Player:
    """The computer of `level`: one Player per level, made on first use, with a user that has
    no usable password (nobody logs in as it). `Player.DEFENDER` is the puzzles' defender
    (services/training.py), not a level anyone chooses."""
    if level == Player.DEFENDER:
        return _computer(level, "Computer (best defence)")
    if level not in LEVEL_NAMES:
        raise ActionRefused(
            f"Unknown level {level!r}; choose {', '.join(LEVEL_NAMES.values())}.", "bad_input"
        )
    return _computer(level, f"Computer ({LEVEL_NAMES[level]})")


def _computer(level: str, display_name: str) -> Player:
    found = Player.objects.filter(computer_level=level).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=f"computer-{level}-{secrets.token_hex(4)}"
            )
            user.set_unusable_password()
            user.save()
            return Player.objects.create(user=user, display_name=display_name, computer_level=level)
    except IntegrityError:  # made at the same moment by another request: theirs stands
        return Player.objects.get(computer_level=level)


def create_computer_game(
    player: Player,
    *,
    deck_name: str,
    deck: list[str],
    level: str,
    computer_deck_name: str,
    computer_deck: list[str],
    at: datetime | None = None,
) -> Game:
    """A game between `player` and the computer of `level`, started at once (no clock: the
    computer never runs out of time, and a person playing it alone needs none). Refused beyond
    the player's share of running games against the computer (`computer_limit`)."""
    if player.is_computer:
        raise ActionRefused("The computer does not start games.", "bad_input")
    if not deck or not computer_deck:
        raise ActionRefused("Choose a deck for each side.", "no_deck")
    at = at or timezone.now()
    computer = computer_player(level)
    with transaction.atomic():
        check_room_for_computer_game(player)
        game = Game.objects.create(created_by=player, dungeons=dungeon_dicts_in_play())
        Seat.objects.create(game=game, player=player, position=0, deck_name=deck_name, deck=deck)
        Seat.objects.create(
            game=game,
            player=computer,
            position=1,
            deck_name=computer_deck_name,
            deck=list(computer_deck),
        )
        start_game(game, at)
    return game


def computer_seat(seats: list[Seat]) -> Seat | None:
    return next((s for s in seats if s.player.is_computer), None)


@dataclass(frozen=True)
class Turn:
    """A decision the computer is to make: what to think about (`job`), and what answering it
    takes (the version it was made at, its player, since when it has been waiting). `owner_id`
    is the person the computer plays there: the thinking is shared out by them
    (game/computer_turns.py)."""

    job: Job
    game_id: int
    version: int
    player_id: int
    since: datetime | None
    owner_id: int | None = None
    epoch: int = 0  # the game's log epoch (models.Game.log_epoch)

    @property
    def action_id(self) -> str:
        if self.epoch:
            return f"{ACTION_PREFIX}{self.epoch}.{self.version}"
        return f"{ACTION_PREFIX}{self.version}"


def decision_seed(secret: int, game_id: int, version: int) -> int:
    """The seed of the computer's decision at `version`: the same for a turn handed out twice
    (so two workers give the same answer), unpredictable without the game's computer secret."""
    digest = hashlib.blake2b(f"{secret}:{game_id}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def computer_turn(game_id: int) -> Turn | None:
    """The computer's pending decision in the game, or None (a person is to decide, the game is
    over or gone)."""
    game = Game.objects.filter(pk=game_id, status=Game.ACTIVE).first()
    if game is None or not game.deciding:
        return None
    seats = list(Seat.objects.filter(game=game).select_related("player"))
    seat = next((s for s in seats if s.engine_name == game.deciding and s.player.is_computer), None)
    if seat is None:
        return None
    owner = next((s.player_id for s in seats if not s.player.is_computer), None)
    # The process's engine (cached, or caught up: the answer will need it anyway) gives the
    # log and the setup without reading or rebuilding them for every decision.
    with reading(game) as engine:
        d = engine.pending
        if d is None or d.player != seat.engine_name:
            return None
        answers, setup = tuple(engine.answers), engine.setup
    secret = int((game.setup or {}).get("computer_secret", 0))
    job = Job(
        key=key_of(game),
        setup=setup,
        answers=answers,
        seat=seat.engine_name,
        level=seat.player.computer_level,
        seed=decision_seed(secret, game.pk, game.version),
        # A puzzle's defender answers with the checker's best defence (services/training.py).
        defence=defence_for(game) if seat.player.computer_level == Player.DEFENDER else None,
    )
    return Turn(
        job, game.pk, game.version, seat.player_id, game.computer_since, owner, game.log_epoch
    )


def answer_for_computer(turn: Turn, answer: str | list[str]) -> bool:
    """Apply the computer's answer through the same service as a person's. False when the game
    had moved on (the answer was given already, by another worker or an earlier try)."""
    player = Player.objects.get(pk=turn.player_id)
    try:
        submit_answer(
            turn.game_id,
            player,
            answer,
            version=turn.version,
            action_id=turn.action_id,
            epoch=turn.epoch,
        )
    except ActionRefused as e:
        if e.code in _MOVED_ON:
            log.info(
                "game %s: the computer's answer at %s not applied (%s)",
                turn.game_id,
                turn.version,
                e.code,
            )
            return False
        raise
    return True


def pending_turns() -> list[int]:
    """Every game in progress where the computer is to decide, each released for the workers to
    take again (a server's start hands them all out again: whatever was being thought about
    when it stopped)."""
    due = to_move()
    pks = list(due.values_list("pk", flat=True))
    Game.objects.filter(pk__in=pks).update(computer_taken=None)
    return pks


def overdue_turns(*, older_than: float, at: datetime | None = None) -> list[int]:
    """The games where the computer's decision was handed out more than `older_than` seconds
    ago and is still not answered, each claimed again (its `computer_since` set to `at`) by
    this caller alone: two servers keeping watch don't both hand it out. A worker that took it
    has not answered in time (it died, or is stuck): it is released for the next one to take."""
    at = at or timezone.now()
    due = to_move().filter(computer_since__lt=at - timedelta(seconds=older_than))
    claimed = []
    for pk, version, since in due.values_list("pk", "version", "computer_since"):
        won = Game.objects.filter(pk=pk, version=version, computer_since=since).update(
            computer_since=at, computer_taken=None
        )
        if won:
            claimed.append(pk)
    return claimed


def to_move():
    """The games in progress where the computer is to decide."""
    return Game.objects.filter(
        status=Game.ACTIVE,
        seats__engine_name=F("deciding"),
        seats__player__computer_level__gt="",
    ).exclude(deciding="")
