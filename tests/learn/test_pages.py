"""The Learn and Puzzles pages and the table of a training game, as a player sees them: the
lessons in order with their marks, the lesson's words beside the board and its end, the puzzle
list, the daily puzzle, giving up and the solution shown after, the profile."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest

from game.models import Game
from game.puzzles.catalog import lessons
from game.services import daily_puzzle
from learn.models import LessonDone, Puzzle
from tests.web.helpers import make_player

from .helpers import walk
from .test_training import GOOD_AND_BAD, SOLUTION

pytestmark = pytest.mark.django_db

UNSOUND = Path(__file__).parents[1] / "puzzles" / "unsound_power_word_kill.yaml"


@pytest.fixture
def lea(db):
    return make_player("Lea")


@pytest.fixture
def signed_in(client, lea):
    client.force_login(lea.user)
    return client


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def test_the_learn_page_lists_the_six_lessons_in_order_and_marks_those_done(signed_in, lea):
    LessonDone.objects.create(player=lea, lesson="02_fork")
    page = signed_in.get("/learn/")
    html = page.content.decode()
    titles = [lesson.title for lesson in lessons()]
    assert len(titles) == 6
    at = [html.index(t) for t in titles]
    assert at == sorted(at)
    assert "1 of 6 lessons done" in _text(page.content)
    done = re.search(r'data-lesson="02_fork".*?</li>', html, re.S).group(0)
    assert "✓ done" in done
    assert "✓ done" not in re.search(r'data-lesson="01_venture".*?</li>', html, re.S).group(0)


def test_the_learn_page_asks_a_visitor_to_sit_down(client):
    page = client.get("/learn/")
    assert page.status_code == 200 and "Play as guest" in page.content.decode()
    assert client.post("/learn/01_venture/start/").status_code == 302  # to the login page
    assert not Game.objects.exists()


def test_a_lesson_starts_and_its_table_shows_the_lesson_beside_the_board(signed_in, lea):
    response = signed_in.post("/learn/05_ward/start/")
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    text = _text(signed_in.get(response.url).content)
    assert "Pay for ward" in text
    assert "Varis has ward {1}" in text
    assert "Goal: Destroy Varis, paying for ward." in text
    assert "Give up" in text
    assert "position file" not in text  # the file is not offered while the lesson runs


def test_a_lesson_done_shows_its_words_try_again_and_the_next_lesson(signed_in, lea):
    signed_in.post("/learn/05_ward/start/")
    game = walk(Game.objects.get(), lea, GOOD_AND_BAD["05_ward"][0])
    page = signed_in.get(game.get_absolute_url())
    text = _text(page.content)
    assert "Lesson done" in text and "Ward paid, Varis destroyed." in text
    assert "Try again" in text and "Next lesson" in text
    html = page.content.decode()
    assert 'action="/learn/06_divide/start/"' in html
    # Try again: a fresh game of the same lesson
    again = signed_in.post(f"/t/{game.code}/again/")
    fresh = Game.objects.exclude(pk=game.pk).get()
    assert again.url == fresh.get_absolute_url() and fresh.status == Game.ACTIVE
    # the profile marks it
    profile = _text(signed_in.get(f"/players/{lea.pk}/").content)
    assert "1 of 6 done" in profile


def test_a_lesson_mistake_is_told_on_the_table(signed_in, lea):
    signed_in.post("/learn/02_fork/start/")
    game = walk(Game.objects.get(), lea, GOOD_AND_BAD["02_fork"][1])
    text = _text(signed_in.get(game.get_absolute_url()).content)
    assert "Not this time" in text
    assert "nothing can block the Dungeon Crawler now" in text


def test_the_puzzle_list_shows_title_themes_rating_and_the_viewers_result(signed_in, lea):
    page = _text(signed_in.get("/puzzles/").content)
    assert "Clear the way" in page and "1500" in page
    signed_in.post("/puzzles/clear_the_way/start/")
    game = Game.objects.get()
    walk(game, lea, SOLUTION)
    page = signed_in.get("/puzzles/").content.decode()
    row = re.search(r'data-puzzle="clear_the_way".*?</tr>', page, re.S).group(0)
    assert "solved" in row


def test_the_daily_puzzle_is_the_same_all_day_and_comes_from_the_shipped_ones(signed_in):
    for n in range(5):
        Puzzle.objects.create(slug=f"extra-{n}", title=f"Extra {n}", text="x", published=True)
    Puzzle.objects.create(
        slug="draft", title="Draft", text="x", published=False, source=Puzzle.GAME
    )
    day = datetime.date(2026, 12, 4)
    picked = {daily_puzzle(day).slug for _ in range(3)}
    assert len(picked) == 1
    days = [day + datetime.timedelta(days=n) for n in range(30)]
    assert {daily_puzzle(d).slug for d in days} <= set(
        Puzzle.objects.filter(published=True, source=Puzzle.FILE).values_list("slug", flat=True)
    )
    assert len({daily_puzzle(d).slug for d in days}) > 1  # it changes from day to day
    page = signed_in.get("/puzzles/daily/")
    assert page.status_code == 200 and "The puzzle of" in page.content.decode()


def test_giving_up_a_puzzle_shows_the_solution_and_the_line(signed_in, lea):
    Puzzle.objects.create(
        slug="pwk", title="The rival holds a kill spell", text=UNSOUND.read_text(), published=True
    )
    signed_in.post("/puzzles/pwk/start/")
    game = Game.objects.get()
    running = signed_in.get(game.get_absolute_url()).content.decode()
    # nothing hidden leaks while it runs: not the solution, not the defender's hand
    assert "Power Word Kill" not in running
    assert "The solution" not in running and "2 to Computer (best defence)" not in running
    response = signed_in.post(f"/t/{game.code}/give-up/")
    assert response.url == game.get_absolute_url()
    text = _text(signed_in.get(game.get_absolute_url()).content)
    assert "Puzzle failed" in text and "You gave up." in text
    assert "The solution" in text
    assert "cast Magic Missile" in text
    assert "Computer (best defence), Dungeon Crawler" in text  # the file's "rival", as named here
    assert "(pass until declare attackers)" in text
    assert "Your puzzle rating: 1500 →" in text and "this puzzle: 1500 →" in text


def test_a_draft_puzzle_is_staffs_alone(client, lea):
    Puzzle.objects.create(slug="draft", title="Draft", text="x", published=False)
    client.force_login(lea.user)
    assert client.get("/puzzles/draft/").status_code == 404
    assert client.post("/puzzles/draft/start/").status_code == 404
    lea.user.is_staff = True
    lea.user.save()
    assert client.get("/puzzles/draft/").status_code == 200


def test_only_the_learner_gives_up(client, lea):
    client.force_login(lea.user)
    client.post("/learn/01_venture/start/")
    game = Game.objects.get()
    other = make_player("Ola")
    client.force_login(other.user)
    client.post(f"/t/{game.code}/give-up/")
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
