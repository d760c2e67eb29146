"""Builders shared by the web tests: players, the dungeon designers' group, started games,
positions from scenario files."""

from __future__ import annotations

import importlib
from pathlib import Path
from unittest import mock

from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.models import Game, Player
from game.services import lifecycle

POSITIONS = Path(__file__).resolve().parent / "positions"
DESIGNERS_MIGRATION = "dungeons.migrations.0004_dungeon_designers_group"


def make_player(name: str, *, guest: bool = False) -> Player:
    user = get_user_model().objects.create_user(username=name.lower().replace(" ", "-"))
    if guest:
        user.set_unusable_password()
    else:
        user.set_password("correct horse battery staple")
    user.save()
    return Player.objects.create(user=user, display_name=name, is_guest=guest)


def designers_group() -> Group:
    """The "Dungeon designers" group its data migration makes (again, if an earlier
    transactional test's flush emptied the tables: a flush doesn't rerun data migrations)."""
    migration = importlib.import_module(DESIGNERS_MIGRATION)
    if not Group.objects.filter(name=migration.GROUP).exists():
        migration.create_group(django_apps, None)
    return Group.objects.get(name=migration.GROUP)


def start_game(host: Player, guest: Player, *, seed: int | None = None) -> Game:
    """A game between the two seed decks. With a seed the shuffle is that whole-number seed's (a
    game starts from a fresh secret otherwise, `rng.new_secret_seed`): a test whose checks need a
    game of some length, or that plays random answers, gives one so that it plays the same game
    on every run."""
    game = services.create_game(host, deck_name="Varis", deck=list(GREEN_WHITE_VARIS))
    if seed is None:
        services.join_game(game.pk, guest, deck_name="Crawlers", deck=list(BLACK_RED))
    else:
        with mock.patch.object(lifecycle, "new_secret_seed", return_value=seed):
            services.join_game(game.pk, guest, deck_name="Crawlers", deck=list(BLACK_RED))
    game.refresh_from_db()
    return game


def position_text(name: str) -> str:
    return (POSITIONS / name).read_text(encoding="utf-8")


def start_position(host: Player, guest: Player, name: str) -> Game:
    return start_from_text(host, guest, position_text(name), name)


def start_from_text(host: Player, guest: Player, text: str, name: str = "position.yaml") -> Game:
    """A game started from a scenario file's text (a position file edited by the test)."""
    scenario = services.check_scenario(text, name)
    game = services.create_game(host, scenario=scenario)
    services.join_game(game.pk, guest)
    game.refresh_from_db()
    return game


def pending(game: Game):
    game.refresh_from_db()
    with services.reading(game) as engine:
        return engine.pending


def option_id(game: Game, label: str) -> str:
    d = pending(game)
    for o in d.options:
        if o.label == label:
            return o.id
    raise AssertionError(f"no option {label!r}; options: {[o.label for o in d.options]}")


def answer(game: Game, player: Player, label: str | list[str]) -> Game:
    """Answer by label(s) as `player`, at the game's current version."""
    game.refresh_from_db()
    if isinstance(label, list):
        ids = [option_id(game, one) for one in label]
        services.submit_answer(game.pk, player, ids, version=game.version)
    else:
        services.submit_answer(game.pk, player, option_id(game, label), version=game.version)
    game.refresh_from_db()
    return game


def passes(game: Game, player: Player) -> Game:
    """`player` passes priority for as long as they are the one asked: the pace feature stops a
    player holding cards whenever the opponent puts something on the stack (engine/stops.py)."""
    game.refresh_from_db()
    while (d := pending(game)) is not None and (d.player, d.kind) == (
        seat_name(game, player),
        "priority",
    ):
        game = answer(game, player, "pass")
    return game


def seat_name(game: Game, player: Player) -> str:
    return game.seats.get(player=player).engine_name
