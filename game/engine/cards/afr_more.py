"""Forgotten Realms cards that need Auras, Equipment, planeswalkers, the graveyard or the hand
(AFR, plus the AFC Commander cards Sefris and Radiant Solar). Their texts are the cards'
current Oracle wording."""

from __future__ import annotations

from ..carddef import Static, TargetSpec, Triggered, activated, card, loyalty
from ..choices import Gen, choose_objects
from ..effects import gain_life
from ..kinds import CHOOSE_CARD
from ..ops import Reading, op
from ..state import ContinuousEffect
from ..zones import move, put_onto_battlefield
from .conditions import completed_a_dungeon, you_completed

VENTURE = {"op": "venture"}
REMINDER = "(Enter the first room or advance to the next room.)"


def _precipitous_pt(g, src, obj):
    """-2/-2, or -5/-5 instead as long as the Aura's controller has completed a dungeon."""
    return (-5, -5) if g.player(src.controller).completed else (-2, -2)


def _enchanted_is_red(g, src) -> bool:
    host = g.permanent(src.attached_to) if src.attached_to is not None else None
    return host is not None and "R" in host.card.colors


@op("ray_of_frost_tap", data=False, reads=Reading(harms=True, worth=0.5, taps=True))
def _ray_tap(g, ctx, step) -> None:
    src = ctx.source(g)
    host = g.permanent(src.attached_to) if src is not None and src.attached_to else None
    if host is not None:
        host.tapped = True
        g.note(f"Ray of Frost taps {host.name}")


def _ray_red_now(g, player, src=None) -> bool:
    """Intervening "if enchanted creature is red" (CR 603.4)."""
    return src is not None and src.zone == "battlefield" and _enchanted_is_red(g, src)


# Most often a creature card to hand.
@op("ellywick_look", asks=(CHOOSE_CARD,), data=False, reads=Reading(harms=False, worth=1.6))
def _ellywick_look(g, ctx, step) -> Gen:
    """Look at the top six; you may reveal a creature card and put it into your hand (3 life if
    legendary); the rest go on the bottom in a random order."""
    me = ctx.controller
    p = g.player(me)
    top = p.library[:6]
    if top:
        g.disclose(f"{me} looked at the top of their library")
    creatures = [o for o in top if "Creature" in o.card.types]
    chosen = yield from choose_objects(
        g,
        me,
        creatures,
        1,
        "You may reveal a creature card and put it into your hand",
        CHOOSE_CARD,
        up_to=True,
    )
    rest = [o for o in top if o not in chosen]
    for o in chosen:
        new = move(g, o, "hand")
        new.revealed = True
        g.note(f"{me} reveals {new.name} and puts it into their hand")
        if "Legendary" in new.card.supertypes:
            gain_life(g, me, 3)
    g.rng.shuffle(rest)
    for o in rest:
        p.library.remove(o)
        p.library.append(o)
    g.note(f"{me} puts {len(rest)} cards on the bottom of their library in a random order")


def _emblem_pt(g, src, obj):
    n = len({name for name, _ in g.player(obj.controller).completed})
    return (2 * n, 2 * n)


ELLYWICK_EMBLEM = Static(
    "creatures_you_control",
    "Creatures you control have trample and haste and get +2/+2 for each differently named "
    "dungeon you've completed.",
    keywords=("trample", "haste"),
    pt_fn=_emblem_pt,
)


# An emblem that makes every creature a threat for the rest of the game.
@op("ellywick_emblem", data=False, reads=Reading(harms=False, worth=5.0))
def _ellywick_emblem(g, ctx, step) -> None:
    # The emblem's timestamp is when it is created (CR 613.7d): its abilities apply after an
    # earlier "loses all abilities" (Ray of Frost) and before a later one.
    emblem = ("Ellywick Tumblestrum emblem", ELLYWICK_EMBLEM, g.new_timestamp())
    g.player(ctx.controller).emblems.append(emblem)
    g.note(f"{ctx.controller} gets an emblem: {ELLYWICK_EMBLEM.text}", "CR 114.1")


# A creature back onto the battlefield, once a dungeon is completed.
@op(
    "barrowin_return",
    asks=(CHOOSE_CARD,),
    data=False,
    reads=Reading(
        harms=False, worth=lambda g, seat, step: 3.0 if g.player(seat).completed else 0.0
    ),
)
def _barrowin_return(g, ctx, step) -> Gen:
    """Return up to one creature card with mana value 3 or less from your graveyard to the
    battlefield if you've completed a dungeon (checked as the ability resolves)."""
    me = ctx.controller
    if not g.player(me).completed:
        g.note(f"{me} hasn't completed a dungeon, so nothing returns")
        return
    pool = [
        o for o in g.player(me).graveyard if "Creature" in o.card.types and o.card.mana_value <= 3
    ]
    chosen = yield from choose_objects(
        g,
        me,
        pool,
        1,
        "Return up to one creature card (mana value 3 or less)",
        CHOOSE_CARD,
        up_to=True,
    )
    for o in chosen:
        new = put_onto_battlefield(g, o, me)
        g.note(f"{new.name} returns to the battlefield")


def _plate_reduction(g, obj) -> int:
    """Equip costs {1} less for each other Equipment you control."""
    return sum(
        1
        for o in g.battlefield
        if o is not obj and o.controller == obj.controller and "Equipment" in o.card.subtypes
    )


def _solar_enters(g, src, ev) -> bool:
    o = ev["obj"]
    if o is src:
        return True
    return not o.token and o.controller == src.controller and "Creature" in o.card.types


CARDS = [
    card(
        "Eccentric Apprentice",
        "{2}{U}",
        "Creature — Tiefling Wizard",
        (2, 2),
        keywords=["flying"],
        text=(
            f"Flying\nWhen Eccentric Apprentice enters, venture into the dungeon. {REMINDER}\n"
            "At the beginning of combat on your turn, if you've completed a dungeon, up to one "
            "target creature becomes a Bird with base power and toughness 1/1 and flying until "
            "end of turn."
        ),
        triggers=[
            Triggered(
                "self_enters",
                [VENTURE],
                "When Eccentric Apprentice enters, venture into the dungeon.",
            ),
            Triggered(
                "your_beginning_of_combat",
                [
                    {
                        "op": "modify",
                        "target": 0,
                        "set_base": [1, 1],
                        "keywords": ["flying"],
                        "set_subtypes": ["Bird"],
                    }
                ],
                "At the beginning of combat on your turn, if you've completed a dungeon, up to "
                "one target creature becomes a Bird with base power and toughness 1/1 and flying "
                "until end of turn.",
                targets=[TargetSpec("creature", "up to one target creature", min=0, max=1)],
                intervening_if=you_completed,
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Precipitous Drop",
        "{2}{B}",
        "Enchantment — Aura",
        text=(
            "Enchant creature\nWhen Precipitous Drop enters, venture into the dungeon. "
            f"{REMINDER}\n"
            "Enchanted creature gets -2/-2. It gets -5/-5 instead as long as you've completed a "
            "dungeon."
        ),
        spell_targets=[TargetSpec("creature", "enchant creature")],
        triggers=[
            Triggered(
                "self_enters", [VENTURE], "When Precipitous Drop enters, venture into the dungeon."
            )
        ],
        statics=[
            Static(
                "enchanted",
                "Enchanted creature gets -2/-2. It gets -5/-5 instead as long as you've "
                "completed a dungeon.",
                pt_fn=_precipitous_pt,
                harms=True,
            )
        ],
        set_code="AFR",
    ),
    card(
        "Ray of Frost",
        "{1}{U}",
        "Enchantment — Aura",
        keywords=["flash"],
        text=(
            "Flash\nEnchant creature\nWhen Ray of Frost enters, if enchanted creature is red, "
            "tap it.\nAs long as enchanted creature is red, it loses all abilities.\nEnchanted "
            "creature doesn't untap during its controller's untap step."
        ),
        spell_targets=[TargetSpec("creature", "enchant creature")],
        triggers=[
            Triggered(
                "self_enters",
                [{"op": "ray_of_frost_tap"}],
                "When Ray of Frost enters, if enchanted creature is red, tap it.",
                intervening_if=_ray_red_now,
            )
        ],
        statics=[
            Static(
                "enchanted",
                "As long as enchanted creature is red, it loses all abilities.",
                lose_all_abilities=True,
                condition=_enchanted_is_red,
            ),
            Static(
                "enchanted",
                "Enchanted creature doesn't untap during its controller's untap step.",
                doesnt_untap=True,
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Ellywick Tumblestrum",
        "{2}{G}{G}",
        "Legendary Planeswalker — Ellywick",
        loyalty=4,
        text=(
            f"+1: Venture into the dungeon. {REMINDER}\n−2: Look at the top six cards of your "
            "library. You may reveal a creature card from among them and put it into your hand. "
            "If it's legendary, you gain 3 life. Put the rest on the bottom of your library in a "
            'random order.\n−7: You get an emblem with "Creatures you control have trample and '
            "haste and get +2/+2 for each differently named dungeon you've completed.\""
        ),
        activated=[
            loyalty(1, [VENTURE], "Venture into the dungeon."),
            loyalty(
                -2,
                [{"op": "ellywick_look"}],
                "Look at the top six cards of your library. You may reveal a creature card from "
                "among them and put it into your hand. If it's legendary, you gain 3 life. Put "
                "the rest on the bottom of your library in a random order.",
            ),
            loyalty(
                -7,
                [{"op": "ellywick_emblem"}],
                'You get an emblem with "Creatures you control have trample and haste and get '
                "+2/+2 for each differently named dungeon you've completed.\"",
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Barrowin of Clan Undurr",
        "{2}{W}{B}",
        "Legendary Creature — Dwarf Cleric",
        (3, 3),
        text=(
            f"When Barrowin of Clan Undurr enters, venture into the dungeon. {REMINDER}\n"
            "Whenever Barrowin of Clan Undurr attacks, return up to one creature card with mana "
            "value 3 or less from your graveyard to the battlefield if you've completed a dungeon."
        ),
        triggers=[
            Triggered(
                "self_enters",
                [VENTURE],
                "When Barrowin of Clan Undurr enters, venture into the dungeon.",
            ),
            Triggered(
                "self_attacks",
                [{"op": "barrowin_return"}],
                "Whenever Barrowin of Clan Undurr attacks, return up to one creature card with "
                "mana value 3 or less from your graveyard to the battlefield if you've completed "
                "a dungeon.",
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Sefris of the Hidden Ways",
        "{W}{U}{B}",
        "Legendary Creature — Human Wizard",
        (2, 3),
        text=(
            "Whenever one or more creature cards are put into your graveyard from anywhere, "
            "venture into the dungeon. This ability triggers only once each turn. (To venture "
            "into the dungeon, enter the first room or advance to the next room.)\nCreate Undead "
            "— Whenever you complete a dungeon, return target creature card from your graveyard "
            "to the battlefield."
        ),
        triggers=[
            Triggered(
                "creature_card_to_your_graveyard",
                [VENTURE],
                "Whenever one or more creature cards are put into your graveyard from anywhere, "
                "venture into the dungeon. This ability triggers only once each turn.",
                once_each_turn=True,
            ),
            Triggered(
                "you_complete_dungeon",
                [{"op": "return_to_battlefield", "target": 0}],
                "Create Undead — Whenever you complete a dungeon, return target creature card "
                "from your graveyard to the battlefield.",
                targets=[
                    TargetSpec(
                        "creature_card_in_your_graveyard",
                        "target creature card from your graveyard",
                    )
                ],
            ),
        ],
        set_code="AFC",
    ),
    card(
        "Radiant Solar",
        "{5}{W}",
        "Creature — Angel",
        (3, 6),
        keywords=["flying", "lifelink"],
        text=(
            "Flying, lifelink\nWhenever Radiant Solar or another nontoken creature you control "
            f"enters, venture into the dungeon. {REMINDER}\n{{W}}, Discard Radiant Solar: "
            "Venture into the dungeon and you gain 3 life."
        ),
        triggers=[
            Triggered(
                "creature_enters",
                [VENTURE],
                "Whenever Radiant Solar or another nontoken creature you control enters, venture "
                "into the dungeon.",
                condition=_solar_enters,
            )
        ],
        activated=[
            activated(
                "{W}, Discard Radiant Solar",
                [VENTURE, {"op": "gain_life", "who": "you", "amount": 3}],
                "Venture into the dungeon and you gain 3 life.",
                zone="hand",
            )
        ],
        set_code="AFC",
    ),
    card(
        "Dungeon Descent",
        None,
        "Land",
        enters_tapped=True,
        text=(
            "This land enters tapped.\n{T}: Add {C}.\n{4}, {T}, Tap an untapped legendary "
            "creature you control: Venture into the dungeon. Activate only as a sorcery. "
            + REMINDER
        ),
        activated=[
            activated("{T}", [], "Add {C}.", produces="C"),
            activated(
                "{4}, {T}, Tap an untapped legendary creature you control",
                [VENTURE],
                "Venture into the dungeon. Activate only as a sorcery.",
                sorcery_speed=True,
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Plate Armor",
        "{2}{W}",
        "Artifact — Equipment",
        text=(
            "Equipped creature gets +3/+3 and has ward {1}. (Whenever equipped creature becomes "
            "the target of a spell or ability an opponent controls, counter it unless that "
            "player pays {1}.)\nEquip {3}. This ability costs {1} less to activate for each "
            "other Equipment you control."
        ),
        statics=[
            Static(
                "equipped",
                "Equipped creature gets +3/+3 and has ward {1}.",
                power=3,
                toughness=3,
                ward=("{1}",),
            )
        ],
        activated=[
            activated(
                "Equip {3}",
                [{"op": "attach", "target": 0}],
                "Attach to target creature you control. Equip only as a sorcery. This ability "
                "costs {1} less to activate for each other Equipment you control.",
                sorcery_speed=True,
                targets=[TargetSpec("creature_you_control", "target creature you control")],
                cost_reduction=_plate_reduction,
            )
        ],
        set_code="AFR",
    ),
]

__all__ = ["CARDS", "ContinuousEffect", "completed_a_dungeon"]
