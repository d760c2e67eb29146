"""Combat in few inputs: an answer forced by public information is given for the player (and
logged, and replayed), unless they ask to be asked; the declare blockers step of an attack no
creature could block is no stop; "Attack with all"; blocks in words that match the cards."""

from __future__ import annotations

import pytest

from game import board, services
from game.engine.stops import ASK_FORCED, DEFAULT_STOPS
from game.models import GameAction

from .helpers import answer, make_player, pending, position_text, start_from_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return make_player("Alice"), make_player("Bob")


def view(game, player):
    game.refresh_from_db()
    return board.board_view(game, player)


def log_of(game) -> list[str]:
    game.refresh_from_db()
    with services.reading(game) as engine:
        return list(engine.state.log)


def test_the_one_legal_target_is_chosen_for_the_player_logged_and_replayed(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("ward_payment.yaml"))
    game = answer(game, alice, "cast Power Word Kill")
    # Varis is the only creature Power Word Kill can target: alice is not asked; the next
    # question is Varis's ward.
    assert pending(game).kind == "pay_ward"
    log = log_of(game)
    line = (
        "Alice is not asked (Power Word Kill: choose target non-Angel, non-Demon, non-Devil, "
        "non-Dragon creature): the only possible answer is Varis, Silverymoon Ranger"
    )
    assert line in log, log
    forced = GameAction.objects.get(game=game, answer="t0")  # in the answer log like any answer
    assert forced.auto and forced.note == "explained"
    services.clear_engine_cache()
    assert log_of(game) == log  # a replay writes the same line


def test_a_player_who_asks_to_be_asked_is_asked(players):
    alice, bob = players
    alice.stops = sorted(DEFAULT_STOPS | {ASK_FORCED})
    alice.save()
    game = start_from_text(alice, bob, position_text("ward_payment.yaml"))
    assert 'id="ask-forced" aria-pressed="true"' in _pace(game, alice)
    game = answer(game, alice, "cast Power Word Kill")
    assert pending(game).kind == "choose_targets"
    assert not any("is not asked" in line for line in log_of(game))


def test_the_setting_is_a_toggle_of_the_pace_bar(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("ward_payment.yaml"))
    off = _pace(game, alice)
    assert 'id="ask-forced" aria-pressed="false"' in off and "Ask when forced: off" in off
    services.set_stop(game.pk, alice, ASK_FORCED, True, action_id="f-1")
    assert "Ask when forced: on" in _pace(game, alice)
    game = answer(game, alice, "cast Power Word Kill")
    assert pending(game).kind == "choose_targets"


def _pace(game, player) -> str:
    game.refresh_from_db()
    ctx = board.with_forms(board.board_context(game, player), "")
    return board.render_fragment("pace", ctx)


def test_a_choice_from_the_hand_is_asked_even_with_one_card(players):
    # One card to discard to hand size is asked: how many cards of a hand fit a choice is not
    # public, so being asked or not would tell it.
    from game.engine.decisions import Decision, Option
    from game.engine.forced import forced_answer
    from game.engine.kinds import CHOOSE_TARGETS, DISCARD, DIVIDE, SACRIFICE

    one = [Option("o1", "Goblin")]
    assert forced_answer(Decision("alice", DISCARD, "Discard a card", one)) is None
    assert forced_answer(Decision("alice", CHOOSE_TARGETS, "Choose a target", one)) == "o1"
    assert forced_answer(Decision("alice", DIVIDE, "Divide 3", [Option("d0", "1 to a")])) == "d0"
    two = [Option("o1", "Goblin"), Option("o2", "Ogre")]
    assert forced_answer(Decision("alice", CHOOSE_TARGETS, "Choose a target", two)) is None
    both = Decision("alice", SACRIFICE, "Sacrifice two", two, multi=True, min_count=2, max_count=2)
    assert forced_answer(both) == ["o1", "o2"]
    some = Decision("alice", SACRIFICE, "Sacrifice", two, multi=True, min_count=1, max_count=2)
    assert forced_answer(some) is None


def test_a_lethal_swing_with_five_creatures_and_no_blocker_is_one_decision(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("five_attackers.yaml"))
    asked = []
    game.refresh_from_db()
    while (d := pending(game)) is not None and d.player == "Alice":
        asked.append(d.kind)
        if d.kind == "declare_attackers":
            all_ids = view(game, alice).prompt.all_ids
            assert len(all_ids) == 5  # "Attack with all" ticks these
            labels = [o.label for o in d.options if o.id in all_ids]
            game = answer(game, alice, labels)
        else:
            game = answer(game, alice, "pass")
        if len(asked) > 6:
            break
    game.refresh_from_db()
    # Her main phase, the attack (on the board "Attack with all" and Confirm), and done: no
    # stop in the declare blockers step (bob could block nothing), and bob's 15 life are gone.
    assert asked == ["priority", "declare_attackers"]
    assert game.status == game.FINISHED


def test_attack_with_all_works_with_a_single_attacker(players):
    """The key A and its button were shown with one creature able to attack but ticked
    nothing: "all" is that one creature."""
    alice, bob = players
    text = position_text("five_attackers.yaml").replace(
        "Grizzled Outrider, Veteran Dungeoneer, Zombie Ogre, Dungeon Crawler, Yuan-Ti Malison, ",
        "Zombie Ogre, ",
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, "pass")  # her main phase
    d = pending(game)
    assert d.kind == "declare_attackers" and len(d.options) == 1
    assert view(game, alice).prompt.all_ids == (d.options[0].id,)


def test_with_a_possible_blocker_the_stop_once_blocks_are_known_stays(players):
    alice, bob = players
    text = position_text("five_attackers.yaml").replace(
        "battlefield: [Swamp]", "battlefield: [Swamp, Zombie Ogre]"
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, "pass")  # her main phase
    game = answer(game, alice, ["Grizzled Outrider"])
    while (d := pending(game)).player == "Bob":
        game = answer(game, bob, [] if d.kind == "declare_blockers" else "pass")
    # Bob chose not to block with the Ogre he had: alice's combat tricks have their moment.
    with services.reading(game) as engine:
        assert d.kind == "priority" and engine.state.step == "declare_blockers"


def test_blocks_name_each_creature_with_the_number_its_card_shows(players):
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "battlefield: [Grizzled Outrider, Veteran Dungeoneer, Forest]",
        "battlefield: [Veteran Dungeoneer, Veteran Dungeoneer, Forest]",
    )
    text = text.replace(
        "battlefield: [Dungeon Crawler, Zombie Ogre, Swamp]",
        "battlefield: [Yuan-Ti Malison, Yuan-Ti Malison, Swamp]",
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, ["Veteran Dungeoneer #1"])
    v = view(game, bob)
    shown = sorted(o.display for o in v.prompt.options)
    # Both Malisons are untapped: neither line says so (the number tells them apart); the
    # Dungeoneer that attacks is the tapped one of two.
    assert shown == [
        "your Yuan-Ti Malison #1 blocks Alice's Veteran Dungeoneer #1 (tapped)",
        "your Yuan-Ti Malison #2 blocks Alice's Veteran Dungeoneer #1 (tapped)",
    ]
    # The cards carry the same numbers: bob's two Malisons, and alice's two Dungeoneers.
    assert sorted(p.number for p in v.bottom.creatures) == [1, 2]
    assert sorted(p.number for p in v.top.creatures) == [1, 2]
    # Each Malison's button names the attacker by its number alone.
    shorts = [o.short for p in v.bottom.creatures for o in p.actions]
    assert shorts == ["block Alice's Veteran Dungeoneer #1"] * 2
    html = _prompt(game, bob)
    assert 'class="block-chosen"' in html and "block-list" in html


def _prompt(game, player) -> str:
    game.refresh_from_db()
    ctx = board.with_forms(board.board_context(game, player), "")
    return board.render_fragment("prompt", ctx)


def test_the_one_possible_division_of_magic_missile_is_made_for_the_player(players):
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "    library: [Forest, Forest, Forest]\n"
        "    battlefield: [Grizzled Outrider, Veteran Dungeoneer, Forest]",
        "    hand: [Magic Missile]\n"
        "    library: [Forest, Forest, Forest]\n"
        "    battlefield: [Mountain, Mountain, Mountain]",
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, "cast Magic Missile")
    assert pending(game).kind == "choose_targets"  # a choice: any one, two or three targets
    game = answer(game, alice, ["Dungeon Crawler", "Zombie Ogre", "Bob"])
    # Three damage among three targets: one each, the only division; alice is not asked.
    assert pending(game).kind != "divide"
    assert any(
        line.startswith("Alice is not asked (Magic Missile: divide 3 damage)")
        for line in log_of(game)
    )


def test_options_past_nine_have_keys_too():
    from game.board.prompt import prompt_of
    from game.engine.decisions import Decision, Option
    from game.engine.kinds import CHOOSE_CARD

    options = [Option(f"c{i}", f"Card {i}") for i in range(13)]
    keys = [o.key for o in prompt_of(Decision("alice", CHOOSE_CARD, "Choose", options), {}).options]
    assert keys == list("1234567890bcd")


def test_a_blocker_whose_attacker_is_gone_says_so_on_its_card(players):
    """Bob blocks the Outrider, then kills it with Power Word Kill: the Ogre is still a
    blocking creature (CR 506.4), and its card said "blocking" with no name (a playtest)."""
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "    library: [Swamp, Swamp, Swamp]\n"
        "    battlefield: [Dungeon Crawler, Zombie Ogre, Swamp]",
        "    hand: [Power Word Kill]\n"
        "    library: [Swamp, Swamp, Swamp]\n"
        "    battlefield: [Zombie Ogre, Swamp, Swamp]",
    )
    game = start_from_text(alice, bob, text)
    game.seats.filter(player=alice).update(full_control=True)  # asked after the kill resolves
    game = answer(game, alice, ["Grizzled Outrider"])
    while (d := pending(game)).kind != "declare_blockers":
        game = answer(game, alice if d.player == "Alice" else bob, "pass")
    game = answer(game, bob, ["Zombie Ogre blocks Grizzled Outrider"])
    while pending(game).player == "Alice":
        game = answer(game, alice, "pass")
    game = answer(game, bob, "cast Power Word Kill")
    game = answer(game, bob, ["Grizzled Outrider"])
    while (d := pending(game)).kind == "priority" and "Power Word Kill" in _stack(game):
        game = answer(game, alice if d.player == "Alice" else bob, "pass")
    ogre = next(p for p in view(game, bob).bottom.creatures if p.info.name == "Zombie Ogre")
    assert ogre.blocking and ogre.blocks_name == "a creature no longer in combat"


def _stack(game) -> list[str]:
    with services.reading(game) as engine:
        return [item.name for item in engine.state.stack]
