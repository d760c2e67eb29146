"""Puzzles from real games (docs/puzzles.md, "Puzzles from games"): only staff turn a point of
a replay into a draft; the admin runs the checker, bounded, on every save and refuses to publish
an unsound or unproven puzzle, showing the defence that beats it."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import services
from game.puzzles.catalog import PUZZLES_DIR
from learn.models import Puzzle
from tests.web.helpers import make_player, start_position

pytestmark = pytest.mark.django_db

UNSOUND = Path(__file__).parents[1] / "puzzles" / "unsound_power_word_kill.yaml"
SOUND = PUZZLES_DIR / "clear_the_way.yaml"


@pytest.fixture
def finished_game(db):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_position(alice, bob, "lethal_attack.yaml")
    services.concede(game.pk, bob)
    game.refresh_from_db()
    return game


@pytest.fixture
def staff(db):
    player = make_player("Sam")
    player.user.is_staff = True
    player.user.is_superuser = True  # the admin's change permission for puzzles
    player.user.save()
    return player


def test_only_staff_make_a_draft_from_a_replay(client, finished_game):
    someone = make_player("Ola")
    client.force_login(someone.user)
    page = client.get(f"/g/{finished_game.code}/replay/?at=0").content.decode()
    assert "puzzle-draft" not in page
    response = client.post(f"/g/{finished_game.code}/replay/puzzle/", {"at": 0, "goal": "win"})
    assert response.status_code == 403
    assert not Puzzle.objects.filter(source=Puzzle.GAME).exists()
    with pytest.raises(services.ActionRefused):
        services.draft_from_replay(finished_game.pk, someone, 0, "win")


def test_staff_make_an_unpublished_draft_with_the_goal_they_chose(client, finished_game, staff):
    client.force_login(staff.user)
    page = client.get(f"/g/{finished_game.code}/replay/?at=0").content.decode()
    assert 'id="puzzle-draft"' in page
    response = client.post(f"/g/{finished_game.code}/replay/puzzle/", {"at": 0, "goal": "survive"})
    draft = Puzzle.objects.get(source=Puzzle.GAME)
    assert response.url == f"/admin/learn/puzzle/{draft.pk}/change/"
    assert not draft.published and draft.goal == "survive"
    assert (draft.source_game, draft.source_at) == (finished_game, 0)
    assert "goal: survive" in draft.text and "solution: []" in draft.text
    # the same point again gives the same draft
    client.post(f"/g/{finished_game.code}/replay/puzzle/", {"at": 0, "goal": "survive"})
    assert Puzzle.objects.filter(source=Puzzle.GAME).count() == 1
    # the admin opens it, and a draft without a solution can't be published
    assert client.get(response.url).status_code == 200
    form = {"slug": draft.slug, "text": draft.text, "published": "on"}
    page = client.post(response.url, form)
    assert page.status_code == 200  # the form again, with the reason
    assert "Not published" in page.content.decode()
    draft.refresh_from_db()
    assert not draft.published


@pytest.mark.timeout(180)  # three bounded checks, each a few seconds on a busy machine
def test_the_admin_refuses_to_publish_an_unsound_puzzle_and_shows_the_defence(client, staff):
    draft = Puzzle.objects.create(
        slug="draft-pwk", title="d", text="x", source=Puzzle.GAME, published=False
    )
    client.force_login(staff.user)
    url = f"/admin/learn/puzzle/{draft.pk}/change/"
    page = client.post(url, {"slug": draft.slug, "text": UNSOUND.read_text(), "published": "on"})
    html = page.content.decode()
    assert "Not published: the check says unsound" in html
    assert "rival: cast Power Word Kill" in html
    draft.refresh_from_db()
    assert not draft.published
    # saved unpublished, the verdict is kept on the draft
    client.post(url, {"slug": draft.slug, "text": UNSOUND.read_text()})
    draft.refresh_from_db()
    assert draft.verdict == Puzzle.UNSOUND and "rival: cast Power Word Kill" in draft.verdict_text
    # a sound solution publishes it
    client.post(url, {"slug": draft.slug, "text": SOUND.read_text(), "published": "on"})
    draft.refresh_from_db()
    assert draft.published and draft.verdict == Puzzle.SOUND
    assert draft.title == "Clear the way"


def test_the_admins_check_is_bounded_and_an_unproven_puzzle_is_not_published():
    verdict = services.check_text(SOUND.read_text(), bound=5)
    assert verdict.verdict == Puzzle.UNPROVEN and "bound of 5 positions" in verdict.text
    assert services.check_text(SOUND.read_text()).sound
    assert services.check_text("name: x\n", "x.yaml").verdict == Puzzle.INVALID


def test_the_shipped_files_are_loaded_and_a_file_gone_is_unpublished(capsys):
    from django.core.management import call_command

    assert Puzzle.objects.filter(slug="clear_the_way", published=True).exists()  # by migrate
    Puzzle.objects.create(slug="gone", title="Gone", text="x", published=True)
    Puzzle.objects.filter(slug="clear_the_way").update(title="old title", rating=1720)
    call_command("puzzle", "load")
    out = capsys.readouterr().out
    assert "updated: clear_the_way" in out and "unpublished (file gone): gone" in out
    kept = Puzzle.objects.get(slug="clear_the_way")
    assert kept.title == "Clear the way" and kept.rating == 1720  # the rating its attempts made
    assert not Puzzle.objects.get(slug="gone").published
