"""Training games (docs/puzzles.md, "At the table"): a lesson or a puzzle played at the table
against the computer, its file's script played first, ended by the hook in store.commit when its
lesson or puzzle is decided, with the lesson's or the puzzle's words as the end reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import services
from game.models import Game, GameAction, Player
from game.puzzles.catalog import lesson, lessons
from game.services.computer_limit import running_computer_games
from game.services.training import give_up, start_lesson, start_puzzle, try_again
from learn.models import LessonDone, Puzzle, PuzzleAttempt, Training
from tests.web.helpers import make_player

from .helpers import computer_answers, walk

pytestmark = pytest.mark.django_db

UNSOUND = Path(__file__).parents[1] / "puzzles" / "unsound_power_word_kill.yaml"

# The learner's moves: a lesson's goal met, and (where the lesson has one) its mistake.
GOOD_AND_BAD = {
    "01_venture": (
        ["cast Kick in the Door", "Lost Mine of Phandelver"],
        ["cast Kick in the Door", "Tomb of Annihilation"],
    ),
    "02_fork": (
        ["activate Dungeon Map: {3}, {T}", "Goblin Lair"],
        ["activate Dungeon Map: {3}, {T}", "Mine Tunnels"],
    ),
    "03_complete": (["cast Keen-Eared Sentry"], None),
    "04_initiative": ([["Grizzled Outrider"]], None),
    "05_ward": (
        ["cast Power Word Kill", "Pay {1}"],
        ["cast Power Word Kill", "Don't pay: Power Word Kill is countered"],
    ),
    "06_divide": (
        ["1 to Yuan-Ti Fang-Blade, 4 to Undermountain Adventurer"],
        ["2 to Yuan-Ti Fang-Blade, 3 to Undermountain Adventurer"],
    ),
}


@pytest.fixture
def lea(db):
    return make_player("Lea")


def _training(game: Game) -> Training:
    return Training.objects.get(game=game)


def test_every_lesson_has_its_moves_here():
    assert sorted(GOOD_AND_BAD) == [found.slug for found in lessons()]


@pytest.mark.parametrize("slug", sorted(GOOD_AND_BAD))
def test_a_lesson_met_ends_the_game_with_its_done_words_and_marks_it_done(lea, slug):
    good, _ = GOOD_AND_BAD[slug]
    game = walk(start_lesson(lea, slug), lea, good)
    spec = lesson(slug).scenario.lesson
    assert game.status == Game.FINISHED
    assert game.winner == "Lea"
    assert game.end_reason == (spec.done_text or f"Done: {spec.goal_text}")
    assert _training(game).state == Training.SOLVED
    assert LessonDone.objects.filter(player=lea, lesson=slug).exists()
    # the concession that ended it is in the answer log, marked, so a replay ends the same way
    last = GameAction.objects.filter(game=game).order_by("-index").first()
    assert (last.answer, last.note) == ("!concede", "solved")
    services.clear_engine_cache()
    replayed = services.replay_game(game)
    assert replayed.state.winner == "Lea"
    assert any(
        "reached the goal: the lesson or puzzle is done" in line for line in replayed.state.log
    )


@pytest.mark.parametrize("slug", [s for s, (_, bad) in sorted(GOOD_AND_BAD.items()) if bad])
def test_a_lesson_mistake_ends_the_game_with_its_words(lea, slug):
    _, bad = GOOD_AND_BAD[slug]
    game = walk(start_lesson(lea, slug), lea, bad)
    spec = lesson(slug).scenario.lesson
    assert game.status == Game.FINISHED
    assert game.winner != "Lea"
    assert game.end_reason == spec.mistakes[0].say
    assert _training(game).state == Training.FAILED
    assert not LessonDone.objects.filter(player=lea, lesson=slug).exists()


def test_a_lesson_script_is_played_as_the_games_first_answers(lea):
    game = start_lesson(lea, "06_divide")
    training = _training(game)
    assert training.start > 0 and game.version >= training.start
    with services.reading(game) as engine:
        d = engine.pending
        assert (d.player, d.kind) == ("Lea", "assign_combat_damage")
        assert engine.state.player("Lea").name == "Lea"  # the file's "you" is the learner


def test_a_passive_lesson_partner_is_a_practice_partner_and_counts_for_no_cap(lea):
    game = start_lesson(lea, "02_fork")
    partner = game.seats.get(position=1)
    assert partner.player.computer_level == Player.EASY
    assert running_computer_games(lea) == 0


def test_starting_a_running_lesson_again_goes_back_to_it_and_try_again_starts_anew(lea):
    game = start_lesson(lea, "02_fork")
    assert start_lesson(lea, "02_fork") == game
    fresh = try_again(game.pk, lea)
    assert fresh != game and fresh.status == Game.ACTIVE
    game.refresh_from_db()
    assert game.status == Game.FINISHED and _training(game).state == Training.FAILED
    assert game.end_reason == "You gave up."


def test_the_file_of_a_running_training_game_is_nobodys_until_it_is_over(lea, client):
    game = start_lesson(lea, "05_ward")
    assert not game.position_file_open_to(lea)
    client.force_login(lea.user)
    assert client.get(f"/g/{game.code}/scenario.yaml").status_code == 403
    give_up(game.pk, lea)
    game.refresh_from_db()
    assert game.position_file_open_to(lea)


def test_only_the_learner_gives_up_or_tries_again(lea):
    other = make_player("Ola")
    game = start_lesson(lea, "01_venture")
    with pytest.raises(services.ActionRefused):
        give_up(game.pk, other)
    with pytest.raises(services.ActionRefused):
        try_again(game.pk, other)


# puzzles -----------------------------------------------------------------------------------------
def _clear_the_way() -> Puzzle:
    return Puzzle.objects.get(slug="clear_the_way")


def _unsound() -> Puzzle:
    return Puzzle.objects.create(
        slug="unsound-pwk", title="PWK", text=UNSOUND.read_text(), published=True
    )


SOLUTION = [
    "cast Magic Missile",
    ["Computer (best defence)", "Dungeon Crawler"],
    "2 to Computer (best defence), 1 to Dungeon Crawler",
    ["Grizzled Outrider", "Keen-Eared Sentry"],
]


def test_a_puzzle_solved_against_the_best_defence_ends_solved_and_is_rated(lea):
    game = start_puzzle(lea, _clear_the_way())
    defender = game.seats.get(position=1).player
    assert defender.computer_level == Player.DEFENDER
    assert defender.display_name == "Computer (best defence)"
    game = walk(game, lea, SOLUTION)
    assert game.status == Game.FINISHED and game.winner == "Lea"
    assert game.end_reason == "You won against the best defence."
    attempt = PuzzleAttempt.objects.get(player=lea)
    assert attempt.solved and attempt.rated and attempt.player_after > attempt.player_before


def test_a_puzzle_failed_ends_when_the_turn_ends_with_the_line_that_beat_it(lea):
    # Attacking at once (no Magic Missile): the Dungeon Crawler blocks and the turn ends.
    game = walk(
        start_puzzle(lea, _clear_the_way()), lea, [["Grizzled Outrider", "Keen-Eared Sentry"]]
    )
    assert game.status == Game.FINISHED and game.winner != "Lea"
    assert game.end_reason == "Turn 6 ended before you won."
    training = _training(game)
    assert training.state == Training.FAILED
    assert "Lea: [Grizzled Outrider, Keen-Eared Sentry]" in training.line
    assert any(w.startswith("Computer (best defence): ") and "blocks" in w for w in training.line)


def test_the_defender_plays_the_defence_that_beats_an_unsound_solution(lea):
    puzzle = _unsound()
    game = walk(start_puzzle(lea, puzzle), lea, SOLUTION)
    assert game.status == Game.FINISHED and game.winner != "Lea"
    with services.reading(game) as engine:
        log = "\n".join(engine.state.log)
    assert "Computer (best defence) casts Power Word Kill" in log


def test_a_puzzle_game_counts_against_the_cap_on_games_against_the_computer(lea, settings):
    settings.VENTURE_COMPUTER_GAMES_PER_PLAYER = 1
    start_puzzle(lea, _clear_the_way())
    assert running_computer_games(lea) == 1
    with pytest.raises(services.ActionRefused):
        start_puzzle(lea, _unsound())


def test_the_defender_is_asked_only_where_it_has_something_to_do(lea):
    game = start_puzzle(lea, _clear_the_way())
    assert computer_answers(game) == 0  # no mana, no cards: the pace passes for it
