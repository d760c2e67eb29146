"""Glicko-2 ratings (services/ratings.py): the library against Glickman's worked example, a rated
game's end updating both players exactly as the library computes, once, however it ended; what
is not rated; and what the profile and the leaderboard show."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

import pytest
from glicko2.math import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi, update_rating

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.models import Game, Player, RatingChange
from game.services import glicko, ratings

from .helpers import make_player, start_game

T0 = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def test_the_library_reproduces_glickmans_example():
    """ "Example of the Glicko-2 system" (Glickman): a 1500 / 200 / 0.06 player beats a 1400 / 30
    and loses to a 1550 / 100 and a 1700 / 300 in one rating period, with tau 0.5. The paper,
    rounding its intermediate values, gets r' = 1464.06, RD' = 151.52, sigma' = 0.05999; carried
    through unrounded the same steps give 1464.0507 and sigma' 0.0599960 (the paper cuts it to
    five decimals), hence the tolerances: a hundredth of a point, a hundred-thousandth."""
    opponents = [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)]
    new = update_rating(
        rating_to_mu(1500),
        rd_to_phi(200),
        0.06,
        [(rating_to_mu(r), rd_to_phi(rd), s) for r, rd, s in opponents],
        tau=0.5,
    )
    assert mu_to_rating(new.mu) == pytest.approx(1464.06, abs=0.015)
    assert phi_to_rd(new.phi) == pytest.approx(151.52, abs=0.005)
    assert new.sigma == pytest.approx(0.05999, abs=0.00001)


def test_the_librarys_volatility_solves_glickmans_equation_away_from_1500_too():
    """Glickman's example has the player at 1500 (mu = 0), where an implementation that puts
    mu^2 for phi^2 in step 5's f(x) still gets it right (the `glicko2` package on PyPI does so,
    which is why it is not the one used). Away from 1500 the new volatility must still be a root
    of f (steps 3-5), and the new deviation and rating follow from it (steps 6-7)."""
    mu, phi, sigma, tau = rating_to_mu(2200), rd_to_phi(60), 0.06, 0.5
    games = [(rating_to_mu(1400), rd_to_phi(60), 0.0)] * 10
    new = update_rating(mu, phi, sigma, games, tau=tau)

    def g(p: float) -> float:
        return 1 / math.sqrt(1 + 3 * p * p / math.pi**2)

    def e(mj: float, pj: float) -> float:
        return 1 / (1 + math.exp(-g(pj) * (mu - mj)))

    v = 1 / sum(g(pj) ** 2 * e(mj, pj) * (1 - e(mj, pj)) for mj, pj, _ in games)
    delta = v * sum(g(pj) * (s - e(mj, pj)) for mj, pj, s in games)
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    assert abs(f(math.log(new.sigma**2))) < 1e-5
    phi_star = math.sqrt(phi**2 + new.sigma**2)
    assert new.phi == pytest.approx(1 / math.sqrt(1 / phi_star**2 + 1 / v), rel=1e-12)
    gain = sum(g(pj) * (s - e(mj, pj)) for mj, pj, s in games)
    assert new.mu == pytest.approx(mu + new.phi**2 * gain, rel=1e-12)
    assert new.sigma > sigma  # ten surprising losses: more volatile


def test_one_game_is_one_rating_period_of_the_library_with_our_tau():
    own, other = ratings.Glicko(1500, 350, 0.06), ratings.Glicko(1700, 80, 0.05)
    lib = update_rating(
        rating_to_mu(1500),
        rd_to_phi(350),
        0.06,
        [(rating_to_mu(1700), rd_to_phi(80), 1.0)],
        tau=glicko.TAU,
    )
    assert ratings.updated(own, other, 1.0) == ratings.Glicko(
        mu_to_rating(lib.mu), phi_to_rd(lib.phi), lib.sigma
    )


def rated_game(a: Player, b: Player) -> Game:
    services.play_now(
        a,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        time_control=services.PRESETS[0],
        rated=True,
        at=T0,
    )
    game = services.play_now(
        b,
        deck_name="Crawlers",
        deck=list(BLACK_RED),
        time_control=services.PRESETS[0],
        rated=True,
        at=T0,
    )
    assert isinstance(game, Game) and game.rated
    return game


def expected(a: Player, b: Player, score_a: float) -> tuple[ratings.Glicko, ratings.Glicko]:
    ga, gb = ratings.of(a), ratings.of(b)
    return ratings.updated(ga, gb, score_a), ratings.updated(gb, ga, 1 - score_a)


def assert_rated(player: Player, want: ratings.Glicko, games: int) -> None:
    player.refresh_from_db()
    assert (player.rating, player.rating_deviation, player.rating_volatility) == (
        want.rating,
        want.deviation,
        want.volatility,
    )
    assert player.rated_games == games


@pytest.mark.django_db
def test_a_concession_moves_both_ratings_as_the_library_computes_once(alice, bob):
    game = rated_game(alice, bob)
    want_alice, want_bob = expected(alice, bob, 1.0)  # bob concedes
    services.concede(game.pk, bob)
    assert_rated(alice, want_alice, 1)
    assert_rated(bob, want_bob, 1)
    assert alice.rating > 1500 > bob.rating
    rows = {c.player_id: c for c in RatingChange.objects.filter(game=game)}
    assert rows[alice.pk].score == 1.0 and rows[bob.pk].score == 0.0
    assert rows[alice.pk].rating_before == 1500 and rows[alice.pk].opponent == bob
    # Idempotent: asking again (a second commit, a retry) changes nothing.
    game.refresh_from_db()
    seats = list(game.seats.select_related("player"))
    assert ratings.record_result(game, seats, T0) == []
    assert_rated(alice, want_alice, 1)
    assert RatingChange.objects.filter(game=game).count() == 2
    # The rated rematch: a second rating period, from the ratings the first left.
    services.rematch(game.pk, alice)
    rematch = services.rematch(game.pk, bob)
    assert rematch.rated
    alice.refresh_from_db()
    bob.refresh_from_db()
    want_alice2, want_bob2 = expected(alice, bob, 0.0)  # now alice concedes
    services.concede(rematch.pk, alice)
    assert_rated(alice, want_alice2, 2)
    assert_rated(bob, want_bob2, 2)


@pytest.mark.django_db
def test_a_time_loss_and_a_claimed_win_are_rated_too(alice, bob, settings):
    carol, dan = make_player("carol"), make_player("dan")
    # A clock at zero.
    services.play_now(
        alice,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        time_control=services.TimeControl.clock(1, 0),
        rated=True,
        at=T0,
    )
    game = services.play_now(
        bob,
        deck_name="Crawlers",
        deck=list(BLACK_RED),
        time_control=services.TimeControl.clock(1, 0),
        rated=True,
        at=T0,
    )
    game.refresh_from_db()
    loser = game.seats.get(engine_name=game.deciding).player
    winner = bob if loser == alice else alice
    want_winner, want_loser = expected(winner, loser, 1.0)
    assert services.check_time(game.pk, at=T0 + timedelta(seconds=61)) is True
    assert services.check_time(game.pk, at=T0 + timedelta(seconds=62)) is False
    assert_rated(winner, want_winner, 1)
    assert_rated(loser, want_loser, 1)
    # An abandonment claimed.
    settings.VENTURE_ABANDON_SECONDS = 120
    game = rated_game(carol, dan)
    want_carol, want_dan = expected(carol, dan, 1.0)
    # dan never connected: his absence counts from the start of the game (T0).
    services.claim_win(game.pk, carol, at=T0 + timedelta(seconds=121))
    assert_rated(carol, want_carol, 1)
    assert_rated(dan, want_dan, 1)


@pytest.mark.django_db
def test_casual_invite_and_computer_games_are_not_rated(alice, bob):
    game = start_game(alice, bob)  # an invite link
    assert not game.rated
    services.concede(game.pk, bob)
    services.play_now(
        alice,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        time_control=services.PRESETS[0],
        rated=False,
        at=T0,
    )
    casual = services.play_now(
        bob,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        time_control=services.PRESETS[0],
        rated=False,
        at=T0,
    )
    assert not casual.rated
    services.concede(casual.pk, alice)
    vs_computer = services.create_computer_game(
        alice,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        level="easy",
        computer_deck_name="Crawlers",
        computer_deck=list(BLACK_RED),
    )
    assert not vs_computer.rated
    services.concede(vs_computer.pk, alice)
    for p in (alice, bob):
        p.refresh_from_db()
        assert (p.rating, p.rating_deviation, p.rated_games) == (1500, 350, 0)
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_the_profile_shows_rating_history_and_results_by_opponent(client, alice, bob):
    game = rated_game(alice, bob)
    services.concede(game.pk, bob)
    casual = start_game(alice, bob)
    services.concede(casual.pk, alice)
    vs_computer = services.create_computer_game(
        alice,
        deck_name="Varis",
        deck=list(GREEN_WHITE_VARIS),
        level="easy",
        computer_deck_name="Crawlers",
        computer_deck=list(BLACK_RED),
    )
    services.concede(vs_computer.pk, alice)  # not a result against a person
    alice.refresh_from_db()
    page = client.get(f"/players/{alice.pk}/").content.decode()
    assert len(re.findall(r'<tr class="opponent-row">', page)) == 1
    shown = re.search(r'class="rating-value">([^<]+)<', page)[1]
    assert shown == f"{round(alice.rating)}?"  # one game: still provisional
    assert f">{round(alice.rating_deviation)}</span> (deviation)" in page
    assert 'id="rating-chart"' in page and "<polyline" in page
    assert "after game 1, against bob" in page
    row = re.search(r'<tr class="opponent-row">(.*?)</tr>', page, re.S)[1]
    cells = re.findall(r'<td class="num">([^<]*)<', row)
    assert cells[:5] == ["2", "1", "0", "1", "1"]  # games, won, drawn, lost, rated
    assert f"+{round(alice.rating - 1500)}" in row
    # A guest's profile shows no rating.
    guest = make_player("ann", guest=True)
    assert "rating-value" not in client.get(f"/players/{guest.pk}/").content.decode()


@pytest.mark.django_db
def test_the_leaderboard_lists_active_rated_players_best_first_with_provisional_marked(
    client, alice, bob
):
    carol = make_player("carol")
    Player.objects.filter(pk=carol.pk).update(
        rating=1900, rating_deviation=60, last_rated=T0 - timedelta(days=40)
    )  # not active: her last rated game was 40 days ago
    Player.objects.filter(pk=alice.pk).update(
        rating=1720.4, rating_deviation=80, last_rated=datetime.now(UTC)
    )
    Player.objects.filter(pk=bob.pk).update(
        rating=1610, rating_deviation=180, last_rated=datetime.now(UTC)
    )
    page = client.get("/leaderboard/").content.decode()
    names = re.findall(r'<a href="/players/\d+/">([^<]+)</a>', page)
    assert names == ["alice", "bob"]
    assert re.findall(r'<td class="num rating">([^<]+)</td>', page) == ["1720", "1610?"]
