"""Glicko-2 ratings: who may play rated, updating both players when a rated game ends, and what
the profile and the leaderboard read.

The arithmetic is the library's, through glicko.py (the one call every rating the site keeps
goes through), not ours. Each rated game is a rating period of its own, as on Lichess: when it
ends, each player's rating, deviation and volatility are updated from that one result against the
opponent's rating and deviation from before the game. A new player starts at 1500 / 350 / 0.06
(Glickman's values); the system constant is glicko.TAU.

When: `store.commit` calls `record_result` in the transaction that writes the result, whatever
ended the game (a win on the table, a concession, a time loss, a claimed win after an
abandonment). Once: only on the change to finished, and a `RatingChange` row per player and game
is unique, so a second call changes nothing. The two players' rows are locked in the order of
their ids, so two games ending at once for the same player update it one after the other, and
never in a deadlock.

Rated games are those paired by Play now between two accounts with a password (seeks.py) and
their rematches; casual games, games from an invite link and games against the computer are not
rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, F, Q, Sum

from game.models import Game, Player, RatingChange, Seat

from . import glicko

# A rating whose deviation is above this is provisional: shown with a "?", as Lichess does.
PROVISIONAL_RD = 110.0
# The leaderboard lists players with a rated game in this many days.
ACTIVE_DAYS = 30


def may_play_rated(player: Player) -> bool:
    """An account with a password: not a guest, nor the computer."""
    if player.is_computer or player.is_guest:
        return False
    return player.user.has_usable_password()


@dataclass(frozen=True, slots=True)
class Glicko:
    rating: float
    deviation: float
    volatility: float


def of(player: Player) -> Glicko:
    return Glicko(player.rating, player.rating_deviation, player.rating_volatility)


def updated(own: Glicko, opponent: Glicko, score: float) -> Glicko:
    """One rating period with one game: `own` after scoring `score` (1, 0.5, 0) against
    `opponent`, as the library computes it."""
    return Glicko(
        *glicko.update(
            own.rating,
            own.deviation,
            own.volatility,
            [(opponent.rating, opponent.deviation, score)],
        )
    )


def record_result(game: Game, seats: list[Seat], at: datetime) -> list[RatingChange]:
    """Update both players of a finished rated game, once. Call inside the transaction that
    stores the result, with the game's row locked."""
    if not game.rated or game.status != Game.FINISHED or len(seats) != 2:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    ids = sorted(s.player_id for s in seats)
    players = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")
    }
    before = {pk: of(p) for pk, p in players.items()}
    changes = []
    for seat in seats:
        other = next(s for s in seats if s is not seat)
        score = _score(game.winner, seat.engine_name)
        new = updated(before[seat.player_id], before[other.player_id], score)
        old = before[seat.player_id]
        player = players[seat.player_id]
        player.rating, player.rating_deviation = new.rating, new.deviation
        player.rating_volatility = new.volatility
        player.rated_games += 1
        player.last_rated = at
        player.save(
            update_fields=[
                "rating",
                "rating_deviation",
                "rating_volatility",
                "rated_games",
                "last_rated",
            ]
        )
        changes.append(
            RatingChange(
                player=player,
                game=game,
                opponent_id=other.player_id,
                score=score,
                rating_before=old.rating,
                deviation_before=old.deviation,
                volatility_before=old.volatility,
                rating_after=new.rating,
                deviation_after=new.deviation,
                volatility_after=new.volatility,
                at=at,
            )
        )
    return RatingChange.objects.bulk_create(changes)


def _score(winner: str, engine_name: str) -> float:
    if winner == "draw":
        return 0.5
    return 1.0 if winner == engine_name else 0.0


# What pages read -------------------------------------------------------------------------------
def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_RD


def shown(rating: float, deviation: float) -> str:
    """A rating as a page shows it: whole points, "?" after a provisional one ("1500?")."""
    return f"{round(rating)}{'?' if is_provisional(deviation) else ''}"


def history(player: Player) -> list[RatingChange]:
    """The player's rated games, oldest first, with their opponents."""
    return list(
        RatingChange.objects.filter(player=player).select_related("opponent", "game").order_by("at")
    )


@dataclass(frozen=True)
class OpponentResults:
    opponent: Player
    played: int
    won: int
    drawn: int
    lost: int
    rated: int
    rating_change: float  # over the rated games against this opponent


def results_by_opponent(player: Player) -> list[OpponentResults]:
    """Each person the player finished a game against: games, won, drawn, lost (rated or not),
    how many were rated and what those did to the player's rating; most games first."""
    seats = Seat.objects.filter(player=player, game__status=Game.FINISHED).exclude(
        game__seats__player__computer_level__gt=""
    )
    won = Q(game__winner=F("engine_name")) & ~Q(game__winner="draw")
    rows = (
        Seat.objects.filter(game__in=seats.values("game"))
        .exclude(player=player)
        .values("player")
        .annotate(
            played=Count("pk"),
            # From this side: the opponent's seat won is a loss for the player.
            lost=Count("pk", filter=won),
            drawn=Count("pk", filter=Q(game__winner="draw")),
            rated=Count("pk", filter=Q(game__rated=True)),
        )
    )
    changes = dict(
        RatingChange.objects.filter(player=player)
        .values("opponent")
        .annotate(total=Sum("rating_after") - Sum("rating_before"))
        .values_list("opponent", "total")
    )
    opponents = Player.objects.in_bulk([r["player"] for r in rows])
    out = [
        OpponentResults(
            opponent=opponents[r["player"]],
            played=r["played"],
            won=r["played"] - r["lost"] - r["drawn"],
            drawn=r["drawn"],
            lost=r["lost"],
            rated=r["rated"],
            rating_change=changes.get(r["player"]) or 0.0,
        )
        for r in rows
    ]
    out.sort(key=lambda r: (-r.played, r.opponent.display_name.lower()))
    return out


def leaderboard(at: datetime, limit: int = 100) -> list[Player]:
    """Players with a rated game in the last ACTIVE_DAYS days, best rating first."""
    since = at - timedelta(days=ACTIVE_DAYS)
    return list(
        Player.objects.filter(last_rated__gte=since, is_guest=False, computer_level="").order_by(
            "-rating", "display_name"
        )[:limit]
    )
