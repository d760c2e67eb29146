"""What the board's view-model and fragments say at the table: whose each option's object is,
no option styled as the recommended one, the top bar before the first turn, summoning sickness
only where it matters, the phase strip's stops, the pass button's destination, the whole log and
identical cards in the hand as one choice (tests/e2e/test_table.py drives the same in a
browser)."""

from __future__ import annotations

import random
import re

import pytest

from game import board, services
from game.board import memos
from game.board.whose import log_line_for
from game.engine.bot import random_answer
from game.engine.stops import ASK_FORCED, DEFAULT_STOPS
from game.engine.targets import whose_after

from .helpers import (
    answer,
    make_player,
    option_id,
    passes,
    pending,
    position_text,
    seat_name,
    start_from_text,
    start_game,
)

pytestmark = pytest.mark.django_db


def render(game, player, name: str) -> str:
    game.refresh_from_db()
    ctx = board.with_forms(board.board_context(game, player), "")
    return board.render_fragment(name, ctx)


def view(game, player):
    game.refresh_from_db()
    return board.board_view(game, player)


@pytest.fixture
def players():
    return make_player("Alice"), make_player("Bob")


def test_a_target_says_whose_it_is_and_no_choice_is_styled_as_recommended(players):
    alice, bob = players
    # Varis is the one legal target: alice asks to be asked anyway, to see the prompt.
    alice.stops = sorted(DEFAULT_STOPS | {ASK_FORCED})
    alice.save()
    game = start_from_text(alice, bob, position_text("ward_payment.yaml"))
    game = answer(game, alice, "cast Power Word Kill")
    prompt = view(game, alice).prompt
    assert prompt.kind == "choose_targets"
    varis = next(o for o in prompt.options if o.label == "Varis, Silverymoon Ranger")
    assert varis.display == "Bob's Varis, Silverymoon Ranger"
    assert varis.marks == f"o{varis.objs[0]}"  # the board's card to highlight
    html = render(game, alice, "prompt")
    assert "Bob&#39;s Varis, Silverymoon Ranger" in html
    assert "btn primary" not in html
    # The pass button is the one way on, styled so and named for where it goes: with her stop on
    # the opponent's triggers turned on, alice is asked about Varis's ward trigger.
    services.set_stop(game.pk, alice, "theirs:triggers", True, action_id="s-1")
    game = answer(game, alice, "Varis, Silverymoon Ranger")
    html = render(game, alice, "prompt")
    assert html.count("btn primary") == 1
    assert "Resolve Varis, Silverymoon Ranger&#39;s triggered ability" in html


def test_the_log_says_whose_a_target_is_in_each_viewers_words(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("ward_payment.yaml"))
    # Varis is the only legal target: the choice is made for alice (a forced answer).
    game = answer(game, alice, "cast Power Word Kill")
    bobs = seat_name(game, bob)
    line = f"casts Power Word Kill targeting {bobs}'s Varis, Silverymoon Ranger"
    assert any(line in entry for entry in view(game, None).log_lines)  # a spectator: the names
    assert any(line in entry for entry in view(game, alice).log_lines)
    to_bob = "casts Power Word Kill targeting your Varis, Silverymoon Ranger"
    assert any(to_bob in entry for entry in view(game, bob).log_lines)


def test_the_top_bar_names_the_decisions_before_the_first_turn_and_no_version(players):
    alice, bob = players
    game = start_game(alice, bob, seed=5)
    turn = view(game, alice).turn
    assert turn.pregame and turn.step_label == "Choosing who plays first"
    topbar = render(game, alice, "topbar")
    assert "Before the game" in topbar and "Turn 1" not in topbar
    assert 'class="current"' not in topbar  # no step of a turn that has not begun
    assert f">v{game.version}<" not in topbar
    assert not any(side.is_active for side in view(game, alice).sides_top_bottom)  # no TURN badge


def test_summoning_sickness_shows_only_on_the_active_players_creatures(players):
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "battlefield: [Dungeon Crawler, Zombie Ogre, Swamp]",
        "battlefield: [{card: Dungeon Crawler, sick: true}, Zombie Ogre, Swamp]",
    )
    text = text.replace(
        "battlefield: [Grizzled Outrider, Veteran Dungeoneer, Forest]",
        "battlefield: [{card: Grizzled Outrider, sick: true}, Veteran Dungeoneer, Forest]",
    )
    game = start_from_text(alice, bob, text)
    for viewer in (alice, bob, None):
        v = view(game, viewer)
        by_name = {p.name: p for side in v.sides_top_bottom for p in side.creatures}
        assert by_name["Grizzled Outrider"].sick  # alice's turn: it can't attack
        assert not by_name["Dungeon Crawler"].sick  # bob's on alice's turn: nothing to show


def test_the_phase_strip_is_the_viewers_stops_for_the_turn_being_played(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("instant_in_hand.yaml"))
    mine = render(game, alice, "topbar")
    assert 'name="stop" value="mine:end"' in mine
    assert 'value="mine:untap"' not in mine  # no priority in the untap step
    theirs = render(game, bob, "topbar")
    assert 'name="stop" value="theirs:end"' in theirs and "mine:" not in theirs
    assert 'name="stop"' not in render(game, None, "topbar")  # a spectator has no stops
    # Alice turns on her end step: the strip shows it, and passing now goes there.
    game.refresh_from_db()
    services.set_stop(game.pk, alice, "mine:end", True, action_id="s-1")
    steps = {s.key: s for s in view(game, alice).turn.steps}
    assert steps["end"].stop and not steps["upkeep"].stop
    assert view(game, alice).pass_text == "To main 2"


def test_the_pace_bar_toggles_the_viewers_stop_on_the_opponents_triggers(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("instant_in_hand.yaml"))
    off = render(game, alice, "pace")
    assert 'name="stop" value="theirs:triggers"' in off  # off by default: the button turns it on
    assert 'name="stop_on" value="on"' in off and 'id="stop-triggers" aria-pressed="false"' in off
    assert 'id="stop-triggers"' not in render(game, None, "pace")  # a spectator has no stops
    services.set_stop(game.pk, alice, "theirs:triggers", True, action_id="s-1")
    on = render(game, alice, "pace")
    assert 'name="stop_on" value="off"' in on and 'id="stop-triggers" aria-pressed="true"' in on
    assert "Stop on their triggers: on" in on
    assert 'id="stop-triggers" aria-pressed="false"' in render(game, bob, "pace")  # alice's own


def test_the_whole_log_is_in_the_page_the_older_lines_in_a_fragment_of_their_own(players):
    alice, bob = players
    game = start_game(alice, bob, seed=2004)
    rng = random.Random(4)
    by_name = {s.engine_name: s.player for s in game.seats.select_related("player")}
    for _ in range(400):
        game.refresh_from_db()
        with services.reading(game) as engine:
            d = engine.pending
            if d is None or len(engine.state.log) > 130:
                break
            reply = random_answer(d, rng)
        services.submit_answer(game.pk, by_name[d.player], reply, version=game.version)
    v = view(game, alice)
    assert v.log_total > 120, "the game should have a long log"
    assert len(v.log_archive) % 100 == 0 and v.log_archive
    assert len(v.log) + len(v.log_archive) == v.log_total  # every line, once
    older = render(game, alice, "logarchive")
    assert "Older entries" not in render(game, alice, "log")
    assert f"Earlier entries (1–{len(v.log_archive)})" in older
    assert v.log_archive[-1][1].text.split(" (")[0] in older  # the very first line
    # Each line keeps its number in the log, wherever its heading moved it.
    assert sorted(n for n, _ in v.log + v.log_archive) == list(range(1, v.log_total + 1))


def test_a_heading_is_shown_above_the_lines_of_its_phase_with_their_numbers():
    """The log reads newest first; the engine writes a phase's heading before its lines, so
    shown as written it came below them, like a footer (a playtest)."""
    written = [
        "Turn 4: bob's turn",
        "bob draws a card for the turn (CR 504.1)",
        "bob's combat, turn 4",
        "bob attacks alice with Goblin (CR 508.1)",
        "Goblin deals 1 damage to alice (now 19)",
        "Turn 5: alice's turn",
        "alice draws a card for the turn (CR 504.1)",
    ]
    shown = memos.numbered(tuple(reversed(written)), len(written), ("alice", "bob"))
    assert [(n, line.text) for n, line in shown] == [
        (6, "Turn 5: alice's turn"),
        (7, "alice draws a card for the turn"),
        (3, "bob's combat, turn 4"),
        (5, "Goblin deals 1 damage to alice (now 19)"),
        (4, "bob attacks alice with Goblin"),
        (1, "Turn 4: bob's turn"),
        (2, "bob draws a card for the turn"),
    ]
    assert [line.heading for _, line in shown] == [True, False, True, False, False, True, False]


def test_identical_targets_are_told_apart_and_their_cards_say_target(players):
    alice, bob = players
    text = position_text("ward_payment.yaml").replace(
        'battlefield: ["Varis, Silverymoon Ranger", Forest, Forest, Forest]',
        "battlefield: [Zombie Ogre, {card: Zombie Ogre, tapped: true}, Forest]",
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, "cast Power Word Kill")
    v = view(game, alice)
    shown = sorted(o.display for o in v.prompt.options)
    # (One tapped, the other not: that is what sets them apart, and it is said.)
    assert shown == ["Bob's Zombie Ogre #1 (untapped)", "Bob's Zombie Ogre #2 (tapped)"]
    assert v.prompt.groups == ()  # one side's things: no group headers
    # Each Ogre carries its own button, which says what clicking it does and which one it is.
    buttons = [o.short for p in v.top.creatures for o in p.actions]
    assert sorted(buttons) == ["target #1", "target #2"]


def test_a_numbered_attacker_says_what_sets_it_apart_not_what_the_blocker_is(players):
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "battlefield: [Grizzled Outrider, Veteran Dungeoneer, Forest]",
        "battlefield: [Grizzled Outrider, {card: Grizzled Outrider, counters: {+1/+1: 3}}, Forest]",
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, ["Grizzled Outrider #1", "Grizzled Outrider #2"])
    shown = {o.label: o.display for o in view(game, bob).prompt.options}
    # (Both attack, both tapped: "tapped" would tell them apart no more than their numbers.)
    assert shown["Zombie Ogre blocks Grizzled Outrider #1"] == (
        "your Zombie Ogre blocks Alice's Grizzled Outrider #1"
    )
    assert shown["Zombie Ogre blocks Grizzled Outrider #2"] == (
        "your Zombie Ogre blocks Alice's Grizzled Outrider #2 (8/8, 3 +1/+1)"
    )


def test_a_card_in_the_library_says_where_it_is(players):
    alice, bob = players
    text = position_text("dungeon_map_venture.yaml").replace(
        "library: [Plains, Plains, Plains, Plains]", "library: [Dungeon Map, Plains, Plains]"
    )
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, "activate Dungeon Map: {3}, {T}")
    game = answer(game, alice, "Lost Mine of Phandelver")
    while (d := pending(game)).kind == "priority":
        game = answer(game, alice if d.player == seat_name(game, alice) else bob, "pass")
    # Cave Entrance's scry 1: the card on top, not the Dungeon Map on the battlefield.
    assert d.kind == "scry"
    shown = [o.display for o in view(game, alice).prompt.options]
    assert shown == ["your Dungeon Map (top of your library)"]


def _division_prompt(players, text: str, attacker: str, blockers: list[str]):
    """Alice's prompt to divide `attacker`'s damage, once bob blocks it with `blockers`."""
    alice, bob = players
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, [attacker])
    game = answer(game, bob, [f"{b} blocks {attacker}" for b in blockers])
    for _ in range(6):
        d = pending(game)
        if d.kind != "priority":
            break
        game = answer(game, alice if d.player == seat_name(game, alice) else bob, "pass")
    prompt = view(game, alice).prompt
    assert prompt.kind == "assign_combat_damage"
    return game, prompt


def test_a_tramplers_division_is_an_amount_per_blocker_and_the_player(players):
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "battlefield: [Grizzled Outrider, Veteran Dungeoneer, Forest]",
        "battlefield: [Caves of Chaos Adventurer, Forest]",
    )
    text = text.replace(
        "battlefield: [Dungeon Crawler, Zombie Ogre, Swamp]",
        "battlefield: [Dungeon Crawler, Yuan-Ti Fang-Blade, Swamp]",
    )
    game, prompt = _division_prompt(
        players, text, "Caves of Chaos Adventurer", ["Dungeon Crawler", "Yuan-Ti Fang-Blade"]
    )
    split = prompt.division
    # Lethal damage to each blocker (1 and 2) first; the rest (2) may trample over to Bob.
    assert [(r.name, r.filled, r.lethal) for r in split.recipients] == [
        ("Bob's Dungeon Crawler", 1, 1),
        ("Bob's Yuan-Ti Fang-Blade", 2, 2),
        ("Bob", 2, None),
    ]
    assert split.recipients[2].marks == f"p{seat_name(game, bob)}" and split.total == 5
    assert split.filled_id == "cd:1,2,2" and "cd:5,0,0" in split.legal_ids.split()
    assert "cd:0,3,2" not in split.legal_ids.split()  # the player only after lethal damage


def test_a_division_is_filled_in_to_kill_the_blocker_the_usual_one_would_miss(players):
    # A 3/4 blocked first by a 2/5 it cannot kill, then by a 2/1: the usual division (lethal
    # damage in declaration order) puts all 3 on the 2/5 and kills nothing; the amounts are
    # filled in with 2 and 1, which kill the 2/1. The usual one is still the first option.
    alice, bob = players
    text = position_text("double_block.yaml").replace(
        "[Dungeon Crawler, Zombie Ogre, Swamp]", "[Shortcut Seeker, Dungeon Crawler, Swamp]"
    )
    _, prompt = _division_prompt(
        players, text, "Veteran Dungeoneer", ["Shortcut Seeker", "Dungeon Crawler"]
    )
    assert prompt.options[0].display == "3 to Bob's Shortcut Seeker (the usual division)"
    split = prompt.division
    assert [(r.name, r.filled, r.lethal) for r in split.recipients] == [
        ("Bob's Shortcut Seeker", 2, 5),
        ("Bob's Dungeon Crawler", 1, 1),
    ]
    assert split.filled_id == "cd:2,1"


def test_between_first_strike_and_regular_damage_the_strike_still_to_come_is_said(players):
    # A double striker (Gloom Stalker, 2/3, with a dungeon completed) unblocked at bob, 4 life:
    # after its first-strike damage (bob at 2), bob's stop says the 2 still coming is lethal,
    # and the pass says so too (CR 510.4).
    alice, bob = players
    text = position_text("lethal_with_an_answer.yaml")
    text = text.replace(
        "battlefield: [Veteran Dungeoneer, Veteran Dungeoneer, Forest]",
        "battlefield: [Gloom Stalker, Forest]\n    completed: [Lost Mine of Phandelver]",
    ).replace("life: 6", "life: 4")
    text = text.replace("[Yuan-Ti Malison, Swamp, Swamp]", "[Swamp, Swamp]")
    game = start_from_text(alice, bob, text)
    services.set_stop(game.pk, bob, "theirs:combat_damage", True, action_id="s-1")
    game = answer(game, alice, ["Gloom Stalker"])
    for _ in range(8):
        d = pending(game)
        with services.reading(game) as engine:
            step = engine.state.step
        if d.kind == "priority" and d.player == seat_name(game, bob) and step == "combat_damage":
            break
        who = alice if d.player == seat_name(game, alice) else bob
        game = answer(game, who, [] if d.kind == "declare_blockers" else "pass")
    prompt = view(game, bob).prompt
    assert prompt.kind == "priority"
    assert prompt.coming.final and prompt.coming.lethal and prompt.coming.life == 2
    assert view(game, bob).pass_text == "Pass and take 2"


def test_the_keys_follow_the_panel_plays_first_then_abilities_never_pass_or_mana(players):
    alice, bob = players
    game = start_from_text(alice, bob, position_text("varis_fork.yaml"))
    prompt = view(game, alice).prompt
    assert prompt.kind == "priority"
    shown = [*prompt.play_options, *prompt.act_options]
    assert [o.key for o in shown] == [str(n) for n in range(1, len(shown) + 1)]
    assert [o.label for o in prompt.play_options] == [
        "cast Keen-Eared Sentry",
        "cast Gloom Stalker",
    ]
    assert all(o.key == "" for o in (*prompt.pass_options, *prompt.mana_options))
    html = render(game, alice, "prompt")
    assert 'data-key="1"' in html and 'data-key=" "' in html  # 1: the first play; Space: pass


def test_identical_cards_in_hand_are_one_choice_on_the_panel_and_a_button_each(client, players):
    alice, bob = players
    text = position_text("varis_fork.yaml").replace(
        "hand: [Keen-Eared Sentry, Gloom Stalker]",
        "hand: [Plains, Keen-Eared Sentry, Plains, Plains, Keen-Eared Sentry]",
    )
    game = start_from_text(alice, bob, text)
    prompt = view(game, alice).prompt
    # The engine still tells the copies apart (scenario files answer "play Plains #2")...
    labels = [o.label for o in prompt.options]
    assert {"play Plains #1", "play Plains #2", "play Plains #3"} <= set(labels)
    # ...the panel shows one button for each real choice, the first copy's id answering it.
    panel = [(o.display, o.key) for o in prompt.play_options]
    assert panel == [("play Plains", "1"), ("cast Keen-Eared Sentry", "2")]
    plains = prompt.play_options[0]
    assert plains.id == option_id(game, "play Plains #1")
    assert len(plains.marks.split()) == 3  # hovering it lights every copy in the hand
    # Each card in the hand keeps its own button, answering for that card.
    hand = view(game, alice).bottom.hand
    buttons = [(c.name, o.id, o.display) for c in hand for o in c.actions]
    assert sorted(b for _, _, b in buttons) == ["cast Keen-Eared Sentry"] * 2 + ["play Plains"] * 3
    assert len({i for _, i, _ in buttons}) == 5

    client.force_login(alice.user)
    page = client.get(game.get_absolute_url()).content.decode()
    shown = re.findall(r'<button type="submit" class="btn "[^>]*>([^<]*)<kbd', page)
    assert shown == ["play Plains ", "cast Keen-Eared Sentry ", "activate Dungeon Map: {3}, {T} "]
    form = re.search(r'<form class="option-form"(?:(?!</form>).)*>play Plains <kbd', page, re.S)
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form.group(0)))
    response = client.post(f"/g/{game.code}/act/", fields)
    assert response.status_code == 302
    game.refresh_from_db()
    with services.reading(game) as engine:
        me = seat_name(game, alice)
        assert [o.name for o in engine.state.player(me).hand].count("Plains") == 2
        lands = [o.name for o in engine.state.controlled(me)]
        assert lands.count("Plains") == 3  # the two it had, and the one played


def test_a_search_shows_each_card_once_with_its_copies_and_not_where_they_lie(players):
    alice, bob = players
    library = "[Swamp, Mountain, Swamp, Mountain, Swamp, Grizzled Outrider, Swamp, Mountain]"
    text = (
        "name: A search\n"
        "turn: {number: 2, active: bob, step: end}\n"
        "setup:\n"
        f"  alice: {{initiative: true, library: {library}}}\n"
        "  bob: {library: [Forest]}\n"
    )
    game = start_from_text(alice, bob, text)
    while (d := pending(game)).kind == "priority":
        game = answer(game, alice if d.player == seat_name(game, alice) else bob, "pass")
    assert d.kind == "search"
    shown = [o.display for o in view(game, alice).prompt.options]
    assert shown == ["Mountain (3)", "Swamp (4)", "find nothing"]


def test_a_choice_among_identical_cards_in_the_hand_is_one_button_with_their_number(players):
    alice, bob = players
    text = (
        "name: Discarding to hand size\n"
        "turn: {number: 3, active: alice, step: end}\n"
        "setup:\n"
        "  alice: {hand: [Forest, Purple Worm, Forest, Swamp, Forest, Swamp, Island, Mountain]}\n"
        "  bob: {library: [Forest]}\n"
    )
    game = start_from_text(alice, bob, text)
    while (d := pending(game)).kind == "priority":
        game = answer(game, alice if d.player == seat_name(game, alice) else bob, "pass")
    assert d.kind == "discard" and not d.multi
    prompt = view(game, alice).prompt
    assert [o.display for o in prompt.shown] == [
        "Forest (3)",
        "Purple Worm",
        "Swamp (2)",
        "Island",
        "Mountain",
    ]
    assert [o.key for o in prompt.shown] == ["1", "2", "3", "4", "5"]
    # Each Forest in the hand keeps its own button, which discards that Forest.
    assert len(prompt.options) == 8
    panel = render(game, alice, "prompt")
    assert panel.count(">Forest (3) <kbd") == 1 and ">Forest #" not in panel


def test_a_list_of_targets_is_grouped_by_side_in_the_tables_order(players):
    """The other player's things first (the top of the table), then the viewer's, each under
    its side's name; the keys follow the list as shown, and the engine's ids and labels (what a
    scenario file answers with) stay as they are."""
    alice, bob = players
    game = start_from_text(alice, bob, position_text("busy_table.yaml"))
    game = answer(game, alice, "cast Rally Maneuver")
    engine_order = [(o.id, o.label) for o in pending(game).options]
    prompt = view(game, alice).prompt
    assert prompt.kind == "choose_targets"
    assert [g.title for g in prompt.groups] == ["Bob's side", "Your side"]
    theirs, mine = ([o.display for o in g.options] for g in prompt.groups)
    assert theirs == [
        "Bob's Acererak the Archlich",
        "Bob's Yuan-Ti Fang-Blade",
        "Bob's Clattering Skeletons",
    ]
    assert mine == [
        "your Varis, Silverymoon Ranger",
        "your Cloister Gargoyle",
        "your Nadaar, Selfless Paladin",
    ]
    assert [o.display for o in prompt.options] == theirs + mine
    assert [o.key for o in prompt.options] == ["1", "2", "3", "4", "5", "6"]
    assert sorted((o.id, o.label) for o in prompt.options) == sorted(engine_order)
    html = render(game, alice, "prompt")
    assert html.index("Bob&#39;s side") < html.index("Bob&#39;s Acererak") < html.index("Your side")
    assert html.index("Your side") < html.index("your Varis")


def test_the_log_says_whose_a_permanent_dealt_damage_or_dying_is_in_each_viewers_words():
    died = "Bob's Goblin has lethal damage and is put into the graveyard (CR 704.5g)"
    hit = "Magic Missile deals 1 damage to Goblin (Bob's)"
    assert log_line_for(died, "Bob").startswith("Your Goblin has lethal damage")
    assert log_line_for(hit, "Bob") == "Magic Missile deals 1 damage to Goblin (yours)"
    assert log_line_for(died, "alice") == died and log_line_for(hit, "alice") == hit
    assert log_line_for(hit, "") == hit  # a spectator reads the names


def test_a_player_named_with_parentheses_is_not_nested_in_parentheses():
    """ "Computer (Hard)" as whose a damaged permanent is: brackets inside the parentheses, as
    English nests them, and still "(yours)" to that player."""
    assert whose_after("Computer (Hard)") == "(Computer [Hard]'s)"
    hit = "Magic Missile deals 1 damage to Goblin (Computer [Hard]'s)"
    assert log_line_for(hit, "Computer (Hard)") == "Magic Missile deals 1 damage to Goblin (yours)"
    assert log_line_for(hit, "alice") == hit


def test_a_target_among_namesakes_keeps_its_number_in_the_viewers_words():
    line = "bob casts Power Word Kill targeting alice's Cloister Gargoyle #2"
    assert log_line_for(line, "alice") == (
        "bob casts Power Word Kill targeting your Cloister Gargoyle #2"
    )


def goaded_outrider(alice, bob):
    """Bob's Arena goads alice's Grizzled Outrider: the computer's position of the same Arena
    (tests/ai/positions), played here by hand."""
    text = position_text("../../ai/positions/arena_goads_the_opponents_creature.yaml")
    game = start_from_text(alice, bob, text)
    game = answer(game, bob, "activate Dungeon Map: {3}, {T}")
    game = passes(game, bob)
    game = passes(game, alice)
    game = answer(game, bob, "Arena")
    game = passes(game, bob)
    game = passes(game, alice)
    outrider = next(o for o in pending(game).options if o.label.startswith("Grizzled Outrider"))
    game = answer(game, bob, outrider.label)
    return game


def test_a_goaded_creature_says_so_and_who_goaded_it(players):
    """Goad is public and changes what a creature must do (it attacks each combat, CR 701.15b),
    so its card says so on both sides of the table until the goading player's next turn."""
    alice, bob = players
    game = goaded_outrider(alice, bob)
    game = passes(game, bob)
    game = passes(game, alice)
    bobs = seat_name(game, bob)
    for viewer in (alice, bob, None):
        by_name = {
            p.name: p for side in view(game, viewer).sides_top_bottom for p in side.creatures
        }
        assert by_name["Grizzled Outrider"].goaded_by == (bobs,)
        assert by_name["White Plume Adventurer"].goaded_by == ()
    html = render(game, alice, "board")
    assert f"goaded by {bobs}" in html


def test_a_goaded_creature_starts_ticked_in_its_controllers_attack(players):
    """On her turn alice's goaded Outrider must attack (CR 701.15b): her prompt says so and its
    choice starts ticked, so Confirm declares the attack the rules require (a playtester saw
    "Choose up to 1 (or none)" with nothing ticked, pressed Confirm and was refused)."""
    alice, bob = players
    game = goaded_outrider(alice, bob)
    for _ in range(40):  # to alice's declaration of attackers: bob stays home, all pass
        d = pending(game)
        if d.kind == "declare_attackers" and d.player == seat_name(game, alice):
            break
        who = alice if d.player == seat_name(game, alice) else bob
        if d.kind == "declare_attackers":
            game = answer(game, who, [])
        else:  # a pass, or the first choice (White Plume's untap)
            game = answer(game, who, "pass" if d.kind == "priority" else d.options[0].label)
    assert (d.player, d.kind) == (seat_name(game, alice), "declare_attackers")
    html = render(game, alice, "prompt")
    assert "goaded, Grizzled Outrider must attack" in html
    goaded = next(o for o in d.options if o.label == "Grizzled Outrider")
    other = next(o for o in d.options if o.label != "Grizzled Outrider")
    assert re.search(rf'value="{goaded.id}" id="[^"]+" checked', html), html
    assert not re.search(rf'value="{other.id}" id="[^"]+" checked', html)
    assert "(or none)" not in html
