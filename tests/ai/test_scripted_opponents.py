"""The scripted opponents of bench/ai.py keep their habit through whole games against Medium
(bench/scripted.py): aggro attacks with everything and never blocks, turtle never attacks and
leaves no creature that could block unused, burn aims damage at the face when it can; allin
and noblock keep one of aggro's habits each. Every
answer is legal, and the rules they share with Medium run strictly (a habit that fails is an
error, not a quiet safe answer)."""

from __future__ import annotations

from dataclasses import dataclass
from unittest import mock

import pytest

from bench.scripted import _asking, _deals_damage, scripted_answer
from game.ai import decide, policy
from game.ai.lethal import face_damage
from game.engine.game import Engine
from game.engine.kinds import CHOOSE_TARGETS, DECLARE_ATTACKERS, DECLARE_BLOCKERS, PRIORITY
from tests.sizes import sized

from .helpers import setup_for

SEEDS = range(sized(2, 8))
# Deals where bob plays a deck with burn (Magic Missile): black-red, then blue-red (setup_for).
BURN_SEEDS = sized([6, 13], [4, 5, 6, 7, 12, 13, 14, 15])


@dataclass
class Seen:
    kind: str
    offered: list[str]
    chosen: list[str]
    menace: set[int]
    pairs: dict[str, tuple[int, ...]]  # a block's option id -> (blocker, attacker)
    face: str | None  # the option aiming damage at alice's face
    burn: list[str]  # at priority: the options that can deal damage to alice's face


def play(name: str, seed: int) -> list[Seen]:
    """`name` (bob) against Medium (alice), to the end; bob's combat and target decisions."""
    seen: list[Seen] = []
    game = Engine(setup_for(seed))
    n = 0
    with mock.patch.object(policy, "STRICT", True):
        while (d := game.pending) is not None and n < 4000:
            n += 1
            if d.player == "alice":
                game.answer("alice", decide("medium", game, "alice", seed * 1000 + n))
                continue
            answer = scripted_answer(name, game, "bob", seed * 1000 + n)
            ids = answer if isinstance(answer, list) else [answer]
            pairs = {o.id: o.objs for o in d.options} if d.kind == DECLARE_BLOCKERS else {}
            face = None
            if d.kind == CHOOSE_TARGETS:
                item = _asking(game.state, d, "bob")
                if item is not None and _deals_damage(item, len(item.targets)):
                    face = next((o.id for o in d.options if o.data == ("player", "alice")), None)
            burn = []
            if d.kind == PRIORITY:
                burn = [o.id for o in d.options if face_damage(game.state, "bob", o) > 0]
            menace = set((d.constraints or {}).get("menace", []))
            seen.append(Seen(d.kind, [o.id for o in d.options], ids, menace, pairs, face, burn))
            game.answer("bob", answer)
    assert game.pending is None, "the game did not end"
    return seen


@pytest.mark.parametrize("seed", SEEDS)
def test_aggro_attacks_with_everything_and_never_blocks(seed: int) -> None:
    seen = play("aggro", seed)
    attacks = [s for s in seen if s.kind == DECLARE_ATTACKERS]
    assert attacks, "aggro never had a creature to attack with"
    for s in attacks:
        assert sorted(s.chosen) == sorted(i for i in s.offered if ":" not in i)
    assert all(s.chosen == [] for s in seen if s.kind == DECLARE_BLOCKERS)


def test_aggros_halves_keep_one_habit_each() -> None:
    seen = play("allin", 0)
    attacks = [s for s in seen if s.kind == DECLARE_ATTACKERS]
    assert attacks
    for s in attacks:
        assert sorted(s.chosen) == sorted(i for i in s.offered if ":" not in i)
    assert any(s.chosen for s in seen if s.kind == DECLARE_BLOCKERS), "allin never blocked"
    seen = play("noblock", 0)
    assert all(s.chosen == [] for s in seen if s.kind == DECLARE_BLOCKERS)
    assert any(s.kind == DECLARE_BLOCKERS for s in seen), "noblock was never attacked"


@pytest.mark.parametrize("seed", SEEDS)
def test_turtle_never_attacks_and_blocks_with_every_creature_it_can(seed: int) -> None:
    seen = play("turtle", seed)
    assert all(s.chosen == [] for s in seen if s.kind == DECLARE_ATTACKERS)
    blocks = [s for s in seen if s.kind == DECLARE_BLOCKERS]
    assert blocks, "turtle was never attacked"
    for s in blocks:
        used = {s.pairs[i][0] for i in s.chosen}
        could = {b for b, a in s.pairs.values() if a not in s.menace}
        assert could <= used, f"blockers left unused: {could - used}"


def test_burn_casts_its_damage_at_the_face_whenever_it_can() -> None:
    seen = [s for seed in BURN_SEEDS for s in play("burn", seed)]
    aimed = [s for s in seen if s.face is not None]
    assert aimed, "burn never had damage to aim"
    for s in aimed:
        assert s.face in s.chosen
    could = [s for s in seen if s.burn]
    assert could, "burn never could cast damage at the face"
    for s in could:
        # The land for the turn may come first; then the burn, whatever the board.
        assert s.chosen[0] in s.burn or s.chosen[0].startswith("play:"), s.chosen


# Deals where bob plays a deck with no damage spell or ability: green-white, then white-black.
NO_BURN_SEEDS = sized([1, 9], [0, 1, 2, 3, 8, 9, 10, 11])


@pytest.mark.parametrize("seed", NO_BURN_SEEDS)
def test_burn_with_a_deck_that_deals_no_damage_plays_exactly_like_medium(seed: int) -> None:
    """The premise of docs/ai.md's bound on Medium against burn: burn's habit needs damage, so on
    these decks its games are Medium against itself, move for move."""
    game = Engine(setup_for(seed))
    n = 0
    while (d := game.pending) is not None and n < 4000:
        n += 1
        answer = decide("medium", game, d.player, seed * 1000 + n)
        if d.player == "bob":
            assert scripted_answer("burn", game, "bob", seed * 1000 + n) == answer, d.prompt
        game.answer(d.player, answer)
    assert game.state.winner is not None
