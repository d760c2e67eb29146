"""Learn and Puzzles in Debian's Chromium (docs/puzzles.md, "At the table"): each of the six
lessons completed on a desktop from the Learn page, one on a phone by touch and one by keyboard
alone; a puzzle solved against the best defence and one given up, with both ratings moving on
the page; axe on the Learn and Puzzles pages, a puzzle's page and a lesson's table."""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from game.models import Game
from learn.loading import load_shipped_puzzles
from learn.models import LessonDone, Puzzle, PuzzleAttempt
from tests.web.helpers import make_player

from .helpers import SCREENSHOTS, past_arrival, save_readme_picture
from .test_a11y import audit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# As in test_computer.py: the computer answers 50 ms after its decision comes up.
settings.VENTURE_COMPUTER_DELAY_SECONDS = 0.05

LESSON_SECONDS = 60
UNSOUND = settings.BASE_DIR / "tests" / "puzzles" / "unsound_power_word_kill.yaml"


def _prompt(page):
    return page.locator("#prompt .prompt.mine")


def drive(page, steps, *, by_touch: bool = False, seconds: float = LESSON_SECONDS) -> int:
    """Play until the game-over card: each step is done when the player's prompt offers it (a
    function of the page that returns False while it cannot act yet); meanwhile the player
    passes. Returns the inputs made."""
    steps = list(steps)
    inputs = 0
    deadline = time.monotonic() + seconds
    while not page.locator("#over.shown").count():
        assert time.monotonic() < deadline, f"the lesson did not end; steps left: {len(steps)}"
        if not _prompt(page).count():
            page.wait_for_timeout(100)
            continue
        past_arrival(page)  # a key, or a click beside a button, would be dropped before
        version = page.locator("#topbar").get_attribute("data-version")
        if steps and steps[0](page):
            steps.pop(0)
        elif page.locator("#prompt #pass").count():
            (
                page.locator("#prompt #pass").tap
                if by_touch
                else page.locator("#prompt #pass").click
            )()
        else:
            page.wait_for_timeout(100)
            continue
        inputs += 1
        page.wait_for_function(
            "v => document.querySelector('#over.shown') || "
            "document.querySelector('#topbar').dataset.version !== v",
            arg=version,
            timeout=15000,
        )
    assert not steps, f"the lesson ended before {len(steps)} steps"
    return inputs


def click(selector: str, *, tap: bool = False):
    def step(page) -> bool:
        target = page.locator(selector)
        if not target.count() or not target.first.is_visible():
            return False
        (target.first.tap if tap else target.first.click)()
        return True

    return step


def attack_all(page) -> bool:
    mine = _prompt(page)
    if mine.get_attribute("data-kind") != "declare_attackers":
        return False
    for box in mine.locator("label.check input").all():
        box.check()
    mine.locator("#confirm").click()
    return True


def divide(amounts: dict[str, int]):
    def step(page) -> bool:
        form = page.locator("#prompt .division-form")
        if not form.count() or not form.is_visible():
            return False
        for name, n in amounts.items():
            form.locator(f"input[aria-label*='{name}']").fill(str(n))
        form.locator("#confirm").click()
        return True

    return step


def attack(page, name: str) -> bool:
    """Tick an attacker in the prompt and confirm (one step: a tick alone changes no version)."""
    box = _prompt(page).locator("label.check").filter(has_text=name)
    if not box.count():
        return False
    box.locator("input").check()
    _prompt(page).locator("#confirm").click()
    return True


LESSON_STEPS = {
    "01_venture": [
        click("[data-option='cast Kick in the Door']"),
        click("button[data-dungeon='Lost Mine of Phandelver']"),
    ],
    "02_fork": [
        click("[data-option='activate Dungeon Map: {3}, {T}']"),
        click("button[data-room='Goblin Lair']"),
    ],
    "03_complete": [click("[data-option='cast Keen-Eared Sentry']")],
    "04_initiative": [lambda page: attack(page, "Grizzled Outrider")],
    "05_ward": [click("[data-option='cast Power Word Kill']"), click("[data-option='Pay {1}']")],
    "06_divide": [divide({"Fang-Blade": 1, "Undermountain Adventurer": 4})],
}


def box(page, selector: str) -> dict[str, float]:
    """An element's box (asked again while the socket's first frames swap the board in)."""
    for _ in range(50):
        found = page.locator(selector).bounding_box()
        if found is not None:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} is not on the page")


def start_lesson_from_learn_page(page, base: str, title: str, *, tap: bool = False) -> None:
    page.goto(base + "/learn/")
    button = page.locator(f"button[aria-label='Start: {title}']")
    (button.tap if tap else button.click)()
    expect(page.locator("#training-title")).to_have_text(title)


@pytest.mark.timeout(420)
def test_every_lesson_is_completed_at_the_table_on_a_desktop(open_as, live_server_url):
    lea = make_player("Lea")
    page = open_as(lea, "/learn/")
    titles = page.locator(".lesson-title").all_inner_texts()
    assert len(titles) == 6
    for (slug, steps), title in zip(LESSON_STEPS.items(), titles, strict=True):
        start_lesson_from_learn_page(page, live_server_url, title)
        # the lesson's words and goal beside the board, left of the battlefields
        panel, board = box(page, "#training"), box(page, "#opponent")
        assert panel["x"] + panel["width"] <= board["x"], slug
        expect(page.locator(".training-goal")).to_contain_text("Goal:")
        if slug == "05_ward":
            save_readme_picture(page, "learn-lesson.png")
        drive(page, steps)
        expect(page.locator("#over .over-headline")).to_have_text("Lesson done")
        page.locator("[data-dismiss='#over']").click()
        expect(page.locator("#training-result")).to_contain_text("Lesson done")
        assert LessonDone.objects.filter(player=lea, lesson=slug).exists(), slug
    page.goto(live_server_url + "/learn/")
    expect(page.locator("#lessons-done")).to_contain_text("6 of 6 lessons done")
    expect(page.locator(".badge.done")).to_have_count(6)
    page.goto(live_server_url + lea.get_absolute_url())
    expect(page.locator("#profile-lessons")).to_contain_text("6 of 6 done")


@pytest.mark.timeout(180)
def test_a_lesson_on_a_phone_by_touch(open_as, live_server_url):
    lea = make_player("Lea")
    page = open_as(lea, "/learn/", phone=True)
    start_lesson_from_learn_page(page, live_server_url, "Choose a room at a fork", tap=True)
    # above the board on a phone
    panel, board = box(page, "#training"), box(page, "#opponent")
    assert panel["y"] + panel["height"] <= board["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # to look at, not in the README
    page.screenshot(path=str(SCREENSHOTS / "learn-lesson-phone.png"))
    drive(
        page,
        [
            click("[data-option='activate Dungeon Map: {3}, {T}']", tap=True),
            click("button[data-room='Goblin Lair']", tap=True),
        ],
        by_touch=True,
    )
    expect(page.locator("#over .over-headline")).to_have_text("Lesson done")
    expect(page.locator("#over")).to_contain_text("A Goblin to block with.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def _key_of(page, selector: str) -> str | None:
    target = page.locator(selector)
    if not target.count():
        return None
    return target.first.get_attribute("data-key")


def press_key_of(selector: str):
    def step(page) -> bool:
        key = _key_of(page, f"#prompt {selector}")
        if not key:
            return False
        page.keyboard.press(key)
        return True

    return step


@pytest.mark.timeout(180)
def test_a_lesson_by_keyboard_alone(open_as, live_server_url):
    lea = make_player("Lea")
    page = open_as(lea, "/learn/")
    # Tab to the ward lesson's Start button, Enter
    for _ in range(40):
        page.keyboard.press("Tab")
        label = page.evaluate("document.activeElement.getAttribute('aria-label') || ''")
        if label == "Start: Pay for ward":
            break
    else:
        raise AssertionError("Tab never reached the lesson's Start button")
    page.keyboard.press("Enter")
    expect(page.locator("#training-title")).to_have_text("Pay for ward")
    steps = [
        press_key_of("[data-option='cast Power Word Kill']"),
        press_key_of("[data-option='Pay {1}']"),
    ]
    deadline = time.monotonic() + LESSON_SECONDS
    while not page.locator("#over.shown").count():
        assert time.monotonic() < deadline
        if not _prompt(page).count():
            page.wait_for_timeout(100)
            continue
        past_arrival(page)  # a key, or a click beside a button, would be dropped before
        version = page.locator("#topbar").get_attribute("data-version")
        if not (steps and steps[0](page) and steps.pop(0)):
            page.keyboard.press(" ")  # Space passes (venture.js)
        page.wait_for_function(
            "v => document.querySelector('#over.shown') || "
            "document.querySelector('#topbar').dataset.version !== v",
            arg=version,
            timeout=15000,
        )
    assert not steps
    expect(page.locator("#over .over-headline")).to_have_text("Lesson done")
    # the way on is reachable by keyboard: Tab to "Next lesson", Enter
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "next-training":
            break
    else:
        raise AssertionError("Tab never reached Next lesson")
    page.keyboard.press("Enter")
    expect(page.locator("#training-title")).to_have_text("Divide combat damage")


def _ratings(page) -> tuple[str, str]:
    return (
        page.locator("#player-rating").inner_text(),
        page.locator("#puzzle-rating").inner_text(),
    )


def _moved(text: str) -> bool:
    before, after = (int(n) for n in re.findall(r"-?\d+", text))
    return before != after


@pytest.mark.timeout(180)
def test_a_puzzle_solved_and_one_given_up_move_both_ratings(open_as, live_server_url):
    load_shipped_puzzles()
    Puzzle.objects.create(
        slug="kill-spell",
        title="The rival holds a kill spell",
        text=UNSOUND.read_text(),
        published=True,
        rating=1450,
    )
    # the file's own rating, which the solve moves down
    shipped = round(Puzzle.objects.get(slug="clear_the_way").rating)
    pia = make_player("Pia")
    page = open_as(pia, "/puzzles/")
    expect(page.locator("#puzzle-list")).to_contain_text("Clear the way")
    page.locator("#puzzle-list a", has_text="Clear the way").click()
    page.locator("#puzzle-start").click()
    expect(page.locator("#training-title")).to_have_text("Clear the way")
    defender = re.compile(r"^\s*Computer \(best defence\)\s*$")

    def targets(page) -> bool:
        mine = _prompt(page)
        crawler = mine.locator("label.check").filter(has_text="Dungeon Crawler")
        if not crawler.count():
            return False
        crawler.locator("input").check()
        mine.locator("label.check").filter(
            has=page.locator(".check-text", has_text=defender)
        ).locator("input").check()
        mine.locator("#confirm").click()
        return True

    drive(
        page,
        [
            click("[data-option='cast Magic Missile']"),
            targets,
            click("[data-option='2 to Computer (best defence), 1 to Dungeon Crawler']"),
            lambda page: attack_all(page),
        ],
    )
    expect(page.locator("#over .over-headline")).to_have_text("Puzzle solved")
    expect(page.locator("#training-solution")).to_contain_text("cast Magic Missile")
    player, puzzle = _ratings(page)
    assert _moved(player) and _moved(puzzle)
    assert player.startswith("1500 → ") and int(player.split("→")[1]) > 1500
    assert puzzle.startswith(f"{shipped} → ") and int(puzzle.split("→")[1]) < shipped
    save_readme_picture(page, "puzzle-solved.png")

    # the second: given up at once
    page.goto(live_server_url + "/puzzles/kill-spell/")
    page.locator("#puzzle-start").click()
    expect(page.locator("#training-title")).to_have_text("The rival holds a kill spell")
    expect(page.locator("#give-up")).to_be_visible()
    page.locator("#give-up").click()
    expect(page.locator("#over .over-headline")).to_have_text("Puzzle failed")
    expect(page.locator("#over-reason")).to_have_text("You gave up.")
    expect(page.locator("#training-solution")).to_contain_text("(pass until declare attackers)")
    player, puzzle = _ratings(page)
    assert _moved(player) and _moved(puzzle)
    assert int(puzzle.split("→")[1]) > 1450  # the puzzle won
    assert PuzzleAttempt.objects.filter(player=pia, rated=True).count() == 2
    page.goto(live_server_url + pia.get_absolute_url())
    expect(page.locator("#profile-puzzles tbody tr")).to_have_count(2)
    expect(page.locator("#profile-puzzle-rating")).to_have_text(
        str(round(pia.puzzle_rating.rating))
    )


@pytest.mark.timeout(180)
def test_the_learn_and_puzzle_pages_and_a_lesson_table_pass_the_audit(open_as):
    load_shipped_puzzles()
    lea = make_player("Lea")
    for path in ("/learn/", "/puzzles/", "/puzzles/clear_the_way/", "/puzzles/daily/"):
        page = open_as(lea, path)
        page.wait_for_selector("h1")
        assert audit(page) == [], path
    for phone in (False, True):
        page = open_as(lea, "/learn/", phone=phone)
        page.locator("button[aria-label='Start: Divide combat damage']").click()
        page.wait_for_selector("#prompt .prompt")
        assert audit(page) == [], f"lesson table, phone={phone}"
    game = Game.objects.filter(seats__player=lea).first()
    assert game is not None
