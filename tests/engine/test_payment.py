"""Automatic payment keeps what the hand needs: among the legal ways to pay, one that leaves the
most of the hand castable, colours first (payment.pay_mana, mana.best_payment)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.mana import ManaCost, ManaSource, best_payment, parse_cost, plan_payment
from tests.sizes import examples

from .helpers import position


def _source(i: int, produces: str, rank: int = 0, amount: int = 1) -> ManaSource:
    return ManaSource(i, f"{produces}{i}", produces, amount, rank, 0)


def _used(plan) -> list[str]:
    return sorted(s.produces for s, _ in plan[1])


def test_the_generic_part_is_paid_with_the_colour_the_hand_does_not_need():
    lands = [_source(1, "R"), _source(2, "G")]
    assert _used(best_payment(parse_cost("{1}"), {}, lands, [(parse_cost("{R}"),)])) == ["G"]
    assert _used(best_payment(parse_cost("{1}"), {}, lands, [(parse_cost("{G}"),)])) == ["R"]


def test_the_payment_keeps_a_source_for_each_card_it_can():
    # {1}{R} from Mountain x2, Island, Forest with a red and a blue card in hand: the Forest
    # pays the generic part.
    lands = [_source(1, "R"), _source(2, "R"), _source(3, "U"), _source(4, "G")]
    hand = [(parse_cost("{R}"),), (parse_cost("{U}"),)]
    assert _used(best_payment(parse_cost("{1}{R}"), {}, lands, hand)) == ["G", "R"]


def test_a_treasure_is_sacrificed_last_when_it_is_all_the_same():
    sources = [_source(1, "WUBRG", rank=2), _source(2, "R")]
    plan = best_payment(parse_cost("{1}"), {}, sources, [(parse_cost("{R}"),)])
    assert _used(plan) == ["R"]


@pytest.mark.parametrize("seed", range(40))
def test_the_chosen_payment_pays_and_keeps_at_least_as_much_as_the_ordered_plan(seed):
    rng = random.Random(seed)
    sources = [
        _source(
            i,
            rng.choice(["W", "U", "B", "R", "G", "WU", "BR", "WUBRG"]),
            rank=rng.choice([0, 0, 0, 2]),
        )
        for i in range(rng.randint(2, 8))
    ]
    cost = ManaCost(
        rng.randint(0, 3), tuple((c, 1) for c in rng.sample("WUBRG", rng.randint(0, 2)))
    )
    hand = [
        (ManaCost(rng.randint(0, 2), ((rng.choice("WUBRG"), rng.randint(1, 2)),)),)
        for _ in range(rng.randint(1, 4))
    ]
    plain = plan_payment(cost, {}, sources)
    best = best_payment(cost, {}, sources, hand)
    assert (plain is None) == (best is None)
    if best is None:
        return
    made = sum(s.amount for s, _ in best[1])
    assert made == cost.mana_value  # every source used was needed
    for color, n in cost.colored:
        assert sum(1 for _, c in best[1] if c == color) >= n

    def castable(plan) -> int:
        used = {s.obj_id for s, _ in plan[1]}
        left = [s for s in sources if s.obj_id not in used]
        return sum(plan_payment(ManaCost(0, c[0].colored), {}, left) is not None for c in hand)

    assert castable(best) >= castable(plain)


def test_paying_a_spell_and_its_ward_keeps_the_mountains_for_magic_missile():
    # Swamp x3, Mountain x2, Island; Power Word Kill ({1}{B}) on a creature with ward {1}, and
    # Magic Missile ({1}{R}{R}) in hand: both payments leave both Mountains untapped.
    game = position(
        {
            "alice": {
                "hand": ["Power Word Kill", "Magic Missile"],
                "battlefield": ["Swamp", "Swamp", "Swamp", "Mountain", "Mountain", "Island"],
            },
            "bob": {"battlefield": ["Varis, Silverymoon Ranger"]},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )

    def choose(label: str) -> None:
        d = game.pending
        game.answer(d.player, next(o.id for o in d.options if o.label == label))

    choose("cast Power Word Kill")
    if game.pending.kind == "choose_targets":
        choose("Varis, Silverymoon Ranger")
    for _ in range(6):  # to the ward trigger's payment
        d = game.pending
        if d.kind == "pay_ward":
            break
        game.answer(d.player, "pass")
    assert game.pending.kind == "pay_ward"
    choose("Pay {1}")
    g = game.state
    untapped = sorted(o.name for o in g.controlled("alice") if not o.tapped)
    assert untapped == ["Mountain", "Mountain", "Swamp"]  # {1}{R}{R}: Magic Missile's cost


def test_sources_tapped_by_hand_pay_first_and_nothing_else_is_tapped():
    # Tapping by hand is activating mana abilities with priority (CR 605.3a): the mana waits
    # in the pool and the payment spends it before tapping anything itself.
    game = position(
        {
            "alice": {
                "hand": ["Power Word Kill", "Rally Maneuver"],
                "battlefield": ["Plains", "Swamp", "Swamp", "Plains"],
            },
            "bob": {"battlefield": ["Grizzled Outrider"]},
        },
        {"number": 3, "active": "alice", "step": "precombat_main"},
    )
    g = game.state
    first_swamp, first_plains = (
        next(o for o in g.controlled("alice") if o.name == name) for name in ("Swamp", "Plains")
    )
    for land in (first_swamp, first_plains):
        mana = next(o for o in game.pending.options if o.data == "mana" and o.objs == (land.id,))
        game.answer("alice", mana.id)
    assert g.player("alice").pool == {"B": 1, "W": 1}
    cast = next(o.id for o in game.pending.options if o.label == "cast Power Word Kill")
    game.answer("alice", cast)
    if game.pending.kind == "choose_targets":
        game.answer("alice", game.pending.options[0].id)
    tapped = sorted(o.id for o in g.controlled("alice") if o.tapped)
    assert tapped == sorted([first_swamp.id, first_plains.id])
    assert g.player("alice").pool == {}


# Sources that make several mana ---------------------------------------------------------------
# One activation adds all of a source's mana, `amount` of the one color chosen (CR 605.3b,
# 106.4), and any of it may pay a symbol of that color or generic mana (CR 601.2h).


def _pays(cost: ManaCost, pool: dict[str, int], plan) -> bool:
    """Whether activating each source of `plan` once, for the color it names, and spending the
    pool pays `cost`, as payment.pay_mana spends it."""
    ids = [s.obj_id for s, _ in plan[1]]
    if len(ids) != len(set(ids)):
        return False  # a mana ability activated twice
    mana = dict(pool)
    for s, color in plan[1]:
        if color not in s.produces:
            return False
        mana[color] = mana.get(color, 0) + s.amount
    for color, n in cost.colored:
        if mana.get(color, 0) < n:
            return False
        mana[color] -= n
    return sum(mana.values()) >= cost.generic


def _payable(cost: ManaCost, pool: dict[str, int], sources: list[ManaSource]) -> bool:
    """Every way to activate each source at most once, for any color it makes."""
    wanted = {c for c, _ in cost.colored}
    options = []
    for s in sources:
        colors = [c for c in s.produces if c in wanted]
        other = [c for c in s.produces if c not in wanted][:1]  # for generic mana only
        options.append([None, *colors, *other])
    for choice in itertools.product(*options):
        plan = ({}, [(s, c) for s, c in zip(sources, choice, strict=True) if c is not None])
        if _pays(cost, pool, plan):
            return True
    return False


@pytest.mark.parametrize(
    ("cost", "sources", "tapped"),
    [
        # Varis, Silverymoon Ranger with a Plains and Undermountain Adventurer ({T}: Add {G}{G}).
        ("{1}{G}{G}", [(1, "W", 1, 0), (2, "G", 2, 1)], {1: "W", 2: "G"}),
        # The Adventurer pays {G}{G} alone, and so a Forest is not tapped for it.
        ("{G}{G}", [(2, "G", 2, 1)], {2: "G"}),
        ("{1}{G}{G}", [(1, "G", 1, 0), (2, "G", 6, 1)], {1: "G", 2: "G"}),
        # Sarevok's Tome with the initiative ({C}{C}) pays two {C} symbols.
        ("{C}{C}", [(1, "C", 2, 1)], {1: "C"}),
        # Two mana of any one color: both of one color, never one of each.
        ("{R}{R}", [(1, "WUBRG", 2, 1)], {1: "R"}),
        ("{R}{G}", [(1, "WUBRG", 2, 1)], None),
        ("{R}{G}", [(1, "WUBRG", 2, 1), (2, "G", 1, 0)], {1: "R", 2: "G"}),
        # Two {G} symbols from one source, the white one from the Treasure.
        ("{W}{G}{G}", [(1, "G", 2, 1), (2, "WUBRG", 1, 2)], {1: "G", 2: "W"}),
        ("{W}{G}{G}{G}", [(1, "G", 2, 1), (2, "WUBRG", 1, 2)], None),
    ],
)
def test_a_source_making_several_mana_pays_several_symbols_of_its_color(cost, sources, tapped):
    made = [ManaSource(i, f"s{i}", p, amount, rank, 0) for i, p, amount, rank in sources]
    plan = plan_payment(parse_cost(cost), {}, made)
    if tapped is None:
        assert plan is None
        return
    assert plan is not None
    assert {s.obj_id: c for s, c in plan[1]} == tapped
    assert _pays(parse_cost(cost), {}, plan)


def test_no_source_is_tapped_for_mana_another_already_makes():
    # {3}{G}{G} with a Forest and the Adventurer making six {G}: the ordered plan taps the
    # Forest for the first {G}, but the Adventurer pays everything alone.
    forest, adventurer = ManaSource(1, "Forest", "G", 1, 0, 0), ManaSource(2, "A", "G", 6, 1, 0)
    for hand in ([], [(parse_cost("{G}"),)]):
        plan = best_payment(parse_cost("{3}{G}{G}"), {}, [forest, adventurer], hand)
        assert [s.obj_id for s, _ in plan[1]] == [2]


_SOURCE = st.tuples(
    st.sampled_from(["W", "G", "R", "C", "WG", "WUBRG"]),
    st.integers(1, 3),
    st.sampled_from([0, 1, 2]),
)


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(_SOURCE, max_size=6),
    st.integers(0, 3),
    st.lists(st.sampled_from("WGRC"), max_size=4),
    st.dictionaries(st.sampled_from("WGRC"), st.integers(1, 2), max_size=2),
    st.lists(st.lists(st.sampled_from("WGR"), min_size=1, max_size=2), max_size=3),
)
def test_payment_with_sources_making_several_mana_matches_every_way_to_pay(
    specs, generic, symbols, pool, hand_symbols
):
    sources = [ManaSource(i, f"s{i}", p, n, rank, 0) for i, (p, n, rank) in enumerate(specs)]
    cost = ManaCost(generic, tuple((c, symbols.count(c)) for c in "WGRC" if c in symbols))
    hand = [(ManaCost(0, tuple((c, h.count(c)) for c in "WGR" if c in h)),) for h in hand_symbols]
    payable = _payable(cost, pool, sources)
    plain = plan_payment(cost, pool, sources)
    assert (plain is not None) == payable
    best = best_payment(cost, pool, sources, hand)
    assert (best is not None) == payable
    if best is None:
        return
    assert _pays(cost, pool, plain)
    assert _pays(cost, pool, best)
    chosen = [s for s, _ in best[1]]
    for s in chosen:  # none of them is spare
        rest = [x for x in chosen if x is not s]
        assert plan_payment(cost, pool, rest) is None
