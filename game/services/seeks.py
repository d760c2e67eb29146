"""Quick pairing: "Play now" in the lobby, a seek that waits, and two matching seeks put into one
game at once.

Two seeks match when they ask for the same time control (time_controls.py: the same key) and
both rated or both casual, belong to two different players, and their ratings are close enough:
the difference is within the wider of the two seeks' windows, and a seek's window widens with
its waiting time (`rating_window`: ±100 at first, 25 points more each second, anyone after 60 s).
Among the matching seeks the closest rating is preferred, then the one waiting longest. Rated
seeks need an account with a password (ratings.may_play_rated), so guests pair in casual games
only. A guest's rating is the starting 1500.

Pairing is atomic with any number of servers, and no seek is ever paired twice:

- PostgreSQL: the seek being paired is locked (its own new row, or `select_for_update
  (skip_locked=True)` when a poll retries it) and each candidate is taken with
  `select_for_update` and checked still open under that lock, in one transaction. A candidate
  another transaction holds is skipped (`skip_locked`) unless it is younger than the seek being
  paired: the older waits for it, so two seeks polled at the same instant, each holding its
  own row, do not skip each other for ever. A candidate not taken is let go at once (a
  savepoint rolled back: PostgreSQL keeps the lock on a row it waited for and found paired,
  though it does not return it). So a pairing transaction holds its own seek and at most the
  one candidate it is waiting for or pairing with, and waits go only towards younger seeks:
  they never form a cycle, and two servers neither pair one seek twice nor deadlock.
- SQLite: every transaction is IMMEDIATE (settings.py), one writer at a time.

Two players pressing Play now at the same instant on two servers may each miss the other's seek
(neither is committed yet): both then wait, and the next poll of either (every
SEEK_POLL_SECONDS) pairs them.

The waiting page learns that it was paired by polling (htmx, `check_seek` every
SEEK_POLL_SECONDS; without JavaScript the lobby reloads itself): the poll is also what keeps the
seek alive, and it retries pairing as the window widens, which a push alone would not do.

A player who leaves for good loses their seek: leaving the page (closing the tab, going to
another page, a reload) takes it back at once, as Cancel does (static/js/seek.js sends the
cancel as the page goes); a seek not polled for SEEK_TTL_SECONDS (a crash, a lost network, a
computer put to sleep, or a page without JavaScript left) is neither listed nor paired, is not
revived, and is deleted on the next Play now or poll. The time is long enough for a tab in the
background, whose timers a browser may slow to one a minute.

A correspondence seek (`days:N`) is the exception: a game of days is not waited for at the
screen, so leaving the page keeps it (seek.js leaves it be) and it stays listed and pairable for
CORRESPONDENCE_SEEK_TTL from the last time its player looked, as on Lichess. Once paired, its
player finds the game under "Your turn" or "My games" in the lobby (and a mail tells them if it
is their decision and they asked for mails).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game.models import Game, Player, Seat, Seek

from .errors import ActionRefused
from .lifecycle import dungeon_dicts_in_play, start_game
from .ratings import may_play_rated
from .time_controls import TimeControl

SEEK_POLL_SECONDS = 2  # how often a waiting page asks (templates/_seek_status.html)
SEEK_TTL_SECONDS = 75  # a seek not asked about this long is gone
LIST_POLL_SECONDS = 3  # how often the lobby's list of seeks is refreshed
# The rating window: WINDOW_START either side at first, WINDOW_GROWTH more per second waited,
# and any rating once a seek has waited WINDOW_ANY_AFTER seconds.
WINDOW_START = 100.0
WINDOW_GROWTH = 25.0
WINDOW_ANY_AFTER = 60.0
CANDIDATES = 50  # matching seeks read per attempt, the longest waiting first
CORRESPONDENCE_SEEK_TTL = timedelta(days=7)


def is_correspondence(time_control_key: str) -> bool:
    return time_control_key.startswith("days:")


def _alive(at: datetime) -> Q:
    """The seeks still waiting at `at`: asked about within their time to live."""
    live = Q(last_seen__gte=at - timedelta(seconds=SEEK_TTL_SECONDS))
    days = Q(time_control__startswith="days:", last_seen__gte=at - CORRESPONDENCE_SEEK_TTL)
    return live | days


def rating_window(waited_seconds: float) -> float:
    """How far from its own rating a seek that has waited this long accepts (inf: anyone)."""
    if waited_seconds >= WINDOW_ANY_AFTER:
        return float("inf")
    return WINDOW_START + WINDOW_GROWTH * max(0.0, waited_seconds)


def _window(seek: Seek, at: datetime) -> float:
    return rating_window((at - seek.created).total_seconds())


def play_now(
    player: Player,
    *,
    deck_name: str,
    deck: list[str],
    time_control: TimeControl,
    rated: bool,
    at: datetime | None = None,
) -> Game | Seek:
    """Seek a game: paired at once with a matching seek if there is one (the game, started),
    else the new seek, waiting. A player's earlier seek is replaced."""
    at = at or timezone.now()
    if player.is_computer:
        raise ActionRefused("The computer does not seek games.", "bad_input")
    if rated and not may_play_rated(player):
        raise ActionRefused(
            "Rated games are for accounts with a password: set one under your name, or play a "
            "casual game.",
            "rated_needs_account",
        )
    if not deck:
        raise ActionRefused("Choose a deck to play with.", "no_deck")
    with transaction.atomic():
        _forget_expired(at)
        Seek.objects.filter(player=player).delete()
        seek = Seek.objects.create(
            player=player,
            time_control=time_control.key,
            rated=rated,
            deck_name=deck_name,
            deck=list(deck),
            rating=player.rating,
            created=at,
            last_seen=at,
        )
        game = _pair(seek, at)
        if game is not None:
            seek.delete()  # its player is sent to the game now
            return game
    return seek


def check_seek(player: Player, *, at: datetime | None = None) -> Game | Seek | None:
    """The waiting page's poll: the game if the player's seek was paired, else the seek, kept
    alive and tried again against the others; None when the player has no seek (never,
    cancelled, or expired: not polled for SEEK_TTL_SECONDS)."""
    at = at or timezone.now()
    if not Seek.objects.filter(player=player).exists():
        return None  # (most lobby pages: no transaction, no lock)
    with transaction.atomic():
        # (No join in a locking query: PostgreSQL refuses FOR UPDATE on an outer join's
        # nullable side, and the game is read only once paired.)
        seek = Seek.objects.select_for_update(skip_locked=True).filter(player=player).first()
        if seek is None:
            # None, or another request is pairing it this instant: the next poll will know.
            return Seek.objects.filter(player=player).first()
        if seek.game_id is not None:
            # Paired: the page is sent to the game for as long as it asks (a poll that set off
            # before the page left must not send it back to the lobby), until its player opens
            # the game (`arrived`). A game over by then is no longer worth sending anyone to.
            game = Game.objects.get(pk=seek.game_id)
            if game.status == Game.FINISHED:
                seek.delete()
                return None
            return game
        ttl = (
            CORRESPONDENCE_SEEK_TTL
            if is_correspondence(seek.time_control)
            else timedelta(seconds=SEEK_TTL_SECONDS)
        )
        if seek.last_seen < at - ttl:
            seek.delete()  # its player left; coming back does not revive it
            return None
        seek.last_seen = at
        seek.save(update_fields=["last_seen"])
        game = _pair(seek, at)
        if game is not None:
            seek.delete()
            return game
    return seek


def arrived(game: Game, player: Player | None) -> None:
    """The player opened `game`: a seek of theirs paired into it is done with."""
    if player is None:
        return
    paired = Seek.objects.filter(player=player, game=game)
    if paired.exists():  # (a read: most game pages have none, and open no write)
        paired.delete()


def cancel_seek(player: Player) -> Game | None:
    """Take back the player's seek. Too late once it is paired: the game is returned."""
    with transaction.atomic():
        found = Seek.objects.select_for_update().filter(player=player).first()
        if found is None:
            return None
        game = Game.objects.filter(pk=found.game_id).first() if found.game_id else None
        found.delete()
    return game


def open_seeks(at: datetime | None = None, limit: int = 50) -> list[Seek]:
    """The seeks waiting now (alive, not paired), the longest waiting first."""
    at = at or timezone.now()
    return list(
        Seek.objects.filter(_alive(at), game__isnull=True)
        .select_related("player")
        .order_by("created", "pk")[:limit]
    )


def _forget_expired(at: datetime) -> None:
    Seek.objects.filter(game__isnull=True).exclude(_alive(at)).delete()


def _pair(seek: Seek, at: datetime) -> Game | None:
    """Pair `seek` (locked by this transaction) with the best matching seek that no other
    transaction holds, and start their game; None when there is none."""
    candidates = list(
        Seek.objects.filter(
            _alive(at), time_control=seek.time_control, rated=seek.rated, game__isnull=True
        )
        .exclude(player_id=seek.player_id)
        .order_by("created", "pk")[:CANDIDATES]
    )
    mine = _window(seek, at)
    fitting = [c for c in candidates if abs(c.rating - seek.rating) <= max(mine, _window(c, at))]
    fitting.sort(key=lambda c: (abs(c.rating - seek.rating), c.created, c.pk))
    for candidate in fitting:
        # Checked again under the lock: it may have been paired (or cancelled) since it was
        # read. A candidate another transaction holds is skipped, except that the older seek
        # waits for a younger one: two seeks polled at the same instant each hold their own row
        # and would otherwise skip each other at every poll. The younger's poll skips the older
        # and ends, so the wait is short, and waits go one way only (towards a younger seek),
        # so they never form a cycle.
        #
        # A candidate that is not taken gives back whatever its attempt locked (the savepoint):
        # PostgreSQL keeps the lock on a row it waited for and then found paired by the other
        # transaction, though the row is not returned, and a transaction holding such a row
        # while it waits for the next candidate closes a cycle (seen as a deadlock with two
        # servers and twenty guests on a loaded machine).
        attempt = transaction.savepoint_create()
        other = (
            Seek.objects.select_for_update(skip_locked=candidate.pk < seek.pk)
            .filter(pk=candidate.pk, game__isnull=True)
            .first()
        )
        if other is None:
            transaction.savepoint_rollback(attempt)
            continue
        transaction.savepoint_commit(attempt)
        game = _start(waiting=other, arriving=seek, at=at)
        other.game = game
        other.save(update_fields=["game"])
        return game
    return None


def _start(*, waiting: Seek, arriving: Seek, at: datetime) -> Game:
    """The two seeks' game, started (the coin flip decides who chooses to play first)."""
    time_control = TimeControl.from_key(waiting.time_control)
    game = Game.objects.create(
        created_by=waiting.player,
        dungeons=dungeon_dicts_in_play(),
        rated=waiting.rated,
        **time_control.game_fields(),
    )
    for position, seek in enumerate((waiting, arriving)):
        Seat.objects.create(
            game=game,
            player=seek.player,
            position=position,
            deck_name=seek.deck_name,
            deck=list(seek.deck),
        )
    start_game(game, at)
    return game
