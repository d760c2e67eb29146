"""A game's life outside its moves: checking a scenario, creating, joining (which starts the
game), cancelling, and the rematch once it is over (offered by one player, accepted by the
other)."""

from __future__ import annotations

import copy
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from dungeons.official import official_dungeon_dicts
from game.engine.dungeon import dungeon_spec
from game.engine.game import Engine, GameSetup
from game.engine.position import PositionError
from game.engine.rng import new_secret_seed
from game.models import Game, Player, Seat
from game.scenario.loader import Scenario, ScenarioError, parse_scenario

from .broadcast import notify_game_changed
from .computer_limit import check_room_for_computer_game
from .engines import engine_setup
from .errors import ActionRefused
from .players import acting_seat
from .practice_seat import is_practice
from .ratings import may_play_rated
from .store import commit, completed_counts, lock
from .time_controls import DAYS_PER_MOVE


def dungeon_dicts_in_play(custom: list[str] | tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Copies of the dungeon cards a new game may use, as they are now (later edits don't reach
    it): the four official ones in printed order, then the custom ones the host allowed. An
    official one edited in the dungeon editor is named as such ("… (edited)",
    DungeonCard.as_played)."""
    from dungeons.models import DungeonCard

    official_order = [d["name"] for d in official_dungeon_dicts()]
    cards = list(DungeonCard.objects.filter(official=True)) + list(
        DungeonCard.objects.filter(official=False, name__in=list(custom))
    )
    if not cards:
        return [copy.deepcopy(d) for d in official_dungeon_dicts()]
    cards.sort(
        key=lambda c: (0, official_order.index(c.name)) if c.name in official_order else (1, c.name)
    )
    # Each was checked against the rules and the effect vocabulary when it was saved (the
    # editor, an import, `manage.py dungeons`), and a step can't be kept otherwise.
    return [card.as_played() for card in cards]


@dataclass
class ScenarioStart:
    name: str
    text: str
    scenario: Scenario


def check_scenario(
    text: str,
    filename: str = "scenario.yaml",
    dungeons: list[dict[str, Any]] | None = None,
) -> ScenarioStart:
    """Parse an uploaded scenario and build its position once, so every error shows at upload
    (with the line number the loader gives) rather than when the opponent joins. The position
    is built with `dungeons` (the dungeons/data format), today's by default."""
    try:
        scenario = parse_scenario(text, filename)
    except ScenarioError as e:
        raise ActionRefused(str(e), "scenario") from None
    # The loader takes a name of any length (a file run from the command line is not stored);
    # a game stores it in a column of this many characters, which PostgreSQL enforces.
    most = Game._meta.get_field("scenario_name").max_length
    if len(scenario.name) > most:
        too_long = f"the name has {len(scenario.name):,} characters; at most {most}"
        raise ActionRefused(str(ScenarioError(filename, scenario.name_line, too_long)), "scenario")
    cards = dungeons if dungeons is not None else dungeon_dicts_in_play()
    try:
        Engine(
            GameSetup(
                players=scenario.players,
                seed=scenario.seed,
                dungeons={d["name"]: dungeon_spec(d) for d in cards},
                position=_plain(scenario.position),
            )
        )
    except (PositionError, KeyError, ValueError, TypeError) as e:
        raise ActionRefused(f"{filename}: the position can't be set up: {e}", "scenario") from None
    return ScenarioStart(scenario.name, text, scenario)


def _plain(data: Any) -> Any:
    """JSON-safe plain dicts and lists (the scenario loader returns line-numbered subclasses)."""
    return json.loads(json.dumps(data))


def create_game(
    player: Player,
    *,
    deck_name: str = "",
    deck: list[str] | None = None,
    scenario: ScenarioStart | None = None,
    custom_dungeons: list[str] | tuple[str, ...] = (),
    clock_seconds: int = 0,
    clock_increment: int = 0,
    days_per_move: int = 0,
    dungeons: list[dict[str, Any]] | None = None,
    position: int = 0,
) -> Game:
    """An open game with the host seated; the second player joins by the invite link. The
    dungeons it may use (the official ones plus `custom_dungeons`) are copied now, unless
    `dungeons` gives the cards themselves (another game's, to play on from its position). With
    `clock_seconds`, each player has that much time (plus `clock_increment` per answer); with
    `days_per_move` (one of DAYS_PER_MOVE, never with a clock), it is a correspondence game. The
    host sits at `position`: 0 plays a scenario's first player, 1 its second (the seat order
    is the order of the position's players)."""
    if position not in (0, 1) or (position and not scenario):
        raise ActionRefused("Choose the first or the second player of the position.", "bad_input")
    if days_per_move and (days_per_move not in DAYS_PER_MOVE or clock_seconds):
        days = ", ".join(map(str, DAYS_PER_MOVE))
        raise ActionRefused(
            f"A correspondence game has {days} days per move, and no chess clock.", "bad_input"
        )
    with transaction.atomic():
        game = Game.objects.create(
            created_by=player,
            scenario_name=scenario.name if scenario else "",
            scenario_text=scenario.text if scenario else "",
            dungeons=copy.deepcopy(dungeons)
            if dungeons is not None
            else dungeon_dicts_in_play(custom_dungeons),
            clock_seconds=clock_seconds,
            clock_increment=clock_increment,
            days_per_move=days_per_move,
        )
        Seat.objects.create(
            game=game,
            player=player,
            position=position,
            deck_name="" if scenario else deck_name,
            deck=[] if scenario else list(deck or []),
        )
    return game


def join_game(
    game_id: int,
    player: Player,
    *,
    deck_name: str = "",
    deck: list[str] | None = None,
    at: datetime | None = None,
) -> Game:
    """Take the second seat and start the game (at `at`, now by default). Joining a game you
    sit at is a no-op."""
    at = at or timezone.now()
    with transaction.atomic():
        locked = lock(game_id)
        game = locked.game
        if any(s.player_id == player.pk for s in locked.seats):
            return game
        if game.status != Game.OPEN:
            raise ActionRefused("This game already has two players.", "full")
        if not game.is_scenario and not deck:
            raise ActionRefused("Choose a deck to join with.", "no_deck")
        Seat.objects.create(
            game=game,
            player=player,
            position=1 - locked.seats[0].position,  # the seat the host left free
            deck_name="" if game.is_scenario else deck_name,
            deck=[] if game.is_scenario else list(deck or []),
        )
        start_game(game, at)
    return game


def cancel_game(game_id: int, player: Player) -> None:
    """The host takes back an open game nobody has joined."""
    with transaction.atomic():
        game = lock(game_id).game
        if game.created_by_id != player.pk:
            raise ActionRefused("Only the player who created a game can cancel it.", "not_host")
        if game.status != Game.OPEN:
            raise ActionRefused("The game has started; concede instead.", "started")
        notify_game_changed(game)  # after commit the row is gone: pages say so
        game.delete()


def rematch(game_id: int, player: Player | None, *, at: datetime | None = None) -> Game:
    """Offer a rematch of a finished game, or accept the opponent's offer. The rematch is a new
    game between the same two players with the same decks (or the same position) and a new coin
    flip; it starts only when both want it, so nobody is seated in a game they did not ask for.
    Returns the rematch once it exists (both players end up at the same one), else the finished
    game, with the offer recorded and shown to the opponent."""
    at = at or timezone.now()
    with transaction.atomic():
        locked = lock(game_id)
        old = locked.game
        seat = acting_seat(locked.seats, player)
        if old.status != Game.FINISHED:
            raise ActionRefused("A rematch can start once this game is over.", "not_over")
        existing = Game.objects.filter(rematch_of=old).first()
        if existing is not None:
            return existing
        other = next(s for s in locked.seats if s.pk != seat.pk)
        # The computer accepts every rematch: its offer stands from the moment the game ends.
        if not (other.rematch_offered or other.player.is_computer):
            if not seat.rematch_offered:
                seat.rematch_offered = True
                seat.save(update_fields=["rematch_offered"])
                notify_game_changed(old)  # the opponent's game-over screen shows the offer
            return old
        if other.player.is_computer:
            check_room_for_computer_game(seat.player)
        new = _start_rematch(old, created_by=other.player, at=at)
        notify_game_changed(old)  # both game-over screens lead to the rematch
    return new


def decline_rematch(game_id: int, player: Player | None) -> Game:
    """Decline the opponent's offer of a rematch, or withdraw one's own: no offer is left."""
    with transaction.atomic():
        locked = lock(game_id)
        old = locked.game
        acting_seat(locked.seats, player)
        if old.status != Game.FINISHED:
            raise ActionRefused("A rematch can be offered once this game is over.", "not_over")
        if Game.objects.filter(rematch_of=old).exists():
            raise ActionRefused("The rematch has already started.", "started")
        offered = [s for s in locked.seats if s.rematch_offered]
        for s in offered:
            s.rematch_offered = False
            s.save(update_fields=["rematch_offered"])
        if offered:
            notify_game_changed(old)
    return old


def _start_rematch(old: Game, *, created_by: Player, at: datetime) -> Game:
    from .practice import start_practice  # (practice.py imports this module)
    from .training import again  # (so does training.py)

    if old.is_scenario and (lesson_or_puzzle := again(old, at)) is not None:
        return lesson_or_puzzle  # a training game's rematch: its lesson or puzzle anew
    seats = list(old.seats.select_related("player").order_by("position"))
    if is_practice(seats):
        return start_practice(seats[0].player, old.dungeons[0], rematch_of=old)
    official = {d["name"] for d in official_dungeon_dicts()}
    allowed = [d["name"] for d in old.dungeons if d["name"] not in official]
    new = Game.objects.create(
        created_by=created_by,
        rematch_of=old,
        scenario_name=old.scenario_name,
        scenario_text=old.scenario_text,
        dungeons=dungeon_dicts_in_play(allowed),  # as they are now: a new game
        clock_seconds=old.clock_seconds,
        clock_increment=old.clock_increment,
        days_per_move=old.days_per_move,
        # A rated game's rematch is rated too (as on Lichess), while both still may play rated.
        rated=old.rated and all(may_play_rated(s.player) for s in seats),
    )
    for seat in old.seats.order_by("position"):
        Seat.objects.create(
            game=new,
            player=seat.player,
            position=seat.position,
            deck_name=seat.deck_name,
            deck=list(seat.deck),
            full_control=seat.full_control,
        )
    start_game(new, at)
    return new


def unique_engine_names(display_names: list[str]) -> list[str]:
    """The seats' display names, made unique for the engine ("Sam", "Sam (2)")."""
    out: list[str] = []
    for name in display_names:
        candidate, n = name, 2
        while candidate in out:
            candidate = f"{name} ({n})"
            n += 1
        out.append(candidate)
    return out


def _rename_position(position: dict[str, Any], mapping: dict[str, str]) -> dict[str, Any]:
    """A scenario's position with its player names replaced by the seats' engine names."""
    out = _plain(position)
    turn = out.get("turn") or {}
    if "active" in turn:
        turn["active"] = mapping.get(turn["active"], turn["active"])
    out["setup"] = {mapping.get(k, k): v for k, v in (out.get("setup") or {}).items()}
    return out


def start_game(game: Game, at: datetime, *, script: Sequence[tuple[str, Any]] = ()) -> Engine:
    """Write the setup (the inputs replay needs) and run until someone must decide. `script`:
    answers to play first, each by a player of the scenario's position (a lesson's or a
    puzzle's script, services/training.py)."""
    seats = list(game.seats.select_related("player").order_by("position"))
    names = unique_engine_names([s.player.display_name for s in seats])
    for seat, name in zip(seats, names, strict=True):
        seat.engine_name = name
        seat.save(update_fields=["engine_name"])
    setup: dict[str, Any] = {
        "players": names,
        # Every game between people gets a fresh secret, a scenario-started one too (the
        # file's own `seed` is for `manage.py scenario`): nothing a player sees narrows it.
        "seed": new_secret_seed(),
        "decks": {name: list(seat.deck) for seat, name in zip(seats, names, strict=True)},
        "dungeons": game.dungeons or dungeon_dicts_in_play(),
        "position": None,
        "position_ids": "seat",  # engines.engine_setup: how this position numbers its objects
        # engines.engine_setup: the coin flip's winner chooses to play or draw (CR 103.1).
        "play_or_draw": "chosen",
    }
    if any(s.player.is_computer for s in seats):
        # The seed of the computer's decisions (services/computer.py): a secret of its own,
        # so nothing it draws says anything of the game's shuffles, nor the other way round.
        setup["computer_secret"] = secrets.randbits(63)
    if game.is_scenario:
        scenario = parse_scenario(game.scenario_text, game.scenario_name or "scenario")
        mapping = dict(zip(scenario.players, names, strict=True))
        setup["decks"] = {}
        setup["position"] = _rename_position(scenario.position, mapping)
    game.setup = setup
    game.status = Game.ACTIVE
    game.started = at
    game.version = 0
    game.save(update_fields=["setup", "status", "started", "version"])
    # The live engine is built from the setup as the database gives it back, as every replay
    # is: a JSON column may not give back what was written (PostgreSQL's jsonb sorts keys).
    game.refresh_from_db(fields=["setup"])
    for seat in seats:  # each player's clock starts full; it runs while they must decide
        seat.clock_ms = game.clock_seconds * 1000 if game.has_clock else None
    engine = Engine(engine_setup(game))
    if script:
        mapping = dict(zip(scenario.players, names, strict=True))
        for who, answer in script:
            engine.answer(mapping[who], answer)
    commit(game, engine, seats, before=completed_counts(engine), at=at)
    return engine
