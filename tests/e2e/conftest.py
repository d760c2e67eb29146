"""Real-browser tests: a Daphne live server in a forked process and Debian's Chromium driven by
Playwright's sync API. Run with `pytest -m e2e`;
`make test-all` runs them in their own pytest invocation (`make test` leaves them out).

On failure every page the test opened is saved as a screenshot under test-artifacts/e2e/.

The pages run under the site's Content-Security-Policy, which forbids eval: give
`page.wait_for_function` a function (`"() => …"`), not a bare expression, which Playwright
evaluates in the page with eval while it polls.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest
from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from .helpers import DESKTOP, PHONE, sign_in_as

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The window new_page opens its pages in (larger than the desktop viewport).
WINDOW = {"width": 1500, "height": 950}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"


def _application(**kwargs):
    """The live server's application, forgetting the content types it has looked up before each
    request: a transactional test's flush makes them again under new ids, and the admin's log
    entries (written when a test saves in the admin) must point at the rows that exist now."""
    from django.contrib.contenttypes.models import ContentType

    app = make_application(**kwargs)

    async def application(scope, receive, send):
        ContentType.objects.clear_cache()
        await app(scope, receive, send)

    return application


# The live server runs in another process, so the mail it sends is not in this process's locmem
# outbox: it writes each mail to a file here (Django's file-based backend), read by
# `server_outbox`.
SERVER_MAIL = ARTIFACTS.parent / "server-mail"


def _server_setup() -> None:
    """The live server's settings, set in its process: the test database, mail to files, and
    a "Your turn" poll a test can wait for."""
    from django.conf import settings

    set_database_connection()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(SERVER_MAIL)},
        }
    }
    settings.VENTURE_TURNS_POLL_SECONDS = 1


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker) -> Iterator[str]:
    """Daphne serving game.asgi (HTTP, static files and websockets) on the test database."""
    proc = DaphneProcess(
        "127.0.0.1",
        partial(_application, static_wrapper=ASGIStaticFilesHandler),
        setup=_server_setup,
    )
    # The child is forked: it must inherit an unblocked database.
    with django_db_blocker.unblock():
        proc.start()
    if not proc.ready.wait(timeout=20):
        proc.terminate()
        raise RuntimeError("daphne did not start")
    yield f"http://127.0.0.1:{proc.port.value}"
    proc.terminate()
    proc.join(timeout=5)


@contextmanager
def launched_chromium() -> Iterator:
    """Debian's Chromium driven by Playwright (the test is skipped where it is not installed)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (make chromium)")
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()
    pw.stop()


@pytest.fixture(scope="module")
def browser(live_server_url):
    with launched_chromium() as chromium:
        # Playwright runs an event loop in this thread; the ORM calls the tests make are safe
        # (the server, forked before this, keeps Django's check on).
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        yield chromium
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture(scope="module")
def windowed_browser(browser):
    """Chromium showing pages as a desktop browser's window does: a page that scrolls has a
    classic scrollbar, which takes 15 px of its width (Playwright hides the scrollbars of a
    headless browser). Launched beside `browser`, by its Playwright."""
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, ignore_default_args=["--hide-scrollbars"]
    )
    yield chromium
    chromium.close()


@pytest.fixture(autouse=True)
def official_dungeons(request) -> None:
    """Every browser test starts with the four official dungeons. Their rows come from a data
    migration, and the flush after a transactional test empties the table (pytest-django's
    serialized rollback does not restore them here): without this, a test that runs after
    another one meets only the dungeons that test made, and a game with one dungeon chooses it
    without asking."""
    if request.node.get_closest_marker("django_db") is None:
        return
    request.getfixturevalue("transactional_db")
    from dungeons.models import DungeonCard
    from dungeons.official import official_dungeon_dicts
    from dungeons.storage import save_dungeon

    if DungeonCard.objects.filter(official=True).count() < len(official_dungeon_dicts()):
        for data in official_dungeon_dicts():
            save_dungeon(data, official=True, note="e2e: the official dungeons again")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@contextmanager
def photographed_pages(request, browser, timeout_ms: int) -> Iterator:
    """open_page(name, **context options): a page in a fresh context of `browser` (its own
    cookies: another person) that waits up to `timeout_ms`; on leaving, every page opened is
    photographed under its name if the test failed, and the contexts are closed."""
    contexts, pages = [], []

    def open_page(name: str, **options):
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(timeout_ms)
        page.venture_name = name
        pages.append(page)
        return page

    yield open_page
    photograph_if_failed(request, pages)
    for context in contexts:
        context.close()


@pytest.fixture
def new_page(request, browser, live_server_url):
    """new_page(name): a page in a fresh browser context (another person) in a roomy window;
    screenshots of every page opened are saved if the test fails."""
    with photographed_pages(request, browser, 5000) as open_page:

        def new_page(name: str = "page"):
            return open_page(name, viewport=WINDOW)

        yield new_page


def photograph_if_failed(request, pages: list) -> None:
    """Save a screenshot of each page (named by its `venture_name`) if the test failed."""
    failed = any(
        getattr(request.node, f"report_{when}", None) is not None
        and getattr(request.node, f"report_{when}").failed
        for when in ("setup", "call")
    )
    if failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        test = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        for page in pages:
            try:
                page.screenshot(
                    path=str(ARTIFACTS / f"{test}-{page.venture_name}.png"), full_page=True
                )
            except Exception as e:  # a crashed page can't be photographed; say so and go on
                print(f"no screenshot of {page.venture_name}: {e}")


@pytest.fixture
def open_as(request, browser, live_server_url):
    """open_as(player, path, phone=False, js=True): a page of `player`'s own browser at `path`
    (nobody signed in for None), desktop or phone-sized with touch; pages are photographed when
    the test fails."""
    with photographed_pages(request, browser, 5000) as open_page:

        def open_page_as(player, path: str, *, phone: bool = False, js: bool = True):
            options = {"viewport": PHONE if phone else DESKTOP, "java_script_enabled": js}
            if phone:
                options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
            name = f"{getattr(player, 'display_name', 'anon')}-{'phone' if phone else 'desk'}"
            page = open_page(name, **options)
            if player is not None:
                sign_in_as(page, live_server_url, player)
            page.goto(live_server_url + path)
            return page

        yield open_page_as


@pytest.fixture
def server_outbox():
    """outbox(): the mails the live server has sent since the test began, oldest first (each
    an email.message.EmailMessage)."""
    import email
    import email.policy
    import shutil

    shutil.rmtree(SERVER_MAIL, ignore_errors=True)
    SERVER_MAIL.mkdir(parents=True)

    def outbox() -> list:
        mails = []
        for path in sorted(SERVER_MAIL.glob("*.log"), key=lambda p: p.stat().st_mtime_ns):
            # The backend writes each message followed by a line of 79 dashes.
            for text in path.read_text().split("-" * 79 + "\n"):
                if text.strip():
                    mails.append(email.message_from_string(text, policy=email.policy.default))
        return mails

    return outbox
