"""Commander Legends: Battle for Baldur's Gate cards with the initiative. Their texts are
the cards' current Oracle wording."""

from __future__ import annotations

from ..carddef import TargetSpec, Triggered, activated, card
from ..casting import cast_spell, targets_possible
from ..choices import Gen, choose_objects, yes_no
from ..continuous import chars
from ..effects import deal_damage, objects_for
from ..effects_permanents import op_explore, op_modify, op_return_to_battlefield
from ..kinds import UNTAP, YES_NO
from ..ops import CASTING, Reading, op
from ..state import ContinuousEffect
from ..targets import whose_name
from ..zones import move
from .conditions import you_completed, you_have_the_initiative

TAKE = {"op": "take_initiative"}
TAKE_TEXT = "When this creature enters, you take the initiative."


def _enters_take(text: str = TAKE_TEXT) -> Triggered:
    return Triggered("self_enters", [TAKE], text)


@op("white_plume_untap", asks=(UNTAP,), data=False, reads=Reading(harms=False, worth=0.5))
def _white_plume_untap(g, ctx, step) -> Gen:
    """Untap a creature you control; if you've completed a dungeon, untap all of them."""
    me = ctx.controller
    mine = [o for o in g.controlled(me) if "Creature" in chars(g, o).types]
    if g.player(me).completed:
        for o in mine:
            o.tapped = False
        g.note(f"{me} untaps all creatures they control")
        return
    chosen = yield from choose_objects(g, me, mine, 1, "Untap a creature you control", UNTAP)
    for o in chosen:
        o.tapped = False
        g.note(f"{me} untaps {o.name}")


# 2 damage to each creature blocking: it names no target, the blockers are the opponent's.
@op("trailblazers_torch_blockers", data=False, reads=Reading(harms=False, worth=1.0))
def _torch_blockers(g, ctx, step) -> None:
    """Whenever equipped creature becomes blocked, it deals 2 damage to each creature blocking
    it (the equipped creature is the source)."""
    attacker = g.permanent(ctx.event["obj"].id)
    if attacker is None or g.combat is None:
        return
    kw = chars(g, attacker).keywords  # the equipped creature is the source (CR 609.7)
    for b_id in list(g.combat.blockers.get(attacker.id, [])):
        deal_damage(
            g,
            attacker.name,
            attacker,
            ("obj", b_id),
            2,
            deathtouch="deathtouch" in kw,
            lifelink_to=attacker.controller if "lifelink" in kw else None,
        )


def _tome_mana(g, obj):
    return ("C", 2 if g.player(obj.controller).initiative else 1)


def _adventurer_mana(g, obj):
    return ("G", 6 if g.player(obj.controller).completed else 2)


# A spell cast for free.
@op(
    "sarevoks_tome_dig",
    asks=(YES_NO, *CASTING),
    data=False,
    reads=Reading(harms=False, worth=3.0),
)
def _tome_dig(g, ctx, step) -> Gen:
    """Exile cards from the top until a nonland card; you may cast it without paying its mana
    cost."""
    me = ctx.controller
    p = g.player(me)
    found = None
    while p.library:
        o = move(g, p.library[0], "exile")
        o.revealed = True
        g.note(f"{me} exiles {o.name}")
        if "Land" not in o.card.types:
            found = o
            break
    if found is None:
        return
    if targets_possible(g, me, found.card.spell_targets) and (
        yield from yes_no(g, me, f"Cast {found.name} without paying its mana cost?")
    ):
        yield from cast_spell(g, me, found, free=True)


# A card to play this turn, like Runestone Caverns' (exile_top_may_play).
@op("caves_of_chaos_exile", data=False, reads=Reading(harms=False, worth=1.2))
def _caves_exile(g, ctx, step) -> None:
    """Exile the top card; you may play it this turn — without paying its mana cost if you had
    completed a dungeon as it was exiled (CLB Release Notes)."""
    me = ctx.controller
    p = g.player(me)
    if not p.library:
        return
    o = move(g, p.library[0], "exile")
    o.revealed = True
    o.play_until = (me, g.turn)
    o.play_free = bool(p.completed)
    g.note(
        f"{me} exiles {o.name} and may play it this turn"
        + (" without paying its mana cost" if o.play_free else "")
    )


# Its target is a creature of one's own, made better (like "gets +X/+Y").
@op("rilsa_rael", data=False, reads=Reading(harms=False, worth=0.7))
def _rilsa(g, ctx, step) -> None:
    op_modify(g, ctx, {"op": "modify", "target": 0, "keywords": ["deathtouch"]})
    if g.player(ctx.controller).completed:
        op_modify(
            g,
            ctx,
            {"op": "modify", "target": 0, "power": 5, "keywords": ["first strike", "menace"]},
        )


@op(
    "seasoned_dungeoneer",
    asks=(YES_NO,),
    data=False,
    reads=Reading(harms=False, worth=0.7, shields=True),
)
def _dungeoneer(g, ctx, step) -> Gen:
    for o in objects_for(g, ctx, {"target": 0}):
        g.effects.append(
            ContinuousEffect(
                timestamp=g.new_timestamp(),
                affects=o.id,
                duration="end_of_turn",
                controller=ctx.controller,
                protection_from_creatures=True,
            )
        )
        g.note(f"{whose_name(g, o)} gains protection from creatures until end of turn", "CR 702.16")
    yield from op_explore(g, ctx, {"op": "explore", "target": 0})


# A creature card back onto the battlefield (as return_to_battlefield).
@op("from_the_catacombs", data=False, reads=Reading(harms=False, worth=3.0))
def _catacombs(g, ctx, step) -> None:
    op_return_to_battlefield(
        g,
        ctx,
        {
            "op": "return_to_battlefield",
            "target": 0,
            "counters": {"corpse": 1},
            "exile_if_leaves": True,
        },
    )


CARDS = [
    card(
        "Aarakocra Sneak",
        "{3}{U}",
        "Creature — Bird Rogue",
        (1, 4),
        keywords=["flying"],
        text="Flying\nWhen this creature enters, you take the initiative.",
        triggers=[_enters_take()],
        set_code="CLB",
    ),
    card(
        "White Plume Adventurer",
        "{2}{W}",
        "Creature — Orc Cleric",
        (3, 3),
        text=(
            "When this creature enters, you take the initiative.\nAt the beginning of each "
            "opponent's upkeep, untap a creature you control. If you've completed a dungeon, "
            "untap all creatures you control instead."
        ),
        triggers=[
            _enters_take(),
            Triggered(
                "opponent_upkeep",
                [{"op": "white_plume_untap"}],
                "At the beginning of each opponent's upkeep, untap a creature you control. If "
                "you've completed a dungeon, untap all creatures you control instead.",
            ),
        ],
        set_code="CLB",
    ),
    card(
        "Seasoned Dungeoneer",
        "{3}{W}",
        "Creature — Human Warrior",
        (3, 4),
        text=(
            "When this creature enters, you take the initiative.\nWhenever you attack, target "
            "attacking Cleric, Rogue, Warrior, or Wizard gains protection from creatures until "
            "end of turn. It explores. (Reveal the top card of your library. Put that card into "
            "your hand if it's a land. Otherwise, put a +1/+1 counter on the creature, then put "
            "the card back or put it into your graveyard.)"
        ),
        triggers=[
            _enters_take(),
            Triggered(
                "you_attack",
                [{"op": "seasoned_dungeoneer"}],
                "Whenever you attack, target attacking Cleric, Rogue, Warrior, or Wizard gains "
                "protection from creatures until end of turn. It explores.",
                targets=[
                    TargetSpec(
                        "attacking_cleric_rogue_warrior_wizard",
                        "target attacking Cleric, Rogue, Warrior, or Wizard",
                    )
                ],
            ),
        ],
        set_code="CLB",
    ),
    card(
        "Caves of Chaos Adventurer",
        "{3}{R}",
        "Creature — Human Barbarian",
        (5, 3),
        keywords=["trample"],
        text=(
            "Trample\nWhen Caves of Chaos Adventurer enters, you take the initiative.\nWhenever "
            "Caves of Chaos Adventurer attacks, exile the top card of your library. If you've "
            "completed a dungeon, you may play that card this turn without paying its mana cost. "
            "Otherwise, you may play that card this turn."
        ),
        triggers=[
            _enters_take("When Caves of Chaos Adventurer enters, you take the initiative."),
            Triggered(
                "self_attacks",
                [{"op": "caves_of_chaos_exile"}],
                "Whenever Caves of Chaos Adventurer attacks, exile the top card of your library. "
                "If you've completed a dungeon, you may play that card this turn without paying "
                "its mana cost. Otherwise, you may play that card this turn.",
            ),
        ],
        set_code="CLB",
    ),
    card(
        "Stirring Bard",
        "{3}{R}",
        "Creature — Dragon Bard",
        (0, 4),
        keywords=["defender"],
        text=(
            "Defender\nWhen Stirring Bard enters, you take the initiative.\nMantle of "
            "Inspiration — {T}: Target creature gains menace and haste until end of turn."
        ),
        triggers=[_enters_take("When Stirring Bard enters, you take the initiative.")],
        activated=[
            activated(
                "{T}",
                [{"op": "modify", "target": 0, "keywords": ["menace", "haste"]}],
                "Mantle of Inspiration — Target creature gains menace and haste until end of turn.",
                targets=[TargetSpec("creature", "target creature")],
            )
        ],
        set_code="CLB",
    ),
    card(
        "Undermountain Adventurer",
        "{3}{G}",
        "Creature — Giant Warrior",
        (3, 4),
        keywords=["vigilance"],
        text=(
            "Vigilance\nWhen Undermountain Adventurer enters, you take the initiative.\n{T}: "
            "Add {G}{G}. If you've completed a dungeon, add six {G} instead."
        ),
        triggers=[_enters_take("When Undermountain Adventurer enters, you take the initiative.")],
        activated=[
            activated(
                "{T}",
                [],
                "Add {G}{G}. If you've completed a dungeon, add six {G} instead.",
                produces="G",
                amount=2,
            )
        ],
        extra={"mana_output": _adventurer_mana},
        set_code="CLB",
    ),
    card(
        "Passageway Seer",
        "{3}{B}",
        "Creature — Tiefling Warlock",
        (2, 2),
        keywords=["lifelink"],
        text=(
            "Lifelink\nWhen Passageway Seer enters, you take the initiative.\nAt the beginning "
            "of your end step, if you have the initiative, put a +1/+1 counter on Passageway Seer."
        ),
        triggers=[
            _enters_take("When Passageway Seer enters, you take the initiative."),
            Triggered(
                "your_end_step",
                [{"op": "add_counters", "target": "self", "counter": "+1/+1", "amount": 1}],
                "At the beginning of your end step, if you have the initiative, put a +1/+1 "
                "counter on Passageway Seer.",
                intervening_if=you_have_the_initiative,
            ),
        ],
        set_code="CLB",
    ),
    card(
        "Rilsa Rael, Kingpin",
        "{3}{U}{B}",
        "Legendary Creature — Human Rogue",
        (2, 5),
        keywords=["deathtouch"],
        text=(
            "Deathtouch\nWhen Rilsa Rael, Kingpin enters, you take the initiative.\nWhenever you "
            "attack, target attacking creature gains deathtouch until end of turn. If you've "
            "completed a dungeon, that creature also gets +5/+0 and gains first strike and "
            "menace until end of turn."
        ),
        triggers=[
            _enters_take("When Rilsa Rael, Kingpin enters, you take the initiative."),
            Triggered(
                "you_attack",
                [{"op": "rilsa_rael"}],
                "Whenever you attack, target attacking creature gains deathtouch until end of "
                "turn. If you've completed a dungeon, that creature also gets +5/+0 and gains "
                "first strike and menace until end of turn.",
                targets=[TargetSpec("attacking_creature", "target attacking creature")],
            ),
        ],
        set_code="CLB",
    ),
    card(
        "Trailblazer's Torch",
        "{4}",
        "Artifact — Equipment",
        text=(
            "When this Equipment enters, you take the initiative.\nWhenever equipped creature "
            "becomes blocked, it deals 2 damage to each creature blocking it.\nEquip {1}"
        ),
        triggers=[
            _enters_take("When this Equipment enters, you take the initiative."),
            Triggered(
                "becomes_blocked_equipped",
                [{"op": "trailblazers_torch_blockers"}],
                "Whenever equipped creature becomes blocked, it deals 2 damage to each creature "
                "blocking it.",
            ),
        ],
        activated=[
            activated(
                "Equip {1}",
                [{"op": "attach", "target": 0}],
                "Attach to target creature you control. Equip only as a sorcery.",
                sorcery_speed=True,
                targets=[TargetSpec("creature_you_control", "target creature you control")],
            )
        ],
        set_code="CLB",
    ),
    card(
        "Sarevok's Tome",
        "{4}",
        "Artifact — Book",
        text=(
            "When Sarevok's Tome enters, you take the initiative.\n{T}: Add {C}. If you have the "
            "initiative, add {C}{C} instead.\n{3}, {T}: Exile cards from the top of your library "
            "until you exile a nonland card. You may cast that card without paying its mana "
            "cost. Activate only if you've completed a dungeon."
        ),
        triggers=[_enters_take("When Sarevok's Tome enters, you take the initiative.")],
        activated=[
            activated(
                "{T}", [], "Add {C}. If you have the initiative, add {C}{C} instead.", produces="C"
            ),
            activated(
                "{3}, {T}",
                [{"op": "sarevoks_tome_dig"}],
                "Exile cards from the top of your library until you exile a nonland card. You "
                "may cast that card without paying its mana cost. Activate only if you've "
                "completed a dungeon.",
                only_if=lambda g, obj: bool(g.player(obj.controller).completed),
            ),
        ],
        extra={"mana_output": _tome_mana},
        set_code="CLB",
    ),
    card(
        "From the Catacombs",
        "{3}{B}{B}",
        "Sorcery",
        text=(
            "Put target creature card from a graveyard onto the battlefield under your control "
            "with a corpse counter on it. If that creature would leave the battlefield, exile it "
            "instead of putting it anywhere else.\nYou take the initiative.\nEscape—{3}{B}{B}, "
            "Exile five other cards from your graveyard. (You may cast this card from your "
            "graveyard for its escape cost.)"
        ),
        spell_targets=[
            TargetSpec("creature_card_in_a_graveyard", "target creature card from a graveyard")
        ],
        spell=[{"op": "from_the_catacombs"}, TAKE],
        escape="{3}{B}{B}",
        escape_exile=5,
        set_code="CLB",
    ),
]

__all__ = ["CARDS", "you_completed"]
