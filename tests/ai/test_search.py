"""Hard's search (search.py and the modules it builds on): the copies of a game it plays in are
the game, it lists every legal answer where they are few, the other player of its sampled games
plays in more than one style, and a deadline cuts it short with a legal answer."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter

from game.ai import candidates as candidates_module
from game.ai import decide, search
from game.ai.candidates import ENUMERATE_MAX, candidate_answers, combat_kept
from game.ai.copies import Fork
from game.ai.opponents import STYLES, Aggressive, rollout_players
from game.ai.policy import Policy
from game.engine import kinds
from game.engine.decisions import IllegalAnswer
from game.engine.game import Engine, replay
from game.scenario.loader import parse_scenario
from game.scenario.runner import build_game, play_script
from tests.sizes import sized

from .helpers import COMPUTER, OTHER, play, position, setup_for


def _games(seeds: range, every: int) -> list[Engine]:
    """Positions from Medium against Medium, every `every`-th decision (the game itself moves
    on, so each position is a copy)."""
    out = []
    for seed in seeds:
        game = Engine(setup_for(seed))
        for n, g in enumerate(play(game, seed, {OTHER: "medium", COMPUTER: "medium"})):
            if n % every == every - 1:
                out.append(replay(g.setup, g.answers))
    return out


def test_a_copy_from_a_snapshot_is_the_game_at_its_decision() -> None:
    positions = _games(sized(small=range(2), full=range(6)), every=37)
    assert len(positions) > 20
    resumed = 0
    for game in positions:
        fork = Fork(game)
        resumed += fork.snapshot is not None
        for _ in range(2):  # a copy leaves the snapshot as it was for the next one
            copy = fork.copy()
            assert copy.state_json() == game.state_json()
            assert copy.pending is not None and game.pending is not None
            assert copy.pending.to_json() == game.pending.to_json()
            assert copy.state.rng.getstate() == game.state.rng.getstate()
            assert copy.answers == game.answers
    assert resumed > len(positions) // 2, "most positions are a few answers from a step's start"


def _legal_sets(game: Engine) -> set[tuple[str, ...]]:
    d = game.pending
    assert d is not None
    ids = [o.id for o in d.options]
    legal = set()
    for k in range(len(ids) + 1):
        for combo in itertools.combinations(ids, k):
            try:
                d.validate(d.player, list(combo))
            except IllegalAnswer:
                continue
            legal.add(tuple(sorted(combo)))
    return legal


def test_every_legal_block_and_attack_is_a_candidate_where_they_are_few() -> None:
    """Every one but those `combat_kept` leaves out (an attack by a creature with no power, a
    chump block not needed: no_chump_block_at_20_life.yaml)."""
    checked = 0
    for seed in sized(small=range(4), full=range(12)):
        game = Engine(setup_for(seed))
        for g in play(game, seed, {OTHER: "medium", COMPUTER: "medium"}):
            d = g.pending
            if d is None or d.player != COMPUTER or len(d.options) > 8:
                continue
            if d.kind not in (kinds.DECLARE_ATTACKERS, kinds.DECLARE_BLOCKERS):
                continue
            per_object = Counter(o.objs[0] for o in d.options)  # an attacker's or blocker's
            if math.prod(n + 1 for n in per_object.values()) > ENUMERATE_MAX:
                continue
            legal = _legal_sets(g)
            medium = Policy(COMPUTER, random.Random(seed)).answer(g)
            got = candidate_answers(g, COMPUTER, d, medium)
            assert got[0] == medium
            kept = combat_kept(g.state, COMPUTER, d, medium)
            assert {tuple(sorted(a)) for a in got} == {a for a in legal if kept(list(a))}
            checked += len(legal) > 2
    assert checked >= 5


# Alice, in her main phase, may cast Acererak or one of three Dungeon Crawlers, or activate
# Dungeon Map (from a game of Hard against Medium, cut down to what the choice needs).
THREE_CRAWLERS = """
name: Three Dungeon Crawlers in hand
players: [alice, bob]
turn: {number: 9, active: alice, step: postcombat_main}
setup:
  alice:
    life: 5
    hand: [Acererak the Archlich, Dungeon Crawler, Dungeon Crawler, Dungeon Crawler]
    library: [Mountain, Swamp, Mountain]
    battlefield: [Swamp, Swamp, Swamp, Mountain, Mountain, Dungeon Map]
    completed: [Lost Mine of Phandelver]
    lands_played: 1
  bob:
    life: 8
    library: [Plains, Plains, Plains]
    battlefield: [Plains, Plains, Plains, Cloister Gargoyle]
"""


def test_copies_of_a_card_in_hand_are_one_candidate() -> None:
    """Three copies counted as three choices had crowded passing out of the five candidates
    the search keeps."""
    game = build_game(parse_scenario(THREE_CRAWLERS, "three_crawlers.yaml"))
    d = game.pending
    assert d is not None and d.player == "alice"
    medium = Policy("alice", random.Random(0)).answer(game)
    crawlers = [o.id for o in d.options if o.label.startswith("cast Dungeon Crawler")]
    assert len(crawlers) == 3
    # Whichever copy Medium's own answer casts, it is the one Crawler among the candidates.
    for first in [medium, *crawlers]:
        labels = [d.option(a).label for a in candidate_answers(game, "alice", d, first)]
        assert "pass" in labels
        assert sum(label.startswith("cast Dungeon Crawler") for label in labels) == 1, labels
        assert len(labels) <= search.MAX_CANDIDATES, labels


# Alice's Grizzled Outrider (5/5) attacks Bob's Ellywick Tumblestrum; Bob, at 20 life, has a
# Goblin that can only chump it.
OUTRIDER_AT_ELLYWICK = """
name: An attack at Ellywick
players: [alice, bob]
turn: {number: 7, active: alice, step: precombat_main}
setup:
  alice:
    library: [Forest, Forest, Forest]
    battlefield: [Forest, Grizzled Outrider]
  bob:
    library: [Plains, Plains, Plains]
    battlefield: [Plains, {card: Ellywick Tumblestrum, loyalty: 4}, {token: Goblin}]
script:
  - advance: declare_attackers
  - alice: ["Grizzled Outrider -> Ellywick Tumblestrum"]
  - advance: declare_blockers
"""


def test_a_chump_block_that_may_save_a_planeswalker_is_a_candidate() -> None:
    """At a safe life a chump block is no candidate, but one in front of an attack at the
    seat's planeswalker may save it."""
    scenario = parse_scenario(OUTRIDER_AT_ELLYWICK, "ellywick.yaml")
    game = build_game(scenario)
    play_script(scenario, game)
    d = game.pending
    assert d is not None and d.kind == kinds.DECLARE_BLOCKERS and d.player == "bob"
    got = candidate_answers(game, "bob", d, [])
    assert [d.option(i).label for a in got for i in a] == ["Goblin blocks Grizzled Outrider"]


def test_the_other_player_of_the_sampled_games_is_not_medium_alone() -> None:
    g = Engine(setup_for(1)).state
    styles = {type(rollout_players(g, COMPUTER, w, 0)[OTHER]) for w in range(len(STYLES))}
    assert len(styles) >= 3 and Aggressive in styles
    assert all(type(rollout_players(g, COMPUTER, w, 0)[COMPUTER]) is Policy for w in range(8))


def _searched_positions(n: int) -> list[Engine]:
    out = []
    seed = 3
    game = Engine(setup_for(seed))
    for g in play(game, seed, {OTHER: "medium", COMPUTER: "medium"}):
        d = g.pending
        if d is not None and d.player == COMPUTER and search.searches(g, COMPUTER, 1):
            out.append(replay(g.setup, g.answers))
            if len(out) == n:
                break
    return out


def test_a_deadline_cuts_the_search_short_with_a_legal_answer(monkeypatch) -> None:
    monkeypatch.setattr(search, "BUDGET", 1500)
    monkeypatch.setattr(search, "ROLLOUT_DECISIONS", 60)
    for game in _searched_positions(4):
        d = game.pending
        assert d is not None
        medium = decide("medium", game, COMPUTER, 1)
        # A deadline already past: not a world is finished, so Medium's answer.
        assert decide("hard", game, COMPUTER, 1, deadline=time.monotonic()) == medium
        # One far away is never reached: the same answer as with none.
        free = decide("hard", game, COMPUTER, 1)
        assert decide("hard", game, COMPUTER, 1, deadline=time.monotonic() + 3600) == free
        # One that comes in the middle: some legal answer.
        cut = decide("hard", game, COMPUTER, 1, deadline=time.monotonic() + 0.02)
        d.validate(COMPUTER, cut)


def _combat_decision(file: str, kind: str, monkeypatch) -> tuple[Engine, list[str]]:
    """The computer's decision of `kind` in the position `file`, with looks one step ahead
    refused (a combat candidate is scored by the calculator, without playing), and Medium's
    answer."""
    game = position(file)
    d = game.pending
    assert d is not None and d.kind == kind and d.player == COMPUTER

    def no_look(*args: object) -> float:
        raise AssertionError("a combat candidate was played out to be pruned")

    monkeypatch.setattr(search, "look_ahead", no_look)
    return game, decide("medium", game, COMPUTER, 1)


def _pruned(game: Engine, candidates: list) -> list:
    scores: list[float] = []
    return search.prune(Fork(game), game, COMPUTER, candidates, 1, search.Clock(None), scores)


def test_blocks_are_pruned_by_the_combat_calculator_without_playing(monkeypatch) -> None:
    """Eight block assignments (three blockers, each blocking the Worm or not) are more than the
    search keeps: the calculator ranks them with no look ahead, and the three-creature block
    that kills the 8/7 for two of its blockers is among those kept, above no block at all.
    (At 20 life the blocks of one or two are chumps the search leaves out: allowed here, so that
    there are eight.)"""
    kind = kinds.DECLARE_BLOCKERS
    game, medium = _combat_decision("gang_blocks_a_big_attacker_with_three.yaml", kind, monkeypatch)
    monkeypatch.setattr(candidates_module, "_chumps_allowed", lambda *args: True)
    candidates = candidate_answers(game, COMPUTER, game.pending, medium)
    assert len(candidates) == 8 > search.MAX_CANDIDATES
    kept = _pruned(game, candidates)
    assert len(kept) == search.MAX_CANDIDATES and kept[0] == medium
    triple = max(candidates, key=len)
    assert len(triple) == 3 and triple in kept
    worth = search.PRUNERS[kind](game.state, game.pending, COMPUTER)
    assert worth(triple) > worth([])
    assert worth(triple) > max(worth(a) for a in candidates if len(a) == 2)


def test_attacks_are_pruned_by_the_combat_calculator_without_playing(monkeypatch) -> None:
    """Eight attacks (each of three creatures in or out) against one blocker at 6 life: the
    calculator, blocking as Medium would, finds everything attacking lethal, ranks it first, and
    ranks a Crawler alone into the 3/4 below the Dragon alone over it."""
    kind = kinds.DECLARE_ATTACKERS
    game, medium = _combat_decision("attacks_for_lethal.yaml", kind, monkeypatch)
    d = game.pending
    candidates = candidate_answers(game, COMPUTER, d, medium)
    assert len(candidates) == 8 > search.MAX_CANDIDATES
    worth = search.PRUNERS[kind](game.state, game.pending, COMPUTER)
    names = {o.id: o.data[0].name for o in d.options}  # type: ignore[index]
    by_names = {tuple(sorted(names[i] for i in a)): worth(a) for a in candidates}
    everything = by_names[("Dungeon Crawler", "Dungeon Crawler", "Emerald Dragon")]
    assert everything == max(by_names.values()) and everything > 500  # a win
    assert by_names[("Emerald Dragon",)] > by_names[("Dungeon Crawler",)]
    kept = _pruned(game, candidates)
    assert len(kept) == search.MAX_CANDIDATES and max(kept, key=len) == max(candidates, key=len)


def test_no_candidate_target_gives_away_while_medium_gives_nothing_away() -> None:
    """Arena's goad: Medium goads a creature of alice's; a goad on bob's own creature is not
    among Hard's candidates (the sampled games can't tell it from a good one when the creature
    attacks anyway: a playtest saw Hard goad its own White Plume Adventurer)."""
    game = position("arena_goads_the_opponents_creature.yaml")
    d = game.pending
    assert d is not None and d.kind == kinds.CHOOSE_TARGETS
    medium = decide("medium", game, COMPUTER, 1)
    candidates = candidate_answers(game, COMPUTER, d, medium)
    whose = {o.id: game.state.find(o.objs[0]).controller for o in d.options}
    assert {whose[c] for c in candidates} == {OTHER}, candidates
    assert len(candidates) == 2  # both of alice's creatures
