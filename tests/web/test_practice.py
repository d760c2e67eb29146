"""A dungeon designer's practice game ("Try it") never waits for the practice partner: the
computer at Easy sits across, passes whenever it may and never attacks, and answers every other
decision it faces (docs/dungeons.md, "Try it")."""

from __future__ import annotations

import pytest

from game import services
from game.services.computer_limit import running_computer_games
from game.services.practice_seat import practice_games
from tests.dungeon_samples import cellar

from .helpers import make_player, pending, seat_name
from .test_computer import computer_answers, start_against_computer

pytestmark = pytest.mark.django_db

# The partner starts with no hand and draws a card each of its turns (2, 4, …), playing none:
# at the end of turn 16 it holds 8 and must discard one (CR 514.1).
PARTNER_DISCARDS_ON = 16


def test_a_practice_game_plays_on_past_the_partners_discard_to_hand_size():
    designer = make_player("Dee")
    game = services.start_practice(designer, cellar())
    assert list(practice_games()) == [game]
    me = seat_name(game, designer)
    partner = game.seats.get(position=1).engine_name
    assert partner == "Computer (Easy)"
    partner_answered = 0
    while game.turn <= PARTNER_DISCARDS_ON:
        d = pending(game)
        assert d is not None, "the practice game ended"
        if d.player == me:
            assert d.kind == "priority", d.prompt  # the designer only passes, turn after turn
            services.submit_answer(game.pk, designer, "pass", version=game.version)
        else:
            answered = computer_answers(game)
            assert answered, f"nobody answers the partner's {d.kind}: {d.prompt}"
            partner_answered += answered
        game.refresh_from_db()
    with services.reading(game) as engine:
        g = engine.state
        log = "\n".join(g.log)
        assert f"{partner} discards to seven cards" in log
        assert len(g.player(partner).hand) == 7
        # it passed across the table: nothing played, cast or attacked with
        assert f"{partner} plays" not in log and f"{partner} casts" not in log
        assert g.player(me).life == 20
        assert (g.turn, g.active) == (PARTNER_DISCARDS_ON + 1, me)
    assert partner_answered >= 1


def test_the_rematch_of_a_practice_game_is_another_practice_game_of_the_same_dungeon():
    designer = make_player("Dee")
    game = services.start_practice(designer, cellar())
    services.concede(game.pk, designer)
    again = services.rematch(game.pk, designer)
    assert again.rematch_of == game and again.status == again.ACTIVE
    assert set(practice_games()) == {game, again}
    assert [d["name"] for d in again.dungeons] == ["Test Cellar"]
    assert [s.player for s in again.seats.order_by("position")] == [
        designer,
        game.seats.get(position=1).player,
    ]


def test_practice_games_leave_a_designer_their_games_against_the_computer(settings):
    settings.VENTURE_COMPUTER_GAMES_PER_PLAYER = 1
    designer = make_player("Dee")
    for _ in range(3):
        services.start_practice(designer, cellar())
    assert running_computer_games(designer) == 0
    start_against_computer(designer)  # not refused: the practice games do not count
    assert running_computer_games(designer) == 1
