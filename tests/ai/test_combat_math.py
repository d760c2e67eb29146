"""The combat calculator (game/ai/combat_math.py): who dies and how much gets through."""

from __future__ import annotations

from game.ai.blocks import plan_blocks
from game.ai.combat_math import Body, fight, least_damage_through, resolve


def kw(*words: str) -> frozenset[str]:
    return frozenset(words)


def test_an_unblocked_attacker_hits_the_player() -> None:
    out = fight(Body(1, 3, 3))
    assert out.to_defender == 3 and not out.dead


def test_a_trade_and_a_bounce() -> None:
    assert fight(Body(1, 2, 2), [Body(2, 2, 2)]).dead == {1, 2}
    assert fight(Body(1, 2, 2), [Body(2, 0, 4)]).dead == frozenset()


def test_first_strike_kills_before_the_blow_back() -> None:
    out = fight(Body(1, 5, 5), [Body(2, 5, 4, kw("first strike"))])
    assert out.dead == {1}


def test_double_strike_deals_twice() -> None:
    out = fight(Body(1, 2, 2, kw("double strike")))
    assert out.to_defender == 4
    out = fight(Body(1, 2, 2, kw("double strike")), [Body(2, 1, 4)])
    assert out.dead == {2} and 1 not in out.dead


def test_deathtouch_and_trample_assign_one_to_each_blocker() -> None:
    out = fight(Body(1, 4, 4, kw("deathtouch", "trample")), [Body(2, 1, 5), Body(3, 1, 5)])
    assert out.dead == {2, 3} and out.to_defender == 2


def test_trample_over_a_small_blocker_and_everything_when_it_dies_first() -> None:
    assert fight(Body(1, 5, 3, kw("trample")), [Body(2, 2, 1)]).to_defender == 4
    out = fight(Body(1, 5, 3, kw("trample", "first strike")), [Body(2, 2, 1)])
    assert out.to_defender == 4 and out.dead == {2}


def test_lifelink_gains_on_both_sides() -> None:
    out = resolve([Body(1, 3, 3, kw("lifelink"))], {})
    assert out.attacker_gains == 3
    out = fight(Body(1, 3, 3), [Body(2, 2, 4, kw("lifelink"))])
    assert out.defender_gains == 2


def test_indestructible_survives_lethal_damage() -> None:
    assert fight(Body(1, 3, 3, kw("indestructible")), [Body(2, 5, 5)]).dead == frozenset()


def test_the_least_damage_through_counts_evasion_menace_and_trample() -> None:
    ground = Body(10, 3, 4)
    dragon = Body(1, 4, 4, kw("flying", "trample"))
    crawlers = [Body(2, 2, 1), Body(3, 2, 1)]
    assert least_damage_through([dragon, *crawlers], [ground]) == 6
    menace = Body(4, 5, 5, kw("menace"))
    assert least_damage_through([menace], [ground]) == 5  # one creature can't block it
    assert least_damage_through([menace], [ground, Body(11, 1, 1)]) == 0
    trampler = Body(5, 5, 3, kw("trample"))
    assert least_damage_through([trampler], [Body(12, 2, 1), Body(13, 2, 1)]) == 3


def test_the_planner_gang_blocks_a_big_attacker_and_chumps_only_when_it_must() -> None:
    big = Body(1, 5, 5, value=9.0)
    wall, knight, crawler = (
        Body(2, 3, 4, value=6.4),
        Body(3, 3, 3, value=5.8),
        Body(4, 2, 1, value=3.6),
    )
    blockers = [wall, knight, crawler]
    blocks = plan_blocks([big], {1: blockers}, life=20)
    assert {b.id for b in blocks[1]} == {2, 3}
    assert plan_blocks([big], {1: [crawler]}, life=20) == {}
    assert plan_blocks([big], {1: [crawler]}, life=5) == {1: [crawler]}
