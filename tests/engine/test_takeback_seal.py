"""How far back a takeback may cut the answer log (`Engine.sealed`): never across randomness or
anything revealed (docs/rules-coverage.md, "Takebacks"). The engine derives it from what its
answers did, the same on a replay as live."""

from __future__ import annotations

from game.engine.game import RANDOM, Engine, replay
from game.engine.zones import move

from .helpers import new_game, position

MAIN = {"number": 3, "active": "alice", "step": "precombat_main"}


def _table(alice_hand: list[str], alice_library: list[str] | None = None) -> Engine:
    return position(
        {
            "alice": {
                "hand": alice_hand,
                "library": alice_library or ["Plains", "Forest", "Island"],
                "battlefield": ["Mountain", "Mountain", "Dungeon Map", "Island", "Island"],
            },
            "bob": {"hand": ["Swamp"], "library": ["Swamp"] * 5, "battlefield": ["Swamp"]},
        },
        MAIN,
    )


def _pass_until(e: Engine, done) -> None:
    while e.pending is not None and not done(e):
        d = e.pending
        if d.kind == "declare_attackers":
            e.answer(d.player, [])
        else:
            e.answer_labels(d.player, "pass")


def test_a_land_played_stays_open_and_its_log_line_is_known():
    e = _table(["Forest"])
    e.answer_labels("alice", "play Forest")
    assert e.sealed == 0  # the answer at index 0 may still be taken back
    kind, start, stop = e.answer_marks[0]
    assert kind == "priority"
    assert e.state.log[start:stop] == ["alice plays Forest (CR 305.1)"]


def test_a_draw_seals_every_answer_before_it():
    e = _table(["Forest"])
    e.answer_labels("alice", "play Forest")
    _pass_until(e, lambda e: e.state.active == "bob" and e.state.step == "precombat_main")
    # Bob's draw step drew a card: the answer that led to it and all before are sealed.
    assert e.sealed > 1
    assert e.sealed_why == "a card left bob's library"


def test_a_scry_seals_the_activation_that_led_to_it_but_not_the_scry_itself():
    e = _table([])
    e.answer_labels("alice", "activate Dungeon Map: {3}, {T}")
    while e.pending.kind != "scry":
        d = e.pending
        if d.kind == "choose_dungeon":
            e.answer_labels(d.player, "Lost Mine of Phandelver")
        else:
            e.answer_labels(d.player, "pass")
    # Alice was shown her top card: nothing before the scry's own answer comes back.
    assert e.sealed == len(e.answers)
    assert e.sealed_why == "alice looked at the top of their library"
    at = len(e.answers)
    e.answer_labels("alice", [])  # keep it on top: reorders nothing, reveals nothing new
    assert e.sealed == at  # the scry's answer itself may be taken back


def test_a_mulligan_shuffles_and_a_keep_does_not():
    e = new_game(seed=3)
    first = e.pending.player
    e.answer_labels(first, "play")
    assert e.sealed == 1  # the seven cards each player drew after the choice
    d = e.pending
    e.answer_labels(d.player, "keep")
    assert e.sealed == 1  # a keep draws and shuffles nothing
    d = e.pending
    e.answer_labels(d.player, "mulligan")
    assert e.sealed == 3 and e.sealed_why in (RANDOM, f"a card left {d.player}'s library")


def test_a_card_out_of_a_hand_is_a_disclosure_unless_its_owner_answered():
    e = _table(["Forest"])
    g = e.state
    before = g.disclosures
    g.answering = "alice"
    move(g, g.player("alice").hand[0], "graveyard")  # her own discard: she chose to show it
    assert g.disclosures == before
    g.answering = "alice"
    move(g, g.player("bob").hand[0], "graveyard")  # bob's card, by alice's answer
    assert g.disclosures == before + 1 and g.disclosed == "a card left bob's hand"


def test_randomness_anywhere_seals():
    e = _table(["Forest"])
    e.answer_labels("alice", "play Forest")
    assert e.sealed == 0
    e.state.rng.shuffle([1, 2, 3])  # as a card that chooses at random would
    e.answer_labels("alice", "pass")
    assert e.sealed == 2 and e.sealed_why == RANDOM


def test_a_replay_seals_the_same_answers_at_every_point():
    e = new_game(seed=11)
    marks = []
    while e.pending is not None and len(e.answers) < 60:
        d = e.pending
        options = d.options
        choice = options[-1].id if d.kind != "priority" else "pass"
        if d.kind == "mulligan":
            choice = "keep"
        if d.multi:
            e.answer(d.player, [])
        else:
            e.answer(d.player, choice)
        marks.append((e.sealed, e.sealed_why))
    for k in range(1, len(e.answers) + 1, 7):
        again = replay(e.setup, e.answers[:k])
        assert (again.sealed, again.sealed_why) == marks[k - 1]
