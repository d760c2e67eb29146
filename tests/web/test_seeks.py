"""Quick pairing (services/seeks.py): which seeks match, the rating window that widens with
waiting, cancelling and leaving, and no seek paired twice when many pair at once (on PostgreSQL
under `make test-postgresql`, on SQLite otherwise)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.utils import timezone

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.models import Game, Player, Seek
from game.services import seeks
from game.services.errors import ActionRefused

from .helpers import make_player

UNTIMED = services.TimeControl.untimed()
CLOCK = services.TimeControl.clock(20, 10)
T0 = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def seek(player: Player, tc=UNTIMED, *, rated: bool = False, when: float = 0, deck=None):
    return services.play_now(
        player,
        deck_name="Varis",
        deck=list(deck or GREEN_WHITE_VARIS),
        time_control=tc,
        rated=rated,
        at=at(when),
    )


@pytest.mark.django_db
def test_two_matching_seeks_are_put_into_one_started_game(alice, bob):
    waiting = seek(alice, CLOCK, rated=True)
    assert isinstance(waiting, Seek)
    assert [s.player for s in services.open_seeks(at(1))] == [alice]
    game = services.play_now(
        bob, deck_name="Crawlers", deck=list(BLACK_RED), time_control=CLOCK, rated=True, at=at(3)
    )
    assert isinstance(game, Game)
    assert game.status == Game.ACTIVE and game.rated
    assert (game.clock_seconds, game.clock_increment) == (1200, 10)
    seats = list(game.seats.order_by("position"))
    assert [s.player for s in seats] == [alice, bob]  # the one who waited sits first
    assert [s.deck_name for s in seats] == ["Varis", "Crawlers"]
    assert list(seats[1].deck) == list(BLACK_RED)
    # Bob was sent to the game at once; alice's polls send her there until she opens it (a
    # poll that set off before her page left must not send her back to the lobby).
    assert not Seek.objects.filter(player=bob).exists()
    assert services.open_seeks(at(4)) == []
    assert services.check_seek(alice, at=at(4)) == game
    assert services.check_seek(alice, at=at(5)) == game
    services.arrived(game, alice)
    assert services.check_seek(alice, at=at(6)) is None


@pytest.mark.django_db
def test_seeks_pair_only_with_the_same_time_control_and_mode(alice, bob):
    carol, dan = make_player("carol"), make_player("dan")
    assert isinstance(seek(alice, UNTIMED), Seek)
    assert isinstance(seek(bob, CLOCK), Seek)  # another time control
    assert isinstance(seek(carol, UNTIMED, rated=True), Seek)  # rated, alice casual
    assert isinstance(seek(dan, services.TimeControl.clock(20, 5)), Seek)  # another increment
    assert len(services.open_seeks(at(1))) == 4
    eve = make_player("eve")
    game = seek(eve, services.TimeControl.clock(20, 10), when=2)
    assert isinstance(game, Game)
    assert {s.player for s in game.seats.all()} == {bob, eve}
    assert services.TimeControl.clock(0, 30) == UNTIMED  # 0 minutes is no clock, as on New game


@pytest.mark.django_db
def test_a_player_never_pairs_with_their_own_seek_which_a_new_one_replaces(alice):
    seek(alice, UNTIMED)
    again = seek(alice, UNTIMED, when=1)
    assert isinstance(again, Seek)
    assert Seek.objects.filter(player=alice).count() == 1
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_guests_pair_in_casual_games_only(alice):
    ann = make_player("ann", guest=True)
    ben = make_player("ben", guest=True)
    with pytest.raises(ActionRefused) as refused:
        seek(ann, rated=True)
    assert refused.value.code == "rated_needs_account"
    assert not Seek.objects.exists()
    assert services.may_play_rated(alice) and not services.may_play_rated(ann)
    seek(ann)
    game = seek(ben, when=1)
    assert isinstance(game, Game) and not game.rated
    # An account whose password was made unusable is no longer one that may play rated.
    alice.user.set_unusable_password()
    alice.user.save()
    alice.refresh_from_db()
    assert not services.may_play_rated(alice)


@pytest.mark.django_db
def test_the_rating_window_widens_with_waiting():
    assert services.rating_window(0) == 100
    assert services.rating_window(4) == 200
    assert services.rating_window(10) == 350
    assert services.rating_window(59.9) == pytest.approx(1597.5)
    assert services.rating_window(60) == float("inf")


@pytest.mark.django_db
def test_far_apart_ratings_wait_until_the_window_has_widened(alice, bob):
    Player.objects.filter(pk=bob.pk).update(rating=1800.0)
    bob.refresh_from_db()
    seek(alice, when=0)
    assert isinstance(seek(bob, when=0), Seek)  # 300 apart, both windows ±100
    # At 7 s alice's window is ±275: still not; at 8 s it is ±300, and her poll pairs them.
    assert isinstance(services.check_seek(alice, at=at(7)), Seek)
    game = services.check_seek(alice, at=at(8))
    assert isinstance(game, Game)
    assert services.check_seek(bob, at=at(9)) == game


@pytest.mark.django_db
def test_the_closest_rating_is_preferred_then_the_longest_waiting(alice, bob):
    carol, dan = make_player("carol"), make_player("dan")
    Player.objects.filter(pk=alice.pk).update(rating=1500.0)
    Player.objects.filter(pk=bob.pk).update(rating=1580.0)
    Player.objects.filter(pk=carol.pk).update(rating=1580.0)
    Player.objects.filter(pk=dan.pk).update(rating=1570.0)
    for p in (alice, bob, carol, dan):
        p.refresh_from_db()
    seek(alice, when=0)
    seek(bob, when=10)  # alice's window is ±350 by now: they pair
    assert Game.objects.count() == 1
    seek(carol, when=20)
    game = seek(dan, when=21)  # only carol is waiting
    assert {s.player for s in game.seats.all()} == {carol, dan}
    # Two waiting at 1420 and 1560, a newcomer at 1570: the closer one, though newer.
    ed, fay, gus = make_player("ed"), make_player("fay"), make_player("gus")
    Player.objects.filter(pk=ed.pk).update(rating=1420.0)
    Player.objects.filter(pk=fay.pk).update(rating=1560.0)
    Player.objects.filter(pk=gus.pk).update(rating=1570.0)
    for p in (ed, fay, gus):
        p.refresh_from_db()
    seek(ed, CLOCK, when=30)
    seek(fay, CLOCK, when=31)  # 140 from ed: neither window (±125, ±100) is wide enough yet
    assert Game.objects.count() == 2
    game = seek(gus, CLOCK, when=32.5)  # ed (150 away, his window ±162.5) fits, fay is closer
    assert {s.player for s in game.seats.all()} == {fay, gus}


@pytest.mark.django_db
def test_a_cancelled_seek_is_gone_from_the_list_and_is_not_paired(alice, bob):
    seek(alice)
    assert services.cancel_seek(alice) is None
    assert services.open_seeks(at(1)) == []
    assert isinstance(seek(bob, when=1), Seek)
    assert services.check_seek(alice, at=at(2)) is None
    # Cancelled too late: the game is returned, the player goes to it.
    game = seek(alice, when=3)
    assert isinstance(game, Game)
    seek(make_player("carol"), when=4)
    Seek.objects.filter(player__display_name="carol").delete()
    assert services.cancel_seek(bob) == game


@pytest.mark.django_db
def test_a_seek_whose_player_left_is_neither_listed_nor_paired_nor_revived(alice, bob):
    ttl = seeks.SEEK_TTL_SECONDS
    seek(alice, when=0)
    services.check_seek(alice, at=at(10))  # her page polls: alive until 10 s + ttl
    assert [s.player for s in services.open_seeks(at(9 + ttl))] == [alice]
    # Her computer went to sleep at 10 s: a moment after 10 s + ttl the seek is not listed, and
    # a newcomer waits rather than be paired with someone who is gone.
    assert services.open_seeks(at(11 + ttl)) == []
    assert isinstance(seek(bob, when=11 + ttl), Seek)
    assert not Seek.objects.filter(player=alice).exists()  # the newcomer's seek swept it away
    # Coming back later does not revive it.
    carol = make_player("carol")
    seek(carol, when=0)
    assert services.check_seek(carol, at=at(ttl + 1)) is None
    assert not Seek.objects.filter(player=carol).exists()


@pytest.mark.django_db
def test_the_seek_is_refused_without_a_deck_or_for_the_computer(alice):
    with pytest.raises(ActionRefused):
        services.play_now(alice, deck_name="", deck=[], time_control=UNTIMED, rated=False)
    with pytest.raises(ActionRefused):
        seek(services.computer_player("easy"))
    assert not Seek.objects.exists()


def test_a_time_control_is_one_key_that_reads_back():
    for tc in (*services.PRESETS, services.TimeControl.clock(7, 0)):
        assert services.TimeControl.from_key(tc.key) == tc
    assert services.TimeControl.from_key("clock:20+10").label == "20 min + 10 s"
    for bad in ("clock:999+1", "days:x", "clock:5", "", "clock:181+0"):
        with pytest.raises(ActionRefused):
            services.TimeControl.from_key(bad)


# pairing under a race ---------------------------------------------------------------------------
def _together(jobs: list) -> list[BaseException]:
    """Run the jobs in threads released at the same instant, each on its own connection."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job) -> None:
        try:
            barrier.wait()
            job()
        except BaseException as e:
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_an_older_seek_polled_while_a_younger_one_is_held_pairs_with_it():
    """Two seeks that missed each other, polled at the same instant: the younger's poll holds
    its row while the older's poll runs. The older waits for it and pairs (on PostgreSQL each
    used to skip the other's locked row, at every poll, for as long as their polls coincided)."""
    old, young = make_player("old"), make_player("young")
    for p, when in ((old, 0), (young, 1)):
        Seek.objects.create(
            player=p,
            time_control=UNTIMED.key,
            rated=False,
            deck_name="Varis",
            deck=list(GREEN_WHITE_VARIS),
            rating=p.rating,
            created=at(when),
            last_seen=at(when),
        )
    held = threading.Event()
    results: list = []

    def younger_poll() -> None:
        try:
            with transaction.atomic():
                list(Seek.objects.select_for_update().filter(player=young))
                held.set()
                time.sleep(0.5)  # the older's poll runs meanwhile
        finally:
            connection.close()

    def older_poll() -> None:
        try:
            held.wait(10)
            results.append(services.check_seek(old, at=at(2)))
        finally:
            connection.close()

    threads = [threading.Thread(target=younger_poll), threading.Thread(target=older_poll)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    close_old_connections()
    assert len(results) == 1 and isinstance(results[0], Game)
    assert {s.player_id for s in results[0].seats.all()} == {old.pk, young.pk}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_many_seeks_at_once_pair_every_seek_at_most_once():
    """Twelve players press Play now at the same instant, then their pages poll at the same
    instants: every game has two different players, nobody is in two games, and once the polls
    have run everybody is paired (two seeks that missed each other's first insert pair at the
    next poll). On PostgreSQL this is `select_for_update(skip_locked=True)` at work."""
    players = [make_player(f"p{i}") for i in range(12)]
    now = timezone.now()

    def press(p: Player):
        return lambda: services.play_now(
            p,
            deck_name="Varis",
            deck=list(GREEN_WHITE_VARIS),
            time_control=CLOCK,
            rated=True,
            at=now,
        )

    assert _together([press(p) for p in players]) == []
    for round_ in range(1, 6):
        polls = [
            (lambda p=p, r=round_: services.check_seek(p, at=now + timedelta(seconds=r)))
            for p in players
        ]
        assert _together(polls) == []
    close_old_connections()
    games = list(Game.objects.prefetch_related("seats"))
    seated = [s.player_id for g in games for s in g.seats.all()]
    assert all(len({s.player_id for s in g.seats.all()}) == 2 for g in games)
    assert len(seated) == len(set(seated)), "a player was paired twice"
    assert sorted(seated) == sorted(p.pk for p in players)
    assert len(games) == 6 and all(g.rated and g.status == Game.ACTIVE for g in games)
    # What is left are paired seeks, each sending its player to the game they sit in.
    for s in Seek.objects.all():
        assert s.game is not None and s.game.seats.filter(player=s.player).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_one_waiting_seek_raced_for_by_many_goes_to_one_of_them():
    """One seek waits; eight players press Play now at the same instant, on as many
    connections: exactly one of them gets it, the others wait (and pair among themselves)."""
    host = make_player("host")
    seek(host, when=0)
    others = [make_player(f"r{i}") for i in range(8)]
    now = at(1)
    results: dict[int, object] = {}

    def press(p: Player):
        def job() -> None:
            results[p.pk] = services.play_now(
                p,
                deck_name="Varis",
                deck=list(GREEN_WHITE_VARIS),
                time_control=UNTIMED,
                rated=False,
                at=now,
            )

        return job

    assert _together([press(p) for p in others]) == []
    close_old_connections()
    with_host = Game.objects.filter(seats__player=host)
    assert with_host.count() == 1
    games = list(Game.objects.prefetch_related("seats"))
    seated = [s.player_id for g in games for s in g.seats.all()]
    assert len(seated) == len(set(seated))
    assert sum(isinstance(r, Game) for r in results.values()) == len(games)


# the pages ---------------------------------------------------------------------------------------
def post_seek(client, **fields):
    data = {"seek-deck": "Varis (green-white)", "seek-time_control": "untimed"}
    data.update({f"seek-{k}": v for k, v in fields.items()})
    data.setdefault("seek-mode", "casual")
    return client.post("/seek/", data)


@pytest.mark.django_db
def test_play_now_without_javascript_waits_in_the_lobby_then_is_sent_to_the_game(alice, bob):
    from django.test import Client

    a, b = Client(), Client()
    a.force_login(alice.user)
    b.force_login(bob.user)
    response = post_seek(a, time_control="custom", clock_minutes="7", clock_increment="3")
    assert response.status_code == 302 and response["Location"] == "/"
    lobby = a.get("/").content.decode()
    assert "Looking for an opponent" in lobby
    assert "7 min + 3 s · casual · Varis (green-white)" in lobby
    assert '<meta http-equiv="refresh" content="5">' in lobby  # inside <noscript>
    listed = b.get("/seeks/").content.decode()
    assert "alice" in listed and "7 min + 3 s" in listed
    response = post_seek(b, time_control="custom", clock_minutes="7", clock_increment="3")
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert (game.clock_seconds, game.clock_increment) == (420, 3)
    # Alice's page reloads itself: the lobby sends her to the game; once there, the lobby is
    # hers again.
    assert a.get("/")["Location"] == game.get_absolute_url()
    assert a.get(game.get_absolute_url()).status_code == 200
    lobby = a.get("/")
    assert lobby.status_code == 200 and "Looking for an opponent" not in lobby.content.decode()


@pytest.mark.django_db
def test_the_waiting_panels_poll_answers_htmx_with_a_redirect_once_paired(client, alice, bob):
    client.force_login(alice.user)
    post_seek(client)
    polled = client.post("/seek/status/", HTTP_HX_REQUEST="true")
    assert polled.status_code == 200 and 'id="seek-status"' in polled.content.decode()
    assert 'hx-trigger="every 2s, visibilitychange from:document"' in polled.content.decode()
    game = services.play_now(
        bob, deck_name="Varis", deck=list(GREEN_WHITE_VARIS), time_control=UNTIMED, rated=False
    )
    assert isinstance(game, Game)
    for _ in range(2):  # as often as it asks, until the page has opened the game
        polled = client.post("/seek/status/", HTTP_HX_REQUEST="true")
        assert polled.status_code == 204 and polled["HX-Redirect"] == game.get_absolute_url()
    assert client.get(game.get_absolute_url()).status_code == 200
    assert not Seek.objects.exists()
    # No seek any more (cancelled elsewhere, or expired): back to the lobby and its form.
    polled = client.post("/seek/status/", HTTP_HX_REQUEST="true")
    assert polled["HX-Redirect"] == "/"


@pytest.mark.django_db
def test_a_guest_asking_for_a_rated_game_is_told_why_and_nothing_is_sought(client):
    guest = make_player("ann", guest=True)
    client.force_login(guest.user)
    page = client.get("/").content.decode()
    assert "Rated games are for accounts with a password" in page
    response = post_seek(client, mode="rated")
    assert response.status_code == 400
    assert "Rated games are for accounts with a password" in response.content.decode()
    assert not Seek.objects.exists()
    response = post_seek(client, deck="__imported__", decklist="4 Forest")
    assert response.status_code == 400 and not Seek.objects.exists()
    assert "The deck has 4 cards; it needs at least 40." in response.content.decode()


@pytest.mark.django_db
def test_cancel_from_the_lobby(client, alice):
    client.force_login(alice.user)
    post_seek(client)
    assert client.post("/seek/cancel/")["Location"] == "/"
    assert not Seek.objects.exists()
    assert "Play now" in client.get("/").content.decode()


@pytest.mark.django_db
def test_forged_play_now_forms_are_refused_with_a_sentence_and_seek_nothing(client, alice):
    client.force_login(alice.user)
    cases = [
        ({"time_control": "clock:0+0"}, "Select a valid choice."),  # a key the form does not offer
        ({"time_control": "days:99"}, "Select a valid choice."),
        ({"time_control": "untimed' OR 1=1"}, "Select a valid choice."),
        (
            {"time_control": "custom", "clock_minutes": "100000", "clock_increment": "3"},
            "Ensure this value is less than or equal to 180.",
        ),
        (
            {"time_control": "custom", "clock_minutes": "-5", "clock_increment": "3"},
            "Ensure this value is greater than or equal to 0.",
        ),
        ({"mode": "ranked"}, "Select a valid choice."),
        ({"deck": "The best deck (all Black Lotus)"}, "Select a valid choice."),
        (
            {"deck": "__imported__", "decklist": "36 Forest\n4 Black Lotus"},
            "Line 2: unknown card &#x27;Black Lotus&#x27;.",
        ),
        ({"time_control": ""}, "This field is required."),
    ]
    for fields, sentence in cases:
        response = post_seek(client, **fields)
        page = response.content.decode()
        assert response.status_code == 400, fields
        assert sentence in page and 'id="play-now-panel"' in page, (fields, sentence)
    assert not Seek.objects.exists() and not Game.objects.exists()


@pytest.mark.django_db
def test_a_seek_is_always_the_senders_own_and_no_one_else_can_poll_or_cancel_it(alice, bob):
    from django.test import Client

    a, b, anonymous = Client(), Client(), Client()
    a.force_login(alice.user)
    b.force_login(bob.user)
    # A field naming another player is not one of the form's: the seek is the sender's.
    post_seek(b, player=str(alice.pk), player_id=str(alice.pk))
    (waiting,) = Seek.objects.all()
    assert waiting.player == bob
    # Alice, who has no seek, polls and cancels: she is sent to the lobby, bob's seek stays.
    assert a.post("/seek/status/", HTTP_HX_REQUEST="true")["HX-Redirect"] == "/"
    assert a.post("/seek/cancel/")["Location"] == "/"
    # Without a session, nothing is sought, polled or cancelled: the log-in page.
    for url in ("/seek/", "/seek/status/", "/seek/cancel/"):
        response = anonymous.post(url, {"seek-deck": "Varis (green-white)"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    # Play now only posts.
    assert b.get("/seek/").status_code == 405
    assert list(Seek.objects.values_list("player_id", "game_id")) == [(bob.pk, None)]
    assert not Game.objects.exists()


def _waiting_for_a_row_lock() -> bool:
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        return c.fetchone()[0] > 0


def _until(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the poll never came to wait"
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_a_candidate_found_paired_under_the_lock_is_let_go_before_the_next_is_tried():
    """The older seek's poll waits for a younger candidate that another transaction is pairing,
    finds it paired and goes on to the next candidate. PostgreSQL keeps the lock on a row it
    waited for even when the row is then not returned; held while the poll waits for the next
    candidate, that lock closed a cycle with the paired candidate's own poll (a deadlock seen
    with two servers). The attempt's savepoint gives it back."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite runs one writing transaction at a time")
    oldest, paired, free = make_player("oldest"), make_player("paired"), make_player("free")
    rows = {}
    # The paired candidate is the closer rating, so the poll tries it first.
    for p, when, rating in ((oldest, 0, 1500), (free, 1, 1550), (paired, 2, 1500)):
        rows[p.pk] = Seek.objects.create(
            player=p,
            time_control=UNTIMED.key,
            rated=False,
            deck_name="Varis",
            deck=list(GREEN_WHITE_VARIS),
            rating=rating,
            created=at(when),
            last_seen=at(when),
        ).pk
    elsewhere = Game.objects.create(created_by=paired)
    pairing, holding, release_free = threading.Event(), threading.Event(), threading.Event()
    results: list = []

    def other_server_pairs_it() -> None:
        try:
            with transaction.atomic():
                Seek.objects.select_for_update().filter(player=paired).update(game=elsewhere)
                pairing.set()
                _until(_waiting_for_a_row_lock)  # the poll waits for this row
        finally:
            connection.close()

    def free_one_is_held() -> None:
        try:
            with transaction.atomic():
                list(Seek.objects.select_for_update().filter(player=free))
                holding.set()
                release_free.wait(20)
        finally:
            connection.close()

    def older_poll() -> None:
        try:
            pairing.wait(10)
            holding.wait(10)
            results.append(services.check_seek(oldest, at=at(3)))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=f) for f in (other_server_pairs_it, free_one_is_held, older_poll)
    ]
    for t in threads:
        t.start()
    try:
        # The poll has let the paired seek go and now waits for the free one's row.
        _until(lambda: not threads[0].is_alive() and _waiting_for_a_row_lock())
        try:
            with transaction.atomic():
                list(Seek.objects.select_for_update(nowait=True).filter(pk=rows[paired.pk]))
        except DatabaseError:
            pytest.fail("the poll still holds the seek it found paired")
    finally:
        release_free.set()
        for t in threads:
            t.join(timeout=30)
        close_old_connections()
    assert len(results) == 1 and isinstance(results[0], Game)
    assert {s.player_id for s in results[0].seats.all()} == {oldest.pk, free.pk}
