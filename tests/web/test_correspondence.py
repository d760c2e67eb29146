"""Correspondence games: days per move as a time control of Play now, the deadline each answer
restarts, the claim once the days are out, the "Your turn" list and its JSON for the
notifications, and the turn mail with its way out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from game import services
from game.decks import BLACK_RED, GREEN_WHITE_VARIS
from game.models import Connection, Game, Player, Seek
from game.services import turn_mail
from game.services.errors import ActionRefused

from .helpers import make_player, option_id, pending, start_position

DAYS3 = services.TimeControl.correspondence(3)


def _seek(player: Player, tc, at, deck=GREEN_WHITE_VARIS):
    return services.play_now(
        player, deck_name="a deck", deck=list(deck), time_control=tc, rated=False, at=at
    )


def _paired(alice: Player, bob: Player, at) -> Game:
    assert isinstance(_seek(alice, DAYS3, at), Seek)
    game = _seek(bob, DAYS3, at + timedelta(seconds=5), deck=BLACK_RED)
    assert isinstance(game, Game)
    return game


def _decider(game: Game) -> tuple[Player, Player]:
    """(who must decide now, the other)."""
    name = pending(game).player
    seats = list(game.seats.select_related("player"))
    mine = next(s for s in seats if s.engine_name == name)
    other = next(s for s in seats if s.pk != mine.pk)
    return mine.player, other.player


def _answer_first_option(game: Game, player: Player, at) -> Game:
    game.refresh_from_db()
    option = pending(game).options[0].id
    services.submit_answer(game.pk, player, option, version=game.version, at=at)
    game.refresh_from_db()
    return game


def _hand_over(game: Game, player: Player, at) -> Game:
    """`player` answers (the first option each time) until the other player must decide."""
    for _ in range(10):
        game = _answer_first_option(game, player, at)
        if _decider(game)[0] != player:
            return game
    raise AssertionError("the decision never passed to the other player")


@pytest.fixture
def now():
    return timezone.now()


# the time control --------------------------------------------------------------------------------
def test_the_days_left_read_as_a_person_says_them():
    text = services.correspondence.days_text
    assert text(3 * 86400) == text(3 * 86400 - 30) == "3 days"  # a move just made
    assert text(86400 + 3 * 3600 - 59) == "1 day 3 h"
    assert text(86400 - 10) == "1 day"
    assert text(5 * 3600 + 12 * 60 - 30) == "5 h 12 min"
    assert text(2 * 3600) == "2 h"
    assert (text(30), text(0)) == ("1 min", "no time")


def test_days_per_move_are_time_controls_with_keys_that_read_back():
    for days in (1, 2, 3, 7):
        tc = services.TimeControl.correspondence(days)
        assert services.TimeControl.from_key(f"days:{days}") == tc
        assert tc.game_fields() == {"clock_seconds": 0, "clock_increment": 0, "days_per_move": days}
    assert services.TimeControl.correspondence(1).label == "1 day per move"
    assert DAYS3.label == "3 days per move"
    for bad in ("days:0", "days:5", "days:14", "days:", "days:3x"):
        with pytest.raises(ActionRefused):
            services.TimeControl.from_key(bad)


@pytest.mark.django_db
def test_a_correspondence_seek_pairs_only_with_the_same_days_and_waits_while_its_player_is_away(
    alice, bob, now
):
    carol = make_player("carol")
    assert isinstance(_seek(alice, DAYS3, now), Seek)
    assert isinstance(_seek(carol, services.TimeControl.correspondence(1), now), Seek)
    # An hour later nobody has polled either seek: a live seek would be gone, these wait.
    later = now + timedelta(hours=1)
    assert {s.player for s in services.open_seeks(later)} == {alice, carol}
    game = _seek(bob, DAYS3, later, deck=BLACK_RED)
    assert isinstance(game, Game)
    assert {s.player for s in game.seats.all()} == {alice, bob}
    assert (game.days_per_move, game.clock_seconds) == (3, 0)
    assert game.clock_since == later  # the first decision's days count from the start
    # Alice, back at the lobby a day later, is sent to her game.
    assert services.check_seek(alice, at=later + timedelta(days=1)) == game
    # Carol's seek is gone once it has not been looked at for a week.
    assert services.check_seek(carol, at=now + timedelta(days=8)) is None


# the deadline and the claim ----------------------------------------------------------------------
@pytest.mark.django_db
def test_each_answer_gives_the_next_decision_its_days_and_the_other_claims_once_they_are_out(
    alice, bob, now
):
    game = _paired(alice, bob, now)
    first, second = _decider(game)
    t1 = now + timedelta(days=2)
    game = _answer_first_option(game, first, t1)
    assert game.clock_since == t1
    late, waiting = _decider(game)
    assert services.correspondence.seconds_left(game, t1 + timedelta(days=1)) == 2 * 86400
    # Too soon; and the one whose turn it is has nothing to claim.
    with pytest.raises(ActionRefused, match="left to answer") as refused:
        services.claim_win(game.pk, waiting, at=t1 + timedelta(days=2, hours=23))
    assert refused.value.code == "too_soon"
    with pytest.raises(ActionRefused, match="not .* turn"):
        services.claim_win(game.pk, late, at=t1 + timedelta(days=4))
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    # Out of days: the claim ends the game.
    services.claim_win(game.pk, waiting, at=t1 + timedelta(days=3, seconds=1))
    game.refresh_from_db()
    late_name = game.seats.get(player=late).engine_name
    waiting_name = game.seats.get(player=waiting).engine_name
    assert game.status == Game.FINISHED and game.winner == waiting_name
    assert game.end_reason == (
        f"{late_name} did not answer within 3 days; {waiting_name} claimed the win"
    )


@pytest.mark.django_db
def test_a_player_late_but_not_yet_claimed_against_may_still_answer(alice, bob, now):
    game = _paired(alice, bob, now)
    first, _ = _decider(game)
    game = _answer_first_option(game, first, now + timedelta(days=5))
    assert game.status == Game.ACTIVE and game.clock_since == now + timedelta(days=5)


@pytest.mark.django_db
def test_being_away_is_no_reason_to_claim_in_a_game_of_days(alice, bob, now, settings):
    settings.VENTURE_ABANDON_SECONDS = 1
    game = _paired(alice, bob, now)
    decider, other = _decider(game)
    # The deciding player never connected; the other may not claim before the days are out.
    with pytest.raises(ActionRefused, match="left to answer"):
        services.claim_win(game.pk, other, at=now + timedelta(hours=5))
    seats = list(game.seats.select_related("player"))
    timing = services.timings(game, seats, now + timedelta(hours=5))
    assert all(t.absent_since is None for t in timing.values())
    deciding = next(s for s in seats if s.player == decider)
    assert timing[deciding.pk].answer_in == pytest.approx(3 * 86400 - 5 * 3600, abs=6)


@pytest.mark.django_db
def test_a_pace_change_gives_the_deciding_player_no_new_days(alice, bob, now):
    game = _paired(alice, bob, now)
    _, other = _decider(game)
    game.refresh_from_db()
    since = game.clock_since
    services.set_pace(
        game.pk, other, pass_until="", version=game.version, at=now + timedelta(days=1)
    )
    game.refresh_from_db()
    assert game.clock_since == since


# what the players see ----------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_board_tells_each_player_the_days_left_and_offers_the_claim_once_they_are_out(
    client, alice, bob, now
):
    game = _paired(alice, bob, now - timedelta(hours=2))
    decider, other = _decider(game)
    client.force_login(decider.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Your turn: you have <strong>2 days 23 h</strong> to answer (3 days per move)" in page
    client.force_login(other.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{decider.display_name} has <strong>2 days 23 h</strong> to answer" in page
    assert 'id="claim-win"' not in page
    Game.objects.filter(pk=game.pk).update(clock_since=now - timedelta(days=3, minutes=1))
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{decider.display_name} did not answer within 3 days." in page
    assert 'id="claim-win"' in page
    client.force_login(decider.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Your time to answer is out" in page and 'id="claim-win"' not in page


@pytest.mark.django_db
def test_your_turn_lists_only_the_games_waiting_for_you(client, alice, bob, now):
    game = _paired(alice, bob, now - timedelta(minutes=1))
    services.arrived(game, alice)  # else her lobby sends her to the game her seek found
    decider, other = _decider(game)
    client.force_login(decider.user)
    lobby = client.get(reverse("lobby")).content.decode()
    assert 'id="your-turn-list"' in lobby and game.get_absolute_url() in lobby
    data = client.get(reverse("turns_json")).json()
    assert [t["url"] for t in data["turns"]] == [game.get_absolute_url()]
    assert data["turns"][0]["opponent"] == other.display_name
    assert data["turns"][0]["left"] == "3 days"
    client.force_login(other.user)
    assert client.get(reverse("turns_json")).json()["turns"] == []
    assert 'id="no-turns"' in client.get(reverse("your_turns")).content.decode()
    client.logout()
    assert client.get(reverse("turns_json")).json()["turns"] == []


# the turn mail -----------------------------------------------------------------------------------
def _wants_mail(player: Player, address: str) -> None:
    player.turn_mail = True
    player.save(update_fields=["turn_mail"])
    player.user.email = address
    player.user.save(update_fields=["email"])


@pytest.mark.django_db(transaction=True)
def test_a_mail_tells_a_player_away_from_the_table_that_it_is_their_turn(now):
    alice, bob = make_player("alice"), make_player("bob")
    _wants_mail(alice, "alice@example.com")
    _wants_mail(bob, "bob@example.com")
    game = _paired(alice, bob, now)
    turn_mail.flush()
    first, second = _decider(game)
    # The game's start handed the first decision out: that player was told.
    assert [m.to for m in mail.outbox] == [[first.user.email]]
    mail.outbox.clear()
    game = _hand_over(game, first, now + timedelta(minutes=1))
    turn_mail.flush()
    decider, _ = _decider(game)
    assert decider == second
    [sent] = mail.outbox
    assert sent.to == [second.user.email]
    assert sent.subject == f"Venture: your turn against {first.display_name}"
    assert f"http://127.0.0.1:8000{game.get_absolute_url()}" in sent.body
    off = sent.extra_headers["List-Unsubscribe"].strip("<>")
    assert off in sent.body
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


@pytest.mark.django_db(transaction=True)
def test_no_mail_to_a_player_at_the_table_nor_to_one_who_did_not_ask_nor_in_a_live_game(now):
    alice, bob = make_player("alice"), make_player("bob")
    game = _paired(alice, bob, now)
    first, second = _decider(game)
    _wants_mail(second, "second@example.com")
    seat = game.seats.get(player=second)
    Connection.objects.create(seat=seat, channel_name="open.tab", last_seen=timezone.now())
    _hand_over(game, first, now + timedelta(minutes=1))
    turn_mail.flush()
    assert mail.outbox == []  # at the table: the page shows it
    assert not turn_mail.mail_turn(game.pk, game.seats.get(player=first).pk)  # did not ask
    # A live game between the same players mails nobody.
    live = services.TimeControl.untimed()
    _seek(alice, live, now)
    other = _seek(bob, live, now, deck=BLACK_RED)
    assert isinstance(other, Game) and not other.is_correspondence
    turn_mail.flush()
    assert mail.outbox == []


@pytest.mark.django_db
def test_a_guest_gets_no_mail_and_cannot_ask_for_one(client, now):
    guest = make_player("Guest", guest=True)
    guest.turn_mail = True
    guest.save()
    guest.user.email = "guest@example.com"
    guest.user.save()
    assert not turn_mail.may_get_mail(guest)
    client.force_login(guest.user)
    client.post(reverse("turn_mail_settings"), {"turn_mail": "on", "email": "g@example.com"})
    guest.user.refresh_from_db()
    assert guest.user.email == "guest@example.com"
    assert (
        "Mails are for accounts with a password" in client.get(reverse("account")).content.decode()
    )


@pytest.mark.django_db
def test_the_account_page_turns_the_mails_on_with_an_address_and_off(client, alice):
    client.force_login(alice.user)
    refused = client.post(reverse("turn_mail_settings"), {"turn_mail": "on", "email": ""})
    assert refused.status_code == 400
    assert "Give the address the mails go to." in refused.content.decode()
    alice.refresh_from_db()
    assert not alice.turn_mail
    bad = client.post(reverse("turn_mail_settings"), {"turn_mail": "on", "email": "x" * 300})
    assert bad.status_code == 400
    client.post(reverse("turn_mail_settings"), {"turn_mail": "on", "email": "a@example.com"})
    alice.refresh_from_db()
    assert alice.turn_mail and alice.user.email == "a@example.com"
    client.post(reverse("turn_mail_settings"), {"email": "a@example.com"})
    alice.refresh_from_db()
    assert not alice.turn_mail


@pytest.mark.django_db
def test_the_mails_link_stops_them_with_one_button_and_a_forged_one_changes_nothing(client, alice):
    _wants_mail(alice, "alice@example.com")
    url = reverse("turn_mail_off", args=[turn_mail.unsubscribe_token(alice)])
    page = client.get(url)  # a mail scanner opening the link changes nothing
    assert page.status_code == 200 and 'id="turn-mail-off-button"' in page.content.decode()
    alice.refresh_from_db()
    assert alice.turn_mail
    for forged in (
        turn_mail.unsubscribe_token(alice)[:-2] + "xx",
        "1:abc",
        "y" * 5000,
    ):
        response = client.post(reverse("turn_mail_off", args=[forged]))
        assert response.status_code == 404 and "This link is not valid" in response.content.decode()
    alice.refresh_from_db()
    assert alice.turn_mail
    # The one-click POST of a mail program, without a CSRF token.
    strict = client.__class__(enforce_csrf_checks=True)
    done = strict.post(url, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and 'id="turn-mail-off-done"' in done.content.decode()
    alice.refresh_from_db()
    assert not alice.turn_mail


@pytest.mark.django_db
def test_a_takeback_accepted_gives_the_asker_the_full_days_for_the_decision_again(alice, bob, now):
    game = start_position(alice, bob, "takeback_table.yaml")
    Game.objects.filter(pk=game.pk).update(days_per_move=2, clock_since=now)
    game.refresh_from_db()
    t1, t2 = now + timedelta(days=1), now + timedelta(days=1, hours=5)
    services.submit_answer(
        game.pk, alice, option_id(game, "play Forest"), version=game.version, at=t1
    )
    game.refresh_from_db()
    assert game.clock_since == t1
    services.ask_takeback(game.pk, alice, version=game.version, at=t1)
    game.refresh_from_db()
    services.reply_takeback(game.pk, bob, accept=True, version=game.version, at=t2)
    game.refresh_from_db()
    assert game.deciding == "alice" and game.clock_since == t2
    assert services.correspondence.seconds_left(game, t2) == 2 * 86400


@pytest.mark.django_db
def test_a_game_with_a_friend_may_be_a_correspondence_game_but_not_with_a_clock_too(client, alice):
    client.force_login(alice.user)
    form = {"deck": "Varis (green-white)", "clock_minutes": "0", "days_per_move": "7"}
    response = client.post(reverse("create_game"), form)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert (game.days_per_move, game.clock_seconds) == (7, 0)
    for bad in ({"clock_minutes": "10", "days_per_move": "3"}, {"days_per_move": "5"}):
        refused = client.post(reverse("create_game"), {**form, **bad})
        assert refused.status_code == 200 and Game.objects.count() == 1
        assert 'class="errors"' in refused.content.decode()
    with pytest.raises(ActionRefused):
        services.create_game(alice, deck_name="V", deck=list(GREEN_WHITE_VARIS), days_per_move=4)
