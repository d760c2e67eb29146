"""Persistence of games: Player, Game, Seat, GameAction (the answer log), CompletedDungeon.

A stored game is its inputs (`Game.setup`: players, seed, decks, the dungeon dicts copied at
the start, an optional position) plus the ordered answer log (`GameAction`); the state is a
replay through game.engine (docs/architecture.md, "Persistence by replay"). `Game.version` is
the length of the answer log, so every view and every action names the version it belongs to.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse


def new_invite_code() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Player(models.Model):
    """A person at the table: a display name and the Django user behind it.

    A guest is a real user without a usable password, kept by the session; setting a
    password later turns the guest into an ordinary account (same Player, same history)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, related_name="player", on_delete=models.CASCADE
    )
    display_name = models.CharField(max_length=30)
    is_guest = models.BooleanField(default=False)
    # The computer opponent: one Player per level (services.computer_player), never logged in.
    EASY, MEDIUM, HARD = "easy", "medium", "hard"
    COMPUTER_LEVELS = [(EASY, "Easy"), (MEDIUM, "Medium"), (HARD, "Hard")]
    # The puzzles' defender (learn app, game/puzzles/defence.py): not a level anyone chooses,
    # nor an honest one: it searches the whole position a puzzle's author wrote out.
    DEFENDER = "defender"
    computer_level = models.CharField(
        max_length=10,
        choices=[*COMPUTER_LEVELS, (DEFENDER, "best defence")],
        blank=True,
        default="",
        help_text="Set for the computer opponent of that level; empty for a person.",
    )
    last_decklist = models.TextField(
        blank=True, default="", help_text="The last deck this player imported, to offer again."
    )
    # The steps where the pace feature stops this player (engine/stops.py keys such as
    # "mine:end"), kept across games; None until they change one: the defaults then.
    stops = models.JSONField(null=True, blank=True, default=None)
    # The Glicko-2 rating (services/ratings.py): rating, deviation (RD) and volatility, as the
    # last rated game left them; a new player starts at Glickman's 1500 / 350 / 0.06.
    rating = models.FloatField(default=1500.0)
    rating_deviation = models.FloatField(default=350.0)
    rating_volatility = models.FloatField(default=0.06)
    rated_games = models.PositiveIntegerField(default=0)
    last_rated = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="The last rated game (the leaderboard)."
    )
    # Free text in the chat, written and read (services/chat.py): None until they choose, then
    # on for an account with a password and off for a guest; quick messages are always there.
    chat_free_text = models.BooleanField(
        null=True,
        blank=True,
        default=None,
        help_text="Free-text chat on or off; empty: on for accounts, off for guests.",
    )
    # A mail when it becomes their turn in a correspondence game, to their account's address
    # (services/turn_mail.py); off until they ask, and every mail links to turning it off.
    turn_mail = models.BooleanField(
        default=False, help_text="Mail them when it is their turn in a correspondence game."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["computer_level"],
                condition=~models.Q(computer_level=""),
                name="one_computer_per_level",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_computer(self) -> bool:
        return bool(self.computer_level)

    def get_absolute_url(self) -> str:
        return reverse("profile", args=[self.pk])


class Game(models.Model):
    OPEN = "open"
    ACTIVE = "active"
    FINISHED = "finished"
    STATUSES = [(OPEN, "waiting for an opponent"), (ACTIVE, "in progress"), (FINISHED, "over")]
    # Columns read only to start or rebuild a game, left out (`defer`) where every answer and
    # every render reads the row: the setup alone is both decks and every dungeon as JSON.
    # (Not scenario_text: pages ask `is_scenario`, and it is empty unless the game has one.)
    BULKY = ("setup", "dungeons")

    code = models.CharField(max_length=16, unique=True, default=new_invite_code)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    created_by = models.ForeignKey(Player, related_name="created_games", on_delete=models.CASCADE)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # The engine's GameSetup as JSON, written once when the second player sits down.
    setup = models.JSONField(null=True, blank=True)
    # The dungeon cards this game may use, copied when it is created (dungeons/data format):
    # later edits in the admin change only games created afterwards.
    dungeons = models.JSONField(default=list, blank=True)
    # A game started from an uploaded scenario file keeps the file for reproducing a report.
    scenario_name = models.CharField(max_length=200, blank=True, default="")
    scenario_text = models.TextField(blank=True, default="")
    version = models.PositiveIntegerField(default=0, help_text="Answers in the log.")
    # How many takeback requests were settled (accepted, declined or withdrawn): each rewrites
    # the game's log (an accepted one cuts the answer log back, and the game's version with
    # it), so every cache of the game's engine keys on it with the version (services/engines).
    log_epoch = models.PositiveIntegerField(default=0)
    # The answers up to the last one a player gave themself (not the pace feature's): that
    # answer's index + 1, 0 for none. What a takeback would take back (services/takeback.py).
    last_choice = models.PositiveIntegerField(default=0)
    # A summary for lists (the lobby), written with each change: the state itself is the replay.
    turn = models.PositiveIntegerField(default=0)
    deciding = models.CharField(max_length=40, blank=True, default="", help_text="Engine name.")
    winner = models.CharField(max_length=40, blank=True, default="", help_text="Engine name.")
    end_reason = models.CharField(max_length=200, blank=True, default="")
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, related_name="rematch", on_delete=models.SET_NULL
    )
    # A chess clock (0 = none): each player's time, and what a player's own answer adds back.
    # The clock of the player who must decide runs from `clock_since` (game.services).
    clock_seconds = models.PositiveIntegerField(default=0, help_text="Each player's time.")
    clock_increment = models.PositiveIntegerField(default=0, help_text="Seconds per answer.")
    # A correspondence game (0 = not one): the player who must decide has this many days for
    # each answer, counted from `clock_since` (services/correspondence.py).
    days_per_move = models.PositiveSmallIntegerField(default=0, help_text="0: not correspondence.")
    # Since when the seat that must decide has had to: its chess clock runs from then, or its
    # days per move count from then (None while nobody's time runs).
    clock_since = models.DateTimeField(null=True, blank=True)
    # When the computer's pending decision was handed out to be thought about (None while a
    # person is to decide): a server's watchdog hands it out again once it is overdue
    # (services/computer.py), so a worker that died mid-thought loses no game.
    computer_since = models.DateTimeField(null=True, blank=True)
    # The version at which a worker took the computer's pending decision to think about it
    # (None, or an older version: nobody has; services/computer_queue.py). Workers take the
    # waiting decisions round-robin between the people the computer plays.
    computer_taken = models.PositiveIntegerField(null=True, blank=True)
    # A rated game changes both players' Glicko-2 ratings once it ends (services/ratings.py);
    # only games paired between two accounts with a password are (services/seeks.py).
    rated = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Game {self.code}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.code])

    @property
    def group_name(self) -> str:
        """The channel group of everyone watching this game (Channels allows [A-Za-z0-9-_.])."""
        return f"game.{self.pk}"

    @property
    def is_scenario(self) -> bool:
        return bool(self.scenario_text)

    @property
    def host_side(self) -> str:
        """The name, in the position this game starts from, of the player its host plays (the
        position's players are in seat order)."""
        return self._scenario_side(guest=False)

    @property
    def guest_side(self) -> str:
        """The name, in the position this game starts from, of the player who joins plays."""
        return self._scenario_side(guest=True)

    def _scenario_side(self, *, guest: bool) -> str:
        from game.scenario.loader import parse_scenario

        host = self.seats.get(player_id=self.created_by_id).position
        players = parse_scenario(self.scenario_text, self.scenario_name or "scenario").players
        return players[1 - host if guest else host]

    @property
    def has_clock(self) -> bool:
        return self.clock_seconds > 0

    @property
    def is_correspondence(self) -> bool:
        return self.days_per_move > 0

    def position_file_open_to(self, player: Player | None) -> bool:
        """Whether `player` may download the scenario file this game started from. The file
        holds both hands and both libraries in order, so while the game runs only its uploader
        (who wrote it) may; once the game is over, anyone with the link. A rematch replays a
        file that was open to everyone when the first game ended. A lesson's or a puzzle's
        file (learn app) holds its solution: nobody gets it while the game runs."""
        if not self.is_scenario:
            return False
        if self.status == self.FINISHED:
            return True
        if hasattr(self, "training"):
            return False
        if self.rematch_of_id is not None:
            return True
        return player is not None and player.pk == self.created_by_id


class Seat(models.Model):
    """One of the two places at a game: who sits there, with which deck, and their pace."""

    PASS_NONE = ""
    PASS_MY_TURN = "my_turn"
    PASS_SOMETHING = "something"
    PASS_MODES = [
        (PASS_NONE, "—"),
        (PASS_MY_TURN, "pass until my next turn"),
        (PASS_SOMETHING, "pass until something happens"),
    ]

    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    player = models.ForeignKey(Player, related_name="seats", on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField(
        help_text="0 plays first in the setup's list of players, 1 second. The host sits at 0 "
        "unless they chose the second player of a position."
    )
    engine_name = models.CharField(max_length=40, blank=True, default="")
    deck_name = models.CharField(max_length=100, blank=True, default="")
    deck = models.JSONField(default=list, blank=True, help_text="Card names.")
    # Pace: by default priority is passed for a player who can do nothing but pass.
    full_control = models.BooleanField(default=False)
    pass_until = models.CharField(max_length=12, choices=PASS_MODES, blank=True, default="")
    pass_turn = models.PositiveIntegerField(default=0, help_text="Turn when pass_until was set.")
    pass_stack = models.JSONField(default=list, blank=True, help_text="Stack ids seen meanwhile.")
    # The chess clock: time left when this seat's clock last stopped (None: the game has none).
    clock_ms = models.BigIntegerField(null=True, blank=True)
    # When this seat's last websocket closed (None while connected, or never connected).
    offline_since = models.DateTimeField(null=True, blank=True)
    # Once the game is over: this seat offers a rematch (it starts when the other seat accepts).
    rematch_offered = models.BooleanField(default=False)
    # This seat asks to take back its last answer: the answer log's length it would go back to
    # (None: no request pending); and how many times it asked in this game (services/takeback).
    takeback_to = models.PositiveIntegerField(null=True, blank=True)
    takebacks_asked = models.PositiveSmallIntegerField(default=0)
    # This seat does not see the other seat's chat in this game (services/chat.py).
    chat_muted = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["game", "player"], name="unique_seat_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.game} (seat {self.position})"

    # Set by game.board for the page being rendered (from live Connection rows).
    connected = False


class ComputerShare(models.Model):
    """When a worker last took a decision of the computer's in a game against this person: the
    workers take the next from the person served least recently (services/computer_queue.py)."""

    player = models.OneToOneField(
        Player, primary_key=True, related_name="computer_share", on_delete=models.CASCADE
    )
    served = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.player} served at {self.served:%H:%M:%S}"


class Connection(models.Model):
    """An open websocket of a seated player, kept alive by its process's heartbeat
    (game/runtime/heartbeats.py).

    Presence is "a connection seen lately", not a counter: a server that dies without closing
    its sockets leaves rows that simply expire (PRESENCE_TTL), in any number of processes."""

    PRESENCE_TTL_SECONDS = 60

    seat = models.ForeignKey(Seat, related_name="live_connections", on_delete=models.CASCADE)
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.seat} via {self.channel_name}"


class GameAction(models.Model):
    """One entry of the answer log, in order. `auto` marks a pass made by the pace feature."""

    game = models.ForeignKey(Game, related_name="actions", on_delete=models.CASCADE)
    index = models.PositiveIntegerField()
    seat = models.ForeignKey(Seat, related_name="actions", on_delete=models.CASCADE)
    answer = models.JSONField(help_text='An option id, a list of ids, or "!concede".')
    auto = models.BooleanField(default=False)
    client_action_id = models.CharField(max_length=64, blank=True, default="")
    # Why a "!concede" was logged for a player who did not click Concede ("time", "abandoned").
    note = models.CharField(max_length=20, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="unique_action_index"),
            models.UniqueConstraint(
                fields=["game", "client_action_id"],
                condition=~models.Q(client_action_id=""),
                name="unique_client_action",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.index}: {self.answer}"


class ActionReceipt(models.Model):
    """The client id of every action applied (answers, concessions, pace changes, claims).

    A browser sends a fresh id with every form; the unique constraint makes "applied at most
    once" a property of the database, whatever number of processes or tabs send it."""

    game = models.ForeignKey(Game, related_name="receipts", on_delete=models.CASCADE)
    seat = models.ForeignKey(Seat, related_name="receipts", on_delete=models.CASCADE)
    action_id = models.CharField(max_length=64)
    kind = models.CharField(max_length=12)
    version = models.PositiveIntegerField(help_text="The version the action was made on.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "action_id"], name="unique_receipt"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.kind} {self.action_id} at v{self.version}"


class Takeback(models.Model):
    """A request to take back an answer, once settled: its line in the game's log, where it
    stands in the answer log, and, when accepted, the answers it removed (kept for a report).

    The log's line is written when a replay reaches `log_version` answers (services/engines.py,
    `apply_log`): an accepted request stands where the log was cut back to, a declined or
    withdrawn one where the game was when it was asked. A request that was pending when the
    game ended is not kept: it changed nothing."""

    ACCEPTED, DECLINED, WITHDRAWN = "accepted", "declined", "withdrawn"
    OUTCOMES = [(ACCEPTED, "accepted"), (DECLINED, "declined"), (WITHDRAWN, "withdrawn")]

    game = models.ForeignKey(Game, related_name="takebacks", on_delete=models.CASCADE)
    seat = models.ForeignKey(Seat, related_name="takebacks", on_delete=models.CASCADE)
    outcome = models.CharField(max_length=10, choices=OUTCOMES)
    asked_at = models.PositiveIntegerField(help_text="The game's version when it was asked.")
    log_version = models.PositiveIntegerField(help_text="Where its log line stands.")
    line = models.CharField(max_length=300)
    removed = models.JSONField(
        default=list, blank=True, help_text="[engine name, answer, auto, note] per answer removed."
    )
    settled = models.DateTimeField(help_text="When it was accepted, declined or withdrawn.")

    class Meta:
        ordering = ["game", "pk"]

    def __str__(self) -> str:
        return f"{self.game}: {self.line}"


class CompletedDungeon(models.Model):
    """A dungeon a player completed in a game, as the engine reported it."""

    player = models.ForeignKey(Player, related_name="completed_dungeons", on_delete=models.CASCADE)
    game = models.ForeignKey(Game, related_name="completed_dungeons", on_delete=models.CASCADE)
    dungeon = models.CharField(max_length=100)
    turn = models.PositiveIntegerField()
    completed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-completed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.player} completed {self.dungeon} on turn {self.turn}"


class Seek(models.Model):
    """A player waiting to be paired ("Play now" in the lobby): the deck they bring, the time
    control and whether the game is rated. Two seeks pair when both match (services/seeks.py);
    a player has at most one.

    While waiting, the player's lobby page asks every few seconds (`last_seen`); a seek not
    asked about for `services.seeks.SEEK_TTL_SECONDS` belongs to someone who left, and is
    neither listed nor paired. Once paired, `game` points at the game until its player opens
    it."""

    player = models.OneToOneField(Player, related_name="seek", on_delete=models.CASCADE)
    # A TimeControl key (services/time_controls.py): "untimed", "clock:20+10", and room for
    # other kinds ("days:3"); two seeks match only with the same key.
    time_control = models.CharField(max_length=24)
    rated = models.BooleanField(default=False)
    deck_name = models.CharField(max_length=100, blank=True, default="")
    deck = models.JSONField(default=list, blank=True, help_text="Card names.")
    rating = models.FloatField(help_text="The player's rating when they sought.")
    created = models.DateTimeField()
    last_seen = models.DateTimeField()
    game = models.ForeignKey(
        Game, null=True, blank=True, related_name="+", on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["created", "pk"]
        indexes = [
            models.Index(fields=["time_control", "rated", "created"], name="seek_pool"),
        ]

    def __str__(self) -> str:
        return f"{self.player} seeks {self.time_control} {'rated' if self.rated else 'casual'}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: before and after, against whom, with
    which score. One row per player and game (the unique constraint makes "updated once" a
    property of the database); the profile's history and results are read from these."""

    player = models.ForeignKey(Player, related_name="rating_changes", on_delete=models.CASCADE)
    game = models.ForeignKey(Game, related_name="rating_changes", on_delete=models.CASCADE)
    opponent = models.ForeignKey(Player, related_name="+", on_delete=models.CASCADE)
    score = models.FloatField(help_text="1 won, 0.5 draw, 0 lost.")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_rating_change_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating_before:.0f} -> {self.rating_after:.0f} ({self.game})"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class ChatMessage(models.Model):
    """One message of a game's chat (services/chat.py): in the players' room (the two seats) or
    the spectators' room (everyone else), a quick message (`body` is its key) or free text.
    Stored as typed; escaped wherever it is shown."""

    PLAYERS, SPECTATORS = "players", "spectators"
    ROOMS = [(PLAYERS, "players"), (SPECTATORS, "spectators")]
    QUICK, TEXT = "quick", "text"
    KINDS = [(QUICK, "quick message"), (TEXT, "free text")]

    game = models.ForeignKey(Game, related_name="chat_messages", on_delete=models.CASCADE)
    room = models.CharField(max_length=10, choices=ROOMS)
    author = models.ForeignKey(Player, related_name="chat_messages", on_delete=models.CASCADE)
    kind = models.CharField(max_length=5, choices=KINDS)
    body = models.CharField(max_length=500, help_text="The text, or a quick message's key.")
    version = models.PositiveIntegerField(
        help_text="The game's version when it was sent: the replay shows it from that point."
    )
    client_action_id = models.CharField(max_length=64, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["game", "room", "id"], name="chat_by_room")]
        constraints = [
            # A message sent twice (a double click, a resent frame) is stored once.
            models.UniqueConstraint(
                fields=["game", "author", "client_action_id"],
                condition=~models.Q(client_action_id=""),
                name="unique_chat_action",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author} in {self.game} ({self.room}): {self.body[:40]}"


class ChatReport(models.Model):
    """A message someone reported: the moderation queue in the admin (game/admin.py)."""

    message = models.ForeignKey(ChatMessage, related_name="reports", on_delete=models.CASCADE)
    reporter = models.ForeignKey(Player, related_name="chat_reports", on_delete=models.CASCADE)
    created = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        related_name="+",
        on_delete=models.SET_NULL,
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["handled", "-created"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="unique_chat_report"),
        ]

    def __str__(self) -> str:
        return f"{self.reporter} reported message {self.message_id}"
