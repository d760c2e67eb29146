"""The computer opponent as the services see it: a game against it is an ordinary game (stored,
logged, replayed exactly, rematched), its answers go through the same checks as a person's and
are applied once however many times a turn is handed out, and a decision nobody answered is
found again (docs/architecture.md, "The computer opponent")."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from game import services
from game.ai.answers import safe_answer
from game.decks import BLACK_RED, GREEN_WHITE_VARIS, STARTER_DECKS
from game.engine.bot import random_answer
from game.models import ActionReceipt, Game, GameAction, Player
from game.runtime import thinking
from game.services import lifecycle

from .helpers import make_player, pending


def start_against_computer(player: Player, level: str = "easy", seed: int = 5) -> Game:
    with mock.patch.object(lifecycle, "new_secret_seed", return_value=seed):
        game = services.create_computer_game(
            player,
            deck_name="Varis",
            deck=list(GREEN_WHITE_VARIS),
            level=level,
            computer_deck_name="Crawlers",
            computer_deck=list(BLACK_RED),
        )
    game.refresh_from_db()
    return game


def computer_answers(game: Game) -> int:
    """Answer every decision the computer has pending, as a server or a worker would (without
    the delay); returns how many answers were applied."""
    applied = 0
    while (turn := services.computer_turn(game.pk)) is not None:
        assert services.answer_for_computer(turn, thinking.think(turn.job))
        applied += 1
    return applied


def test_the_computer_is_one_player_per_level_that_nobody_logs_in_as(db):
    easy = services.computer_player("easy")
    assert services.computer_player("easy") == easy
    hard = services.computer_player("hard")
    assert hard != easy
    assert (easy.display_name, hard.display_name) == ("Computer (Easy)", "Computer (Hard)")
    assert easy.is_computer and not easy.user.has_usable_password()
    with pytest.raises(services.ActionRefused):
        services.computer_player("grandmaster")


def test_a_game_against_the_computer_starts_at_once_with_the_computer_seated(alice):
    game = start_against_computer(alice, "medium")
    assert game.status == Game.ACTIVE
    seats = list(game.seats.select_related("player").order_by("position"))
    assert seats[0].player == alice
    assert seats[1].player.computer_level == "medium" and seats[1].deck_name == "Crawlers"
    assert isinstance(game.setup["computer_secret"], int)


def test_a_whole_game_against_the_computer_replays_exactly(alice):
    """Alice answers at random, the computer through its service, until the game ends; the
    stored log replays to the same final state, and every answer of the computer is in the log
    once, with its action id."""
    game = start_against_computer(alice, "easy")
    rng = random.Random(3)
    computer_total = 0
    for step in range(3000):
        computer_total += computer_answers(game)
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        if step % 40 == 0:
            services.clear_engine_cache()  # some actions start from a replay
        d = pending(game)
        assert d.player == game.seats.get(player=alice).engine_name
        for _ in range(20):
            try:
                services.submit_answer(game.pk, alice, random_answer(d, rng), version=game.version)
                break
            except services.ActionRefused as e:
                assert e.code == "illegal", e.message
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner
    assert game.computer_since is None
    computer = game.seats.get(player__computer_level="easy")
    mine = GameAction.objects.filter(game=game, seat=computer, auto=False)
    assert computer_total > 5 and mine.count() == computer_total
    assert all(a.client_action_id == f"computer.{a.index}" for a in mine)
    with services.reading(game) as engine:
        final = engine.state_json()
    services.clear_engine_cache()
    with services.reading(game) as engine:
        assert engine.state_json() == final


def test_a_turn_handed_out_twice_is_applied_once(alice):
    game = start_against_computer(alice)
    while services.computer_turn(game.pk) is None:  # Alice passes until the computer decides
        d = pending(game)
        game.refresh_from_db()
        services.submit_answer(
            game.pk,
            alice,
            "pass" if d.kind == "priority" else random_answer(d, random.Random(0)),
            version=game.version,
        )
    first = services.computer_turn(game.pk)
    second = services.computer_turn(game.pk)  # another worker took the same message
    assert first == second
    assert first.owner_id == alice.pk  # whose share of the thinking it is
    a, b = thinking.think(first.job), thinking.think(second.job)
    assert a == b  # the same seed: the same answer
    assert services.answer_for_computer(first, a) is True
    version = Game.objects.get(pk=game.pk).version
    assert services.answer_for_computer(second, b) is False  # a repeat: refused, nothing changes
    assert Game.objects.get(pk=game.pk).version == version
    assert ActionReceipt.objects.filter(game=game, action_id=first.action_id).count() == 1
    assert GameAction.objects.filter(game=game, client_action_id=first.action_id).count() == 1


def test_an_illegal_answer_from_the_brain_becomes_the_smallest_legal_one(alice):
    game = start_against_computer(alice)
    computer_answers(game)
    while services.computer_turn(game.pk) is None:
        game.refresh_from_db()
        d = pending(game)
        services.submit_answer(
            game.pk, alice, random_answer(d, random.Random(1)), version=game.version
        )
    turn = services.computer_turn(game.pk)
    with mock.patch("game.ai.checked.decide", return_value="no-such-option"):
        answer = thinking.think(turn.job)
    d = pending(game)
    assert answer == safe_answer(d)
    assert services.answer_for_computer(turn, answer)


def test_the_computer_is_always_present_so_nobody_claims_a_win_against_it(alice):
    game = start_against_computer(alice)
    later = timezone.now() + timedelta(hours=1)
    with pytest.raises(services.ActionRefused) as refused:
        services.claim_win(game.pk, alice, at=later)
    assert refused.value.code == "present"


def test_a_decision_nobody_answered_is_found_again_and_claimed_once(alice):
    game = start_against_computer(alice)
    while services.computer_turn(game.pk) is None:
        game.refresh_from_db()
        d = pending(game)
        services.submit_answer(
            game.pk, alice, random_answer(d, random.Random(2)), version=game.version
        )
    game.refresh_from_db()
    assert game.computer_since is not None
    assert services.pending_turns() == [game.pk]
    assert services.overdue_turns(older_than=30) == []  # just handed out
    later = game.computer_since + timedelta(seconds=31)
    assert services.overdue_turns(older_than=30, at=later) == [game.pk]
    assert services.overdue_turns(older_than=30, at=later) == []  # claimed: one server hands it
    computer_answers(game)
    assert services.pending_turns() == []


def test_a_rematch_against_the_computer_seats_it_again(alice):
    game = start_against_computer(alice, "hard")
    services.concede(game.pk, alice)
    new = services.rematch(game.pk, alice)
    seats = list(new.seats.select_related("player").order_by("position"))
    assert [s.player.computer_level for s in seats] == ["", "hard"]
    assert new.status == Game.ACTIVE and isinstance(new.setup["computer_secret"], int)


def test_a_player_runs_at_most_three_games_against_the_computer_at_once(alice, bob):
    """The computer's thinking is shared between players: a fourth running game is refused
    with a message, by every way of starting one; a game that ends makes room, and another
    player's games are their own."""
    games = [start_against_computer(alice, level) for level in ("easy", "medium", "hard")]
    with pytest.raises(services.ActionRefused) as refused:
        start_against_computer(alice)
    assert refused.value.code == "computer_games"
    assert "3 games against the computer in progress" in refused.value.message
    assert Game.objects.filter(seats__player=alice).count() == 3  # nothing was made
    start_against_computer(bob)  # bob's share is his own
    services.concede(games[0].pk, alice)
    fourth = start_against_computer(alice)  # a finished game makes room
    # A rematch of the finished game, a fourth running game, is refused too.
    with pytest.raises(services.ActionRefused) as refused:
        services.rematch(games[0].pk, alice)
    assert refused.value.code == "computer_games"
    assert not Game.objects.filter(rematch_of=games[0]).exists()
    services.concede(fourth.pk, alice)
    assert services.rematch(games[0].pk, alice).status == Game.ACTIVE


def test_the_limit_of_games_against_the_computer_is_a_setting(alice, settings):
    settings.VENTURE_COMPUTER_GAMES_PER_PLAYER = 1
    start_against_computer(alice)
    with pytest.raises(services.ActionRefused) as refused:
        start_against_computer(alice, "hard")
    assert "1 game against the computer in progress" in refused.value.message


def test_playing_on_from_a_replay_against_the_computer_counts_towards_the_limit(
    alice, bob, settings
):
    from .replay_helpers import played_game

    settings.VENTURE_COMPUTER_GAMES_PER_PLAYER = 1
    game, _ = played_game(alice, bob, seed=30, answers=60)
    at = services.timeline(game, alice).nearest_writable(50)
    running = start_against_computer(alice)
    with pytest.raises(services.ActionRefused) as refused:
        services.play_on(game.pk, alice, at, level="easy")
    assert refused.value.code == "computer_games"
    assert services.play_on(game.pk, alice, at).status == Game.OPEN  # against a friend: no limit
    services.concede(running.pk, alice)
    assert services.play_on(game.pk, alice, at, level="easy").status == Game.ACTIVE


# the pages ---------------------------------------------------------------------------------------
def login(client, player: Player) -> None:
    client.force_login(player.user)


def test_the_lobby_offers_the_computer_and_starts_a_game_against_it(client, alice):
    login(client, alice)
    html = client.get("/").content.decode()
    assert 'id="play-computer"' in html and "Play the computer" in html
    response = client.post(
        "/games/computer/",
        {
            "computer-deck": "Varis (green-white)",
            "computer-computer_deck": "__random__",
            "computer-level": "medium",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    computer = game.seats.get(position=1)
    assert computer.player.computer_level == "medium" and computer.deck_name in STARTER_DECKS
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Computer (Medium)" in page and "computer · Medium" in page


def test_the_lobby_form_says_why_a_fourth_game_against_the_computer_does_not_start(client, alice):
    login(client, alice)
    form = {
        "computer-deck": "Varis (green-white)",
        "computer-computer_deck": "__random__",
        "computer-level": "hard",
    }
    for _ in range(3):
        assert client.post("/games/computer/", form).status_code == 302
    response = client.post("/games/computer/", form)
    html = response.content.decode()
    assert response.status_code == 200 and 'id="play-computer"' in html
    assert "3 games against the computer in progress" in html
    assert "finish or concede one of them" in html
    assert Game.objects.count() == 3


def test_a_bad_level_is_refused_on_the_form_and_starts_nothing(client, alice):
    login(client, alice)
    response = client.post(
        "/games/computer/",
        {
            "computer-deck": "Varis (green-white)",
            "computer-computer_deck": "__random__",
            "computer-level": "godlike",
        },
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()


def test_the_profile_lists_games_against_the_computer_apart(client, alice, bob):
    from .helpers import start_game

    people = start_game(alice, bob)
    services.concede(people.pk, bob)
    computer_game = start_against_computer(alice)
    services.concede(computer_game.pk, alice)
    context = client.get(f"/players/{alice.pk}/").context
    assert [r["game"] for r in context["rows"]] == [people]
    assert [r["game"] for r in context["computer_rows"]] == [computer_game]
    assert (context["finished"], context["wins"]) == (1, 1)
    assert (context["computer_finished"], context["computer_wins"]) == (1, 0)
    html = client.get(f"/players/{alice.pk}/").content.decode()
    assert "Computer (Easy)" in html[html.index('id="computer-games"') :]


# where it thinks -------------------------------------------------------------------------------
def test_a_thinking_process_catches_its_copy_up_or_replays_when_the_log_is_not_its_own(alice):
    """The copy a thinking process keeps of a game follows the log it is given: a longer log is
    applied on top of it, a log that is not a continuation (an answer refused after all) makes
    it replay the game from its setup; either way the answer is the one a fresh process gives."""
    game = start_against_computer(alice)
    for _ in range(3):
        computer_answers(game)
        game.refresh_from_db()
        d = pending(game)
        services.submit_answer(
            game.pk, alice, random_answer(d, random.Random(4)), version=game.version
        )
    computer_answers(game)
    while services.computer_turn(game.pk) is None:
        game.refresh_from_db()
        d = pending(game)
        services.submit_answer(
            game.pk, alice, random_answer(d, random.Random(6)), version=game.version
        )
    turn = services.computer_turn(game.pk)
    kept = thinking.COPIES.get(turn.job.key)
    assert kept is not None and len(kept.answers) < len(turn.job.answers)  # behind: caught up
    answer = thinking.think(turn.job)
    thinking.COPIES.clear()
    assert thinking.think(turn.job) == answer  # a fresh process: the same answer
    # A copy one answer ahead with an answer the log does not have: replayed, same answer.
    assert len(thinking.COPIES.get(turn.job.key).answers) == len(turn.job.answers) + 1
    assert thinking.think(turn.job) == answer


# The database is allowed, not used: the pool's thread closes stale connections around every
# call (channels' database_sync_to_async), and a thread that served an earlier test holds one.
@pytest.mark.django_db
def test_the_computer_answers_no_sooner_than_the_delay_after_its_decision_came_up(settings):
    """`play_turn` waits out VENTURE_COMPUTER_DELAY_SECONDS from the moment the decision came
    up (thinking included), and no longer once that moment is past."""
    import time

    from game import computer_turns

    settings.VENTURE_COMPUTER_DELAY_SECONDS = 2.0
    answered: list[float] = []

    def turn_since(seconds_ago: float) -> services.Turn:
        since = timezone.now() - timedelta(seconds=seconds_ago)
        return services.Turn(job=None, game_id=1, version=3, player_id=1, since=since)

    async def think(job) -> str:
        return "pass"

    def answer(turn, value) -> bool:
        answered.append(time.monotonic())
        return True

    # Bounds far apart: this checks the waiting, not how fast anything runs.
    for seconds_ago, least, most in ((0.0, 1.9, 10.0), (5.0, 0.0, 1.5)):
        with (
            mock.patch.object(services, "computer_turn", return_value=turn_since(seconds_ago)),
            mock.patch.object(services, "answer_for_computer", side_effect=answer),
        ):
            started = time.monotonic()
            assert asyncio.run(computer_turns.play_turn(1, think)) is True
        assert least <= answered[-1] - started <= most


END_STEP_POSITION = """
name: The computer may act at the end of Alice's turn
players: [alice, bob]
turn: {number: 4, active: alice, step: postcombat_main}
setup:
  alice:
    library: [Plains, Plains]
    battlefield: [Plains]
  bob:
    hand: [Magic Missile]
    library: [Swamp, Swamp]
    battlefield: [Mountain, Mountain, Mountain]
"""


def _after_alices_main_2(alice: Player, opponent: Player) -> tuple[str, str, int]:
    """Who is asked first, in which step and turn, in END_STEP_POSITION against `opponent`
    (Alice has nothing to do in her main 2: it passes for her)."""
    start = services.check_scenario(END_STEP_POSITION, "end.yaml")
    game = services.create_game(alice, scenario=start)
    game = services.join_game(game.pk, opponent)
    d = pending(game)
    with services.reading(game) as engine:
        return d.player, engine.state.step, engine.state.turn


def test_the_computer_is_asked_at_the_other_players_end_step(alice, bob):
    """Medium and Hard cast flash creatures and instants at the other player's end step
    (docs/ai.md), so the computer stops there; a person is not stopped there by default."""
    computer = services.computer_player("medium")
    assert _after_alices_main_2(alice, computer) == ("Computer (Medium)", "end", 4)
    assert _after_alices_main_2(alice, bob) == ("bob", "precombat_main", 5)


def test_the_thinking_is_shared_round_robin_between_players():
    """One thought at a time: alice has five waiting, bob two that came after them. Bob's go
    in turn with hers, his first since she was just served (first come, first served, they
    waited behind all five)."""
    from game.runtime.round_robin import RoundRobin

    started: list[str] = []

    async def play() -> list[str]:
        gate = asyncio.Event()

        async def work(item: str) -> str:
            started.append(item)
            if item == "a1":
                await gate.wait()
            return item.upper()

        shared = RoundRobin(1, work)
        waits = [asyncio.create_task(shared.run("alice", f"a{i}")) for i in range(1, 6)]
        await asyncio.sleep(0)
        waits += [asyncio.create_task(shared.run("bob", f"b{i}")) for i in (1, 2)]
        await asyncio.sleep(0)
        gate.set()
        return await asyncio.gather(*waits)

    assert asyncio.run(play()) == ["A1", "A2", "A3", "A4", "A5", "B1", "B2"]
    assert started == ["a1", "b1", "a2", "b2", "a3", "a4", "a5"]


def test_the_shared_thinking_runs_as_many_at_once_as_it_has_slots_and_drops_abandoned_ones():
    from game.runtime.round_robin import RoundRobin

    running, most, started = 0, 0, []

    async def work(item: int) -> int:
        nonlocal running, most
        started.append(item)
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)
        running -= 1
        if item == 3:
            raise ValueError("a thought that fails")
        return item

    async def play() -> list:
        shared = RoundRobin(2, work)
        waits = [asyncio.create_task(shared.run(n % 3, n)) for n in range(9)]
        await asyncio.sleep(0)
        waits[8].cancel()  # its socket closed: it never runs
        return await asyncio.gather(*waits, return_exceptions=True)

    results = asyncio.run(play())
    assert most == 2 and 8 not in started and sorted(started) == list(range(8))
    assert isinstance(results[3], ValueError) and isinstance(results[8], asyncio.CancelledError)
    assert [r for n, r in enumerate(results) if n not in (3, 8)] == [0, 1, 2, 4, 5, 6, 7]


def test_a_server_shares_its_thinking_between_the_people_the_computer_plays(settings):
    """The server's runner keys the shared thinking by the person each game is against: the
    crowd's turns came first, bob's single one goes next after the one running."""
    from game import computer_turns

    settings.VENTURE_COMPUTER_PROCESSES = 1
    started: list[int] = []

    async def play() -> None:
        gate = asyncio.Event()

        async def think(job) -> str:
            started.append(job)
            if len(started) == 1:
                await gate.wait()
            return "pass"

        with mock.patch.object(computer_turns, "think_in_child", think):
            runner = computer_turns.ServerRunner(asyncio.get_running_loop())

        def turn(game: int, owner: int) -> services.Turn:
            # The job stands for itself here: the fake thinking records which game it was.
            return services.Turn(
                job=game, game_id=game, version=1, player_id=99, since=None, owner_id=owner
            )

        waits = [asyncio.create_task(runner.think(turn(game, owner=1))) for game in range(1, 6)]
        await asyncio.sleep(0)
        waits.append(asyncio.create_task(runner.think(turn(6, owner=2))))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(*waits)

    asyncio.run(play())
    assert started == [1, 6, 2, 3, 4, 5]


def computer_to_decide(player: Player, seed: int) -> Game:
    """A new game against the computer, played by `player` (passing) until the computer decides."""
    game = start_against_computer(player, seed=seed)
    while services.computer_turn(game.pk) is None:
        game.refresh_from_db()
        d = pending(game)
        answer = "pass" if d.kind == "priority" else random_answer(d, random.Random(0))
        services.submit_answer(game.pk, player, answer, version=game.version)
    game.refresh_from_db()
    return game


def test_workers_take_the_waiting_turns_round_robin_between_the_people_the_computer_plays(
    alice, bob
):
    """Alice's three turns came first and Bob's one last: a worker takes one of Alice's, then
    Bob's (he has not been served), then the rest of Alice's, each once."""
    games = [computer_to_decide(alice, seed) for seed in (5, 6, 7)] + [computer_to_decide(bob, 8)]
    start = timezone.now() - timedelta(seconds=10)
    for n, game in enumerate(games):  # handed out in this order
        Game.objects.filter(pk=game.pk).update(computer_since=start + timedelta(seconds=n))
    a1, a2, a3, b1 = (g.pk for g in games)
    taken = [services.take_turn(at=start + timedelta(seconds=5 + n)) for n in range(5)]
    assert taken == [a1, b1, a2, a3, None]  # None: every waiting turn is taken, once
    # Turns taken and not answered in time (their workers died) are released by the watch, all
    # four handed out again at one instant: Bob was served longest ago, then Alice's oldest.
    later = start + timedelta(seconds=60)
    assert set(services.overdue_turns(older_than=30, at=later)) == {a1, a2, a3, b1}
    again = [services.take_turn(at=later + timedelta(seconds=n)) for n in range(5)]
    assert again == [b1, a1, a2, a3, None]


@pytest.mark.django_db(transaction=True)
def test_a_worker_woken_for_one_game_thinks_for_the_turn_next_in_line():
    """A message names the game whose turn was handed out, but the worker takes the turn next in
    turn round-robin: Bob's, though the message is for Alice's game, as Alice was served last."""
    from game import computer_turns
    from game.models import ComputerShare

    alice, bob = make_player("alice"), make_player("bob")
    hers, his = computer_to_decide(alice, 5), computer_to_decide(bob, 8)
    ComputerShare.objects.create(player=alice, served=timezone.now())
    played: list[int] = []

    async def play(game_id: int, think) -> bool:
        played.append(game_id)
        return True

    with mock.patch.object(computer_turns, "play_turn", play):
        consumer = computer_turns.ComputerConsumer()
        asyncio.run(consumer.computer_turn({"type": "computer.turn", "game": hers.pk}))
    assert played == [his.pk]
    assert Game.objects.get(pk=his.pk).computer_taken == his.version
    assert Game.objects.get(pk=hers.pk).computer_taken is None  # left for the next message
