"""The benchmarks' database side: players with sessions and started games, written straight into
the servers' database (the benchmark's process runs Django with the servers' settings).
Shared by bench/latency.py, bench/soak.py and bench/spectators.py."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any


class World:
    """Players with sessions and started games, written straight into the servers' database
    (this process runs Django with the servers' settings)."""

    DECKS = ("Varis (green-white)", "Crawlers (black-red)", "The initiative (white-black)")

    def __init__(self, seed: int) -> None:
        from game import services
        from game.decks import STARTER_DECKS

        self.services = services
        self.decks = STARTER_DECKS
        self.rng = random.Random(seed)
        self.players = 0

    def player(self) -> tuple[Any, str]:
        """A new guest player and the Cookie header of a logged-in session."""
        from django.conf import settings
        from django.contrib.auth import (
            BACKEND_SESSION_KEY,
            HASH_SESSION_KEY,
            SESSION_KEY,
            get_user_model,
        )
        from django.contrib.sessions.backends.db import SessionStore

        from game.models import Player

        self.players += 1
        user = get_user_model().objects.create_user(username=f"bot-{self.players}")
        user.set_unusable_password()
        user.save()
        player = Player.objects.create(user=user, display_name=f"Bot {self.players}", is_guest=True)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        # A browser also carries the CSRF cookie; the server then puts a token in every form.
        csrf = "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))
        return player, (
            f"{settings.SESSION_COOKIE_NAME}={session.session_key}; "
            f"{settings.CSRF_COOKIE_NAME}={csrf}"
        )

    def game(self, host: Any, guest: Any, *, played: int = 0) -> tuple[str, int]:
        """A started game between `host` and `guest`; with `played`, its log is first filled
        with that many random answers (a game well under way). Returns (code, version)."""
        from game.models import Game

        for _ in range(20):
            a, b = self.rng.sample(self.DECKS, 2)
            game = self.services.create_game(host, deck_name=a, deck=list(self.decks[a]))
            self.services.join_game(game.pk, guest, deck_name=b, deck=list(self.decks[b]))
            game = Game.objects.get(pk=game.pk)
            if not played or self._play(game, played):
                return game.code, Game.objects.get(pk=game.pk).version
        raise RuntimeError(f"no random game lasted {played} answers in 20 tries")

    def _play(self, game: Any, answers: int) -> bool:
        """Random answers until the log holds `answers`, stored as the servers would store
        them; False if the game ended first (or would end within 150 answers)."""
        from django.db import transaction

        from game.engine.bot import random_answer
        from game.engine.decisions import IllegalAnswer
        from game.engine.game import replay
        from game.models import GameAction

        with self.services.reading(game) as cached:
            engine = replay(cached.setup, cached.answers)
        start = len(engine.answers)
        while len(engine.answers) < answers and engine.pending is not None:
            d = engine.pending
            try:
                engine.answer(d.player, random_answer(d, self.rng))
            except IllegalAnswer:
                engine.answer(d.player, [] if d.multi else d.options[0].id)
        if engine.pending is None:
            return False
        # Will it last? A throwaway copy plays on; a game that ends at once is no "late" game.
        probe = replay(engine.setup, engine.answers)
        rng = random.Random(self.rng.random())
        for _ in range(150):
            d = probe.pending
            if d is None:
                return False
            try:
                probe.answer(d.player, random_answer(d, rng))
            except IllegalAnswer:
                probe.answer(d.player, [] if d.multi else d.options[0].id)
        seats = {s.engine_name: s for s in game.seats.all()}
        with transaction.atomic():
            GameAction.objects.bulk_create(
                GameAction(game=game, index=i, seat=seats[who], answer=answer)
                for i, (who, answer) in enumerate(engine.answers[start:], start)
            )
            game.version = len(engine.answers)
            game.turn = engine.state.turn
            game.deciding = engine.pending.player
            game.save(update_fields=["version", "turn", "deciding"])
        self.services.clear_engine_cache()
        return True

    def replay_ms(self, answers: int = 1000, repeat: int = 5) -> tuple[float, int]:
        """Median time to rebuild a game from a log of about `answers` answers in the
        database (the cost of a cache miss), normalised to exactly `answers`."""
        from game.models import Game

        host, _ = self.player()
        guest, _ = self.player()
        code, version = self.game(host, guest, played=answers)
        game = Game.objects.get(code=code)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            self.services.replay_game(game)
            times.append(time.perf_counter() - start)
        return statistics.median(times) * answers / version * 1000, version
