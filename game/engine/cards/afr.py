"""Adventures in the Forgotten Realms (and the two AFC/CLB cards used with them).

Oracle texts: the rules reference (§3). Each card is its printed values plus abilities
made of effect steps; the few rules no step expresses are small hooks below the card.
"""

from __future__ import annotations

from ..carddef import Static, TargetSpec, Triggered, activated, card
from ..choices import Gen, choose_objects
from ..continuous import chars
from ..decisions import Decision, Option
from ..effects import token_def
from ..kinds import SACRIFICE, UNLESS
from ..ops import Reading, op
from ..zones import create_token, move, sacrifice
from .conditions import (
    completed_a_dungeon,
    creature_died_this_turn,
    creature_or_planeswalker_spell,
    havent_completed_tomb,
    your_turn,
)

VENTURE = {"op": "venture"}
VENTURE_REMINDER = "(Enter the first room or advance to the next room.)"


# A card back in hand, like a card drawn.
@op("dungeon_crawler_return", data=False, reads=Reading(harms=False, worth=1.6))
def _return_this_from_graveyard(g, ctx, step) -> None:
    """Dungeon Crawler: "you may return this card from your graveyard to your hand"."""
    obj = g.find(ctx.source_id) if ctx.source_id is not None else None
    if obj is None or obj.zone != "graveyard":
        g.note("Dungeon Crawler is no longer in the graveyard, so nothing happens")
        return
    move(g, obj, "hand")
    g.note(f"{obj.owner} returns Dungeon Crawler from the graveyard to their hand")


# Acererak goes back to be cast again; its venture is a step of its own.
@op(
    "acererak_return_to_hand",
    data=False,
    reads=Reading(harms=False, worth=0.0, returns_source=True),
)
def _acererak_return(g, ctx, step) -> None:
    """Acererak: "return Acererak to its owner's hand" (before it ventures)."""
    src = ctx.source(g)
    if src is not None:
        move(g, src, "hand")
        g.note(f"{src.name} is returned to its owner's hand")


# A Zombie, or a creature of the opponent's gone.
@op(
    "acererak_attack",
    asks=(UNLESS, SACRIFICE),
    data=False,
    reads=Reading(harms=False, worth=2.0),
)
def _acererak_attack(g, ctx, step) -> Gen:
    """For each opponent, create a 2/2 black Zombie unless that player sacrifices a creature."""
    for opp in [p for p in g.apnap() if p != ctx.controller]:
        creatures = [o for o in g.controlled(opp) if "Creature" in chars(g, o).types]
        sacrificed = None
        if creatures:
            answer = yield Decision(
                opp,
                UNLESS,
                f"Sacrifice a creature, or {ctx.controller} creates a 2/2 black Zombie",
                [
                    Option("pay", "Sacrifice a creature", former=("pay sacrifice a creature",)),
                    Option(
                        "dont",
                        f"Let {ctx.controller} create a 2/2 black Zombie",
                        former=("don't pay",),
                    ),
                ],
            )
            if answer == "pay":
                chosen = yield from choose_objects(
                    g, opp, creatures, 1, "Choose a creature to sacrifice", SACRIFICE
                )
                sacrificed = chosen[0]
        if sacrificed is not None:
            g.note(f"{opp} sacrifices {sacrificed.name}")
            sacrifice(g, sacrificed)
        else:
            create_token(g, token_def("Zombie"), ctx.controller)
            g.note(f"{ctx.controller} creates a 2/2 black Zombie token")


def _worm_reduction(g, player: str) -> int:
    return 2 if g.creatures_died_this_turn > 0 else 0


CARDS = [
    card("Grizzled Outrider", "{4}{G}", "Creature — Elf Warrior", (5, 5), set_code="AFR"),
    card(
        "Underdark Basilisk",
        "{1}{G}",
        "Creature — Basilisk",
        (1, 2),
        keywords=["deathtouch"],
        text="Deathtouch",
        set_code="AFR",
    ),
    card(
        "Power Word Kill",
        "{1}{B}",
        "Instant",
        text="Destroy target non-Angel, non-Demon, non-Devil, non-Dragon creature.",
        spell_targets=[
            TargetSpec(
                "non_angel_demon_devil_dragon_creature",
                "target non-Angel, non-Demon, non-Devil, non-Dragon creature",
            )
        ],
        spell=[{"op": "destroy", "target": 0}],
        set_code="AFR",
    ),
    card(
        "Rally Maneuver",
        "{2}{W}",
        "Instant",
        text=(
            "Target creature gets +2/+0 and gains first strike until end of turn. Up to one "
            "other target creature gets +0/+2 and gains lifelink until end of turn."
        ),
        spell_targets=[
            TargetSpec("creature", "target creature"),
            TargetSpec("creature", "up to one other target creature", min=0, max=1, other=True),
        ],
        spell=[
            {"op": "modify", "target": 0, "power": 2, "keywords": ["first strike"]},
            {"op": "modify", "target": 1, "toughness": 2, "keywords": ["lifelink"]},
        ],
        set_code="AFR",
    ),
    card(
        "Magic Missile",
        "{1}{R}{R}",
        "Sorcery",
        text=(
            "This spell can't be countered.\nMagic Missile deals 3 damage divided as you choose "
            "among one, two, or three targets."
        ),
        cant_be_countered=True,
        spell_targets=[TargetSpec("any", "one, two, or three targets", min=1, max=3, divided=3)],
        spell=[{"op": "damage", "target": 0}],
        set_code="AFR",
    ),
    card(
        "Varis, Silverymoon Ranger",
        "{1}{G}{G}",
        "Legendary Creature — Human Elf Ranger",
        (3, 3),
        keywords=["reach"],
        ward=("{1}",),
        text=(
            "Reach, ward {1}\nWhenever you cast a creature or planeswalker spell, venture into "
            "the dungeon. This ability triggers only once each turn. (To venture into the "
            "dungeon, enter the first room or advance to the next room.)\nWhenever you complete "
            "a dungeon, create a 2/2 green Wolf creature token."
        ),
        triggers=[
            Triggered(
                "you_cast",
                [VENTURE],
                "Whenever you cast a creature or planeswalker spell, venture into the dungeon. "
                "This ability triggers only once each turn.",
                condition=creature_or_planeswalker_spell,
                once_each_turn=True,
            ),
            Triggered(
                "you_complete_dungeon",
                [{"op": "create_token", "token": "Wolf", "describe": "2/2 green Wolf creature"}],
                "Whenever you complete a dungeon, create a 2/2 green Wolf creature token.",
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Veteran Dungeoneer",
        "{3}{W}",
        "Creature — Human Warrior",
        (3, 4),
        text=f"When this creature enters, venture into the dungeon. {VENTURE_REMINDER}",
        triggers=[
            Triggered(
                "self_enters", [VENTURE], "When this creature enters, venture into the dungeon."
            )
        ],
        set_code="AFR",
    ),
    card(
        "Cloister Gargoyle",
        "{2}{W}",
        "Artifact Creature — Gargoyle",
        (0, 4),
        text=(
            f"When Cloister Gargoyle enters, venture into the dungeon. {VENTURE_REMINDER}\n"
            "As long as you've completed a dungeon, Cloister Gargoyle gets +3/+0 and has flying."
        ),
        triggers=[
            Triggered(
                "self_enters", [VENTURE], "When Cloister Gargoyle enters, venture into the dungeon."
            )
        ],
        statics=[
            Static(
                "self",
                "As long as you've completed a dungeon, Cloister Gargoyle gets +3/+0 and has "
                "flying.",
                power=3,
                keywords=("flying",),
                condition=completed_a_dungeon,
            )
        ],
        set_code="AFR",
    ),
    card(
        "Nadaar, Selfless Paladin",
        "{2}{W}",
        "Legendary Creature — Dragon Knight",
        (3, 3),
        keywords=["vigilance"],
        text=(
            "Vigilance\nWhenever Nadaar enters or attacks, venture into the dungeon. "
            f"{VENTURE_REMINDER}\nOther creatures you control get +1/+1 as long as you've "
            "completed a dungeon."
        ),
        triggers=[
            Triggered(
                "self_enters",
                [VENTURE],
                "Whenever Nadaar enters or attacks, venture into the dungeon.",
            ),
            Triggered(
                "self_attacks",
                [VENTURE],
                "Whenever Nadaar enters or attacks, venture into the dungeon.",
            ),
        ],
        statics=[
            Static(
                "other_creatures_you_control",
                "Other creatures you control get +1/+1 as long as you've completed a dungeon.",
                power=1,
                toughness=1,
                condition=completed_a_dungeon,
            )
        ],
        set_code="AFR",
    ),
    card(
        "Gloom Stalker",
        "{2}{W}",
        "Creature — Dwarf Ranger",
        (2, 3),
        text="As long as you've completed a dungeon, Gloom Stalker has double strike.",
        statics=[
            Static(
                "self",
                "As long as you've completed a dungeon, Gloom Stalker has double strike.",
                keywords=("double strike",),
                condition=completed_a_dungeon,
            )
        ],
        set_code="AFR",
    ),
    card(
        "Keen-Eared Sentry",
        "{1}{W}",
        "Creature — Human Soldier",
        (2, 1),
        text=(
            "You have hexproof. (You can't be the target of spells or abilities your opponents "
            "control.)\nEach opponent can't venture into the dungeon more than once each turn."
        ),
        statics=[Static("you", "You have hexproof.", player_hexproof=True)],
        extra={"opponents_venture_once": True},
        set_code="AFR",
    ),
    card(
        "Yuan-Ti Malison",
        "{1}{U}",
        "Creature — Snake Rogue",
        (2, 1),
        text=(
            "Yuan-Ti Malison can't be blocked as long as it's attacking alone.\nWhenever "
            "Yuan-Ti Malison deals combat damage to a player, venture into the dungeon. "
            + VENTURE_REMINDER
        ),
        triggers=[
            Triggered(
                "self_combat_damage_player",
                [VENTURE],
                "Whenever Yuan-Ti Malison deals combat damage to a player, venture into the "
                "dungeon.",
            )
        ],
        extra={"unblockable_alone": True},
        set_code="AFR",
    ),
    card(
        "Shortcut Seeker",
        "{3}{U}",
        "Creature — Human Rogue",
        (2, 5),
        text=(
            "Whenever this creature deals combat damage to a player, venture into the dungeon. "
            + VENTURE_REMINDER
        ),
        triggers=[
            Triggered(
                "self_combat_damage_player",
                [VENTURE],
                "Whenever this creature deals combat damage to a player, venture into the dungeon.",
            )
        ],
        set_code="AFR",
    ),
    card(
        "Bar the Gate",
        "{2}{U}",
        "Instant",
        text=(
            "Counter target creature or planeswalker spell. Venture into the dungeon. "
            + VENTURE_REMINDER
        ),
        spell_targets=[
            TargetSpec("creature_or_planeswalker_spell", "target creature or planeswalker spell")
        ],
        spell=[{"op": "counter", "target": 0}, VENTURE],
        set_code="AFR",
    ),
    card(
        "Dungeon Crawler",
        "{B}",
        "Creature — Zombie",
        (2, 1),
        enters_tapped=True,
        text=(
            "This creature enters tapped.\nWhenever you complete a dungeon, you may return this "
            "card from your graveyard to your hand."
        ),
        triggers=[
            Triggered(
                "you_complete_dungeon",
                [{"op": "dungeon_crawler_return"}],
                "Whenever you complete a dungeon, you may return this card from your graveyard "
                "to your hand.",
                zone="graveyard",
                optional=True,
            )
        ],
        set_code="AFR",
    ),
    card(
        "Fates' Reversal",
        "{1}{B}",
        "Sorcery",
        text=(
            "Return up to one target creature card from your graveyard to your hand. Venture "
            "into the dungeon. " + VENTURE_REMINDER
        ),
        spell_targets=[
            TargetSpec(
                "creature_card_in_your_graveyard",
                "up to one target creature card from your graveyard",
                min=0,
                max=1,
            )
        ],
        spell=[{"op": "return_to_hand", "target": 0}, VENTURE],
        set_code="AFR",
    ),
    card(
        "Zombie Ogre",
        "{3}{B}{B}",
        "Creature — Zombie Ogre",
        (3, 5),
        text=(
            "At the beginning of your end step, if a creature died this turn, venture into the "
            "dungeon. " + VENTURE_REMINDER
        ),
        triggers=[
            Triggered(
                "your_end_step",
                [VENTURE],
                "At the beginning of your end step, if a creature died this turn, venture into "
                "the dungeon.",
                intervening_if=creature_died_this_turn,
            )
        ],
        set_code="AFR",
    ),
    card(
        "Clattering Skeletons",
        "{3}{B}",
        "Creature — Skeleton",
        (4, 3),
        text=f"When this creature dies, venture into the dungeon. {VENTURE_REMINDER}",
        triggers=[
            Triggered("self_dies", [VENTURE], "When this creature dies, venture into the dungeon.")
        ],
        set_code="AFR",
    ),
    card(
        "Yuan-Ti Fang-Blade",
        "{2}{B}",
        "Creature — Snake Rogue",
        (2, 2),
        keywords=["deathtouch"],
        text=(
            "Deathtouch\nWhenever Yuan-Ti Fang-Blade deals combat damage to a player, venture "
            "into the dungeon. " + VENTURE_REMINDER
        ),
        triggers=[
            Triggered(
                "self_combat_damage_player",
                [VENTURE],
                "Whenever Yuan-Ti Fang-Blade deals combat damage to a player, venture into the "
                "dungeon.",
            )
        ],
        set_code="AFR",
    ),
    card(
        "Acererak the Archlich",
        "{2}{B}",
        "Legendary Creature — Zombie Wizard",
        (5, 5),
        text=(
            "When Acererak enters, if you haven't completed Tomb of Annihilation, return "
            "Acererak to its owner's hand and venture into the dungeon.\nWhenever Acererak "
            "attacks, for each opponent, you create a 2/2 black Zombie creature token unless "
            "that player sacrifices a creature of their choice."
        ),
        triggers=[
            Triggered(
                "self_enters",
                [{"op": "acererak_return_to_hand"}, VENTURE],
                "When Acererak enters, if you haven't completed Tomb of Annihilation, return "
                "Acererak to its owner's hand and venture into the dungeon.",
                intervening_if=havent_completed_tomb,
            ),
            Triggered(
                "self_attacks",
                [{"op": "acererak_attack"}],
                "Whenever Acererak attacks, for each opponent, you create a 2/2 black Zombie "
                "creature token unless that player sacrifices a creature of their choice.",
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Kick in the Door",
        "{R}",
        "Sorcery",
        text=(
            "Put a +1/+1 counter on target creature. That creature gains haste until end of turn "
            "and can't be blocked by Walls this turn. Venture into the dungeon. " + VENTURE_REMINDER
        ),
        spell_targets=[TargetSpec("creature", "target creature")],
        spell=[
            {"op": "add_counters", "target": 0, "counter": "+1/+1", "amount": 1},
            {"op": "modify", "target": 0, "keywords": ["haste"], "cant_be_blocked_by_walls": True},
            VENTURE,
        ],
        set_code="AFR",
    ),
    card(
        "Triumphant Adventurer",
        "{W}{B}",
        "Creature — Human Knight",
        (1, 1),
        keywords=["deathtouch"],
        text=(
            "Deathtouch\nAs long as it's your turn, Triumphant Adventurer has first strike.\n"
            "Whenever Triumphant Adventurer attacks, venture into the dungeon. " + VENTURE_REMINDER
        ),
        statics=[
            Static(
                "self",
                "As long as it's your turn, Triumphant Adventurer has first strike.",
                keywords=("first strike",),
                condition=your_turn,
            )
        ],
        triggers=[
            Triggered(
                "self_attacks",
                [VENTURE],
                "Whenever Triumphant Adventurer attacks, venture into the dungeon.",
            )
        ],
        set_code="AFR",
    ),
    card(
        "Hama Pashar, Ruin Seeker",
        "{1}{W}{U}",
        "Legendary Creature — Human Wizard",
        (2, 3),
        text="Room abilities of dungeons you own trigger an additional time.",
        extra={"room_triggers_additional": 1},
        set_code="AFR",
    ),
    card(
        "Dungeon Map",
        "{3}",
        "Artifact",
        text=(
            "{T}: Add {C}.\n{3}, {T}: Venture into the dungeon. Activate only as a sorcery. "
            + VENTURE_REMINDER
        ),
        activated=[
            activated("{T}", [], "Add {C}.", produces="C"),
            activated(
                "{3}, {T}",
                [VENTURE],
                "Venture into the dungeon. Activate only as a sorcery.",
                sorcery_speed=True,
            ),
        ],
        set_code="AFR",
    ),
    card(
        "Purple Worm",
        "{5}{G}{G}",
        "Creature — Worm",
        (8, 7),
        ward=("{2}",),
        text=(
            "This spell costs {2} less to cast if a creature died this turn.\nWard {2} "
            "(Whenever this creature becomes the target of a spell or ability an opponent "
            "controls, counter it unless that player pays {2}.)"
        ),
        cost_reduction=_worm_reduction,
        set_code="AFR",
    ),
]

_DISSONANT_WAVE = card(
    "Dissonant Wave",
    "{2}{G}",
    "Instant — Adventure",
    text="Counter target activated or triggered ability from a noncreature source.",
    spell_targets=[
        TargetSpec(
            "ability_noncreature_source",
            "target activated or triggered ability from a noncreature source",
        )
    ],
    spell=[{"op": "counter", "target": 0}],
)

CARDS.append(
    card(
        "Emerald Dragon",
        "{4}{G}{G}",
        "Creature — Dragon",
        (4, 4),
        keywords=["flying", "trample"],
        text=(
            "Flying, trample\n// Dissonant Wave {2}{G} Instant — Adventure: Counter target "
            "activated or triggered ability from a noncreature source. (Then exile this card. "
            "You may cast the creature later from exile.)"
        ),
        adventure=_DISSONANT_WAVE,
        set_code="CLB",
    )
)

__all__ = ["CARDS", "creature_died_this_turn"]
