"""The log's lines read as sentences: a token is named once as a token, plural for several;
counters are counted in words; an ability is not its source."""

from __future__ import annotations

from pathlib import Path

from game.board.whose import log_line_for
from game.engine.effects_permanents import _tokens
from game.engine.headings import is_heading
from game.scenario.runner import final_state

from .helpers import position

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _log(scenario: str) -> list[str]:
    return final_state(SCENARIOS / scenario)["log"]


def test_a_token_whose_description_says_token_is_not_a_token_token():
    assert "alice creates 1 4/1 black Skeleton creature token with menace" in _log(
        "undercity/undercity__catacombs.yaml"
    )


def test_several_tokens_are_tokens_wherever_the_description_says_token():
    described = "4/1 black Skeleton creature token with menace"
    assert _tokens(described, 2) == "4/1 black Skeleton creature tokens with menace"
    assert _tokens("1/1 red Goblin creature", 3) == "1/1 red Goblin creature tokens"
    assert _tokens("Treasure", 1) == "Treasure token"


def test_counters_are_counted_in_words():
    forge = _log("undercity/undercity__forge.yaml")
    assert "alice's Seasoned Dungeoneer gets 2 +1/+1 counters" in forge
    passageway = _log("cards/passageway_seer.yaml")
    assert any(line.endswith("gets a +1/+1 counter") for line in passageway), passageway


def test_until_next_turn_says_whose_turn():
    """The log is one text for both players: "until your next turn" would read as the reader's
    turn, so the effect's line names the player whose turn ends it (the room's own text, quoted
    in the venture's line, keeps its words)."""
    lines = _log("engine/continuous_until_your_next_turn.yaml")
    assert "bob's Grizzled Outrider gets -4/-0 until alice's next turn" in lines, lines


def test_each_phase_where_something_happens_is_headed_in_the_log():
    """A land played after combat reads apart from one played before it: the log heads a phase
    with its name before its first line, and a phase where nothing is logged gets no heading."""
    game = position(
        {"alice": {"battlefield": ["Grizzled Outrider"], "hand": ["Forest"]}, "bob": {}},
        turn={"number": 3, "active": "alice", "step": "precombat_main"},
    )
    start = len(game.state.log)
    while not (game.state.step == "postcombat_main" and game.pending.player == "alice"):
        d = game.pending
        if d.kind == "declare_attackers":
            game.answer("alice", [o.id for o in d.options])
        elif d.kind == "declare_blockers":
            game.answer("bob", [])
        else:
            game.answer(d.player, "pass")
    play = next(o.id for o in game.pending.options if o.label == "play Forest")
    game.answer("alice", play)
    while game.state.turn == 3:
        game.answer(game.pending.player, "pass")
    log = game.state.log[start:]
    headings = [line for line in log if is_heading(line, ("alice", "bob"))]
    assert headings == [
        "alice's combat, turn 3",
        "alice's second main phase, turn 3",
        "Turn 4: bob's turn",
    ], log
    combat = log.index("alice's combat, turn 3")
    assert log[combat + 1].startswith("alice attacks bob with Grizzled Outrider"), log
    assert log[log.index("alice's second main phase, turn 3") + 1] == (
        "alice plays Forest (CR 305.1)"
    )
    # The position's own line names the step it starts in: no heading repeats it.
    assert not any("first main phase" in line for line in log), log


def test_a_heading_reads_as_a_heading_on_either_players_page():
    players = ("alice", "bob")
    assert is_heading("Turn 12: bob's turn", players)
    assert log_line_for("Turn 12: bob's turn", "bob") == "Turn 12: your turn"
    assert is_heading("Turn 12: your turn", players)
    assert log_line_for("Turn 12: bob's turn", "alice") == "Turn 12: bob's turn"
    assert is_heading(log_line_for("alice's second main phase, turn 7", "alice"), players)
    assert log_line_for("alice's combat, turn 7", "alice") == "Your combat, turn 7"
    assert is_heading("Your ending phase, turn 7", players)
    assert not is_heading("alice casts Ray of Frost targeting bob's combat, turn 7 copy", players)
    assert not is_heading("alice plays Forest (CR 305.1)", players)
    assert not is_heading("alice casts Ray of Frost targeting bob combat, turn 7", players)
    assert log_line_for("Turn 12: bob's turn", "bo") == "Turn 12: bob's turn"


def test_a_line_ending_like_a_heading_is_not_one_unless_a_player_stands_where_its_name_does():
    # A display name is free text: a target named "x's combat, turn 3" ends its line like a
    # heading, but what stands before "'s combat" is no player of the game.
    players = ("alice", "x's combat, turn 3")
    line = "alice casts Magic Missile targeting x's combat, turn 3"
    assert not is_heading(line, players)
    assert is_heading("x's combat, turn 3's combat, turn 4", players)
    assert not is_heading("Turn 3: alice casts Bolt targeting bob's turn", ("alice", "bob"))


def test_a_pass_in_the_readers_own_turn_says_your():
    line = "bob's priority is passed in bob's main 2: no cards in hand and nothing to activate"
    assert log_line_for(line, "bob") == (
        "Your priority is passed in your main 2: no cards in hand and nothing to activate"
    )
    assert log_line_for(line, "alice") == line
