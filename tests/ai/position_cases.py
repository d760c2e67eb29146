"""The computer's moves in set positions, case by case: each file under `positions/` is a scenario
file (docs/scenarios.md) whose script stops at a decision of the computer's seat, and each case
says what a player expects of that move at every level (the functions of expected_moves.py).
test_positions.py plays them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.ai import LEVELS
from game.engine.game import Engine

from .expected_moves import (
    _activates,
    _alice_alone,
    _at_least,
    _attacks_with,
    _blocks,
    _bottoms_purple_worm,
    _cast,
    _casts,
    _chooses,
    _damage_kills_or_is_lethal,
    _first_target,
    _first_target_is_own,
    _keeps,
    _keeps_one_home,
    _land,
    _loses_the_life,
    _mulligans,
    _never,
    _never_attacks_with,
    _no_target,
    _none_of_its_own,
    _not_activated,
    _not_both,
    _not_cast,
    _on_the_crawler,
    _one_of,
    _only,
    _only_the_face,
    _passes,
    _pays,
    _returns_a_creature_card,
    _room,
    _sacrifices,
    _solar_on_the_flyer_worm_on_the_ground,
    _target_is_opponents,
)

SEEDS = range(3)


@dataclass(frozen=True)
class Case:
    file: str
    seat: str
    # Given the game at the decision and the chosen options, why the move is wrong (or None).
    wrong: Callable[[Engine, list[str]], str | None]
    # The levels the move is expected of; a level left out may miss it as a person would (Easy's
    # slips, docs/ai.md), and `why` says so.
    levels: tuple[str, ...] = LEVELS
    why: str = ""
    # Where a misplay came at some seeds only, the seeds that show it (Hard's sampled games).
    seeds: tuple[int, ...] = tuple(SEEDS)


EASY_SLIPS = "Easy may miss it, as a beginner does (docs/ai.md, Easy's slips)"
HARD_ONLY = "a move only Hard's search finds (Medium and Easy play by rules of thumb)"

CASES = [
    Case("pump_on_own_creature.yaml", "bob", _first_target_is_own),
    Case("removal_on_opponents_creature.yaml", "bob", _target_is_opponents),
    Case(
        "attacks_for_lethal.yaml",
        "bob",
        _attacks_with("Emerald Dragon", "Dungeon Crawler #1", "Dungeon Crawler #2"),
        ("medium", "hard"),
        "Easy sees an all-in lethal attack only when nothing can block",
    ),
    Case(
        "casts_its_creature_before_giving_haste.yaml",
        "bob",
        _casts("Yuan-Ti Fang-Blade"),
        ("medium", "hard"),
        "Easy now and then forgets a spell this turn (its slips)",
    ),
    Case(
        "gives_haste_to_the_creature_just_cast.yaml",
        "bob",
        _first_target("Yuan-Ti Fang-Blade"),
    ),
    Case(
        "attacks_with_everything_when_the_crack_back_cannot_kill.yaml",
        "bob",
        _attacks_with("Clattering Skeletons", "Dungeon Crawler #1", "Dungeon Crawler #2"),
        ("medium", "hard"),
        "Easy judges each attacker alone and keeps the Crawlers from the 5/3 blocker",
    ),
    Case(
        "attacks_before_its_library_runs_out.yaml",
        "bob",
        _attacks_with("Dungeon Crawler #1", "Dungeon Crawler #2", "Dungeon Crawler #3"),
        ("medium", "hard"),
        EASY_SLIPS + ": it attacks only where nothing can kill the attacker",
    ),
    Case(
        "no_big_trampler_into_a_deathtouch_blocker.yaml",
        "bob",
        _never_attacks_with("Caves of Chaos Adventurer"),
    ),
    Case(
        "races_the_fliers_it_cannot_block.yaml",
        "bob",
        _attacks_with("Caves of Chaos Adventurer #1", "Caves of Chaos Adventurer #2"),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": it attacks only where nothing can kill its creature",
    ),
    Case("arena_goads_the_opponents_creature.yaml", "bob", _target_is_opponents),
    Case("burn_for_lethal.yaml", "bob", _casts("Magic Missile")),
    Case(
        "keeps_its_only_reach_creature_out_of_a_double_block.yaml",
        "bob",
        _blocks("Goblin blocks Varis, Silverymoon Ranger", never=("Varis, Silverymoon Ranger",)),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": its blocks look at this turn's fight only",
    ),
    Case(
        "precipitous_drop_on_an_attacker_when_nothing_blocks_it.yaml",
        "bob",
        _casts("Precipitous Drop"),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": it forgets a spell 30% of the time",
    ),
    Case(
        "a_creature_made_a_bird_for_the_turn_is_not_traded_as_one.yaml",
        "bob",
        _blocks(never=("Shortcut Seeker",)),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": it trades down half the time",
    ),
    Case(
        "attacks_alone_with_malison_then_burns_for_lethal.yaml",
        "bob",
        _attacks_with("Yuan-Ti Malison"),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": it sees a lethal attack only when nothing can block",
    ),
    Case(
        "casts_varis_with_a_two_mana_source.yaml",
        "bob",
        _casts("Varis, Silverymoon Ranger"),
        ("medium", "hard"),
        EASY_SLIPS + ": it forgets a spell 30% of the time",
    ),
    Case("room_for_lethal.yaml", "bob", _activates("activate Dungeon Map: {3}")),
    Case(
        "menace_to_take_the_initiative_back.yaml",
        "bob",
        _activates("activate Stirring Bard"),
        ("medium", "hard"),
        EASY_SLIPS + ": a spell or ability forgotten",
    ),
    Case(
        "blocks_to_survive_when_the_attack_is_lethal.yaml",
        "bob",
        _blocks("Veteran Dungeoneer blocks Grizzled Outrider"),
    ),
    Case(
        "gang_blocks_a_menace_attacker.yaml",
        "bob",
        _blocks(
            "Veteran Dungeoneer blocks Grizzled Outrider",
            "White Plume Adventurer blocks Grizzled Outrider",
        ),
        ("medium", "hard"),
        EASY_SLIPS + ": a gang block",
    ),
    Case(
        "chump_blocks_only_when_it_must.yaml",
        "bob",
        _blocks(
            "Veteran Dungeoneer blocks Grizzled Outrider",
            "White Plume Adventurer blocks Grizzled Outrider",
            never=("Dungeon Crawler",),
        ),
        ("medium", "hard"),
        EASY_SLIPS + ": a gang block (it then chump-blocks, which keeps it alive)",
    ),
    Case(
        "gang_blocks_a_big_attacker_with_three.yaml",
        "bob",
        _blocks(
            "Veteran Dungeoneer blocks Purple Worm",
            "Varis, Silverymoon Ranger blocks Purple Worm",
            "Gloom Stalker blocks Purple Worm",
        ),
        ("medium", "hard"),
        EASY_SLIPS + ": a gang block",
    ),
    Case(
        "enough_blockers_against_trample.yaml",
        "bob",
        _blocks(
            "Dungeon Crawler blocks Caves of Chaos Adventurer #1",
            "Dungeon Crawler blocks Caves of Chaos Adventurer #2",
        ),
    ),
    Case("no_pump_after_no_attackers.yaml", "bob", _passes),
    Case("no_pump_at_the_end_step.yaml", "bob", _passes),
    Case(
        "stirring_bard_not_tapped_for_nothing_at_the_end_step.yaml",
        "bob",
        _not_activated("Stirring Bard"),
    ),
    Case("forge_counters_not_on_a_frozen_creature.yaml", "bob", _on_the_crawler),
    Case("eccentric_apprentice_gives_no_flier_to_the_opponent.yaml", "bob", _no_target),
    Case("eccentric_apprentice_gives_no_wings_to_a_ground_blocker.yaml", "bob", _no_target),
    Case(
        "attacks_with_a_flier_the_lone_blocker_cannot_kill.yaml",
        "bob",
        _attacks_with("Eccentric Apprentice"),
        levels=("medium", "hard"),
        why="Easy holds back a safe attacker 40% of the time, as a cautious beginner does",
    ),
    Case("eccentric_apprentice_idle_when_nothing_can_attack.yaml", "bob", _no_target),
    Case("eccentric_apprentice_leaves_a_tapped_creature_be.yaml", "bob", _no_target),
    Case("equips_before_the_attack.yaml", "bob", _activates("activate Plate Armor")),
    Case("stirring_bard_not_tapped_for_a_defender.yaml", "bob", _not_activated("Stirring Bard")),
    Case(
        "pump_in_combat_saves_or_kills.yaml",
        "bob",
        _casts("Rally Maneuver"),
        ("medium", "hard"),
        EASY_SLIPS + ": a combat trick",
    ),
    Case(
        "power_word_kill_on_the_blocker_that_kills_its_attacker.yaml",
        "bob",
        _cast("Power Word Kill"),
        ("medium", "hard"),
        EASY_SLIPS + ": removal in a fight",
    ),
    Case(
        "power_word_kill_kept_when_the_attacker_wins_its_fight.yaml",
        "bob",
        _not_cast("Power Word Kill"),
    ),
    Case(
        "pump_goes_on_the_creature_in_the_fight.yaml",
        "bob",
        _first_target("Veteran Dungeoneer"),
    ),
    Case(
        "pump_after_blocks_for_lethal.yaml",
        "bob",
        _first_target("White Plume Adventurer"),
    ),
    Case(
        "kick_in_the_door_not_on_the_opponents_creature.yaml", "bob", _not_cast("Kick in the Door")
    ),
    Case(
        "fates_reversal_not_cast_with_nothing_to_return.yaml", "bob", _not_cast("Fates' Reversal")
    ),
    Case("fates_reversal_returns_a_creature.yaml", "bob", _returns_a_creature_card),
    Case(
        "no_double_block_that_a_double_striker_kills.yaml",
        "bob",
        _not_both(
            "Dungeon Crawler blocks Gloom Stalker", "Yuan-Ti Fang-Blade blocks Gloom Stalker"
        ),
    ),
    Case("no_equip_to_the_creature_that_wears_it.yaml", "bob", _passes),
    Case(
        "lost_mine_for_two_gargoyles_waiting_on_a_completion.yaml",
        "bob",
        _chooses("Lost Mine of Phandelver"),
    ),
    Case("lost_mine_for_nadaars_anthem.yaml", "bob", _chooses("Lost Mine of Phandelver")),
    Case("a_zero_power_gargoyle_stays_home.yaml", "bob", _never_attacks_with("Cloister Gargoyle")),
    # Hard chump-blocked at seeds 4, 6, 7 and 9 of the first twelve.
    Case(
        "no_chump_block_at_20_life.yaml", "alice", _blocks(never=("Goblin",)), seeds=(0, 4, 6, 7, 9)
    ),
    Case(
        "kick_in_the_door_waits_when_nothing_would_attack.yaml",
        "bob",
        _passes,
        ("medium", "hard"),
        EASY_SLIPS + ": it casts its spells before combat",
    ),
    Case(
        "malison_attacks_alone_past_deathtouch_blockers.yaml",
        "bob",
        _attacks_with("Yuan-Ti Malison"),
        ("medium", "hard"),
        EASY_SLIPS + ": it attacks only where nothing can kill the attacker",
    ),
    Case(
        "malison_kept_out_of_a_trade_with_a_dungeon_crawler.yaml",
        "bob",
        _no_target,
        ("medium", "hard"),
        EASY_SLIPS + ": it trades down half the time",
    ),
    Case(
        "first_strike_damage_kills_the_deathtouch_blocker.yaml",
        "bob",
        _chooses("2 to Yuan-Ti Fang-Blade"),
    ),
    Case(
        "fates_reversal_takes_its_card_with_a_second_copy_in_hand.yaml",
        "bob",
        _returns_a_creature_card,
    ),
    Case(
        "fates_reversal_cast_for_a_creature_in_the_graveyard.yaml",
        "bob",
        _casts("Fates' Reversal"),
        ("medium", "hard"),
        EASY_SLIPS + ": it forgets a spell 30% of the time",
    ),
    Case(
        "fates_reversal_cast_with_no_creature_across_the_table.yaml",
        "bob",
        _casts("Fates' Reversal"),
        ("medium", "hard"),
        EASY_SLIPS + ": it forgets a spell 30% of the time",
    ),
    Case(
        "casts_a_free_spell_before_it_is_lost.yaml",
        "bob",
        _casts("Fates' Reversal"),
        ("medium", "hard"),
        EASY_SLIPS + ": it forgets a spell 30% of the time",
    ),
    Case("magic_missile_not_cast_when_nothing_dies.yaml", "bob", _not_cast("Magic Missile")),
    Case("magic_missile_kills_or_goes_face.yaml", "bob", _damage_kills_or_is_lethal),
    Case("magic_missile_goes_face_for_lethal.yaml", "bob", _only_the_face),
    Case("power_word_kill_kept_for_a_threat.yaml", "bob", _not_cast("Power Word Kill")),
    Case("discards_what_it_cannot_cast_soon.yaml", "bob", _never("Triumphant Adventurer")),
    Case(
        "power_word_kill_kept_from_a_blocker_pumped_for_the_turn.yaml",
        "bob",
        _not_cast("Power Word Kill"),
    ),
    Case(
        "no_second_legend_while_the_first_is_in_play.yaml",
        "bob",
        _not_cast("Varis, Silverymoon Ranger"),
    ),
    Case("bar_the_gate_not_spent_on_a_small_creature.yaml", "bob", _not_cast("Bar the Gate")),
    Case(
        "bar_the_gate_counters_a_threat.yaml",
        "bob",
        _cast("Bar the Gate"),
        levels=("medium", "hard"),
        why="Easy never counters a spell or an ability (docs/ai.md, Easy's slips)",
    ),
    Case(
        "dissonant_wave_counters_the_last_room_of_undercity.yaml",
        "bob",
        _cast("Dissonant Wave"),
        levels=("medium", "hard"),
        why="Easy never counters a spell or an ability (docs/ai.md, Easy's slips)",
    ),
    Case("precipitous_drop_on_the_opponents_creature.yaml", "bob", _target_is_opponents),
    Case("ray_of_frost_waits_for_the_creature_to_tap.yaml", "bob", _not_cast("Ray of Frost")),
    Case(
        "ray_of_frost_on_the_attacker_at_the_end_step.yaml",
        "bob",
        _casts("Ray of Frost"),
        ("medium", "hard"),
        "Easy never casts a flash spell at the other player's end step (docs/ai.md, Easy's slips)",
    ),
    Case(
        "ray_of_frost_taps_a_red_creature.yaml",
        "bob",
        _casts("Ray of Frost"),
        ("medium", "hard"),
        EASY_SLIPS + ": it forgets a spell now and then",
    ),
    Case(
        "eccentric_apprentice_never_makes_its_own_creature_a_bird.yaml",
        "bob",
        _none_of_its_own,
    ),
    Case("keeps_two_lands_with_cheap_spells_of_its_colours.yaml", "bob", _keeps),
    Case("mulligans_seven_lands.yaml", "bob", _mulligans),
    Case("mulligans_spells_its_lands_cannot_cast.yaml", "bob", _mulligans),
    Case(
        "mulligans_two_lands_with_only_expensive_spells.yaml",
        "bob",
        _mulligans,
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": keeping a hand a beginner would keep",
    ),
    Case(
        "bottoms_its_most_expensive_spell_not_a_land.yaml",
        "bob",
        _bottoms_purple_worm,
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": its least valuable card, a land, to the bottom",
    ),
    Case(
        "no_oubliette_that_sacrifices_a_creature.yaml",
        "bob",
        _room("Veils of Fear"),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": a random room half the time",
    ),
    Case("acererak_goes_to_the_tomb_that_keeps_it.yaml", "bob", _room("Tomb of Annihilation")),
    Case(
        "acererak_ventures_toward_the_tomb_while_behind_on_life.yaml",
        "bob",
        _casts("Acererak the Archlich"),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": it forgets a spell 30% of the time",
    ),
    Case("plays_its_land_before_its_spell.yaml", "bob", _only("play Mountain", "it chose")),
    Case("plays_a_land_of_its_missing_colour.yaml", "bob", _land("Mountain")),
    Case("keeps_the_land_it_needs_in_veils_of_fear.yaml", "bob", _loses_the_life),
    Case("keeps_its_lands_in_sandfall_cell.yaml", "bob", _loses_the_life),
    Case("discards_to_veils_of_fear_with_trap_coming.yaml", "bob", _pays),
    Case(
        "attacks_together_to_take_the_initiative_back.yaml",
        "alice",
        _at_least(2),
        ("medium", "hard"),
        EASY_SLIPS + ": it judges each attacker alone",
    ),
    Case("second_varis_stays_in_hand.yaml", "alice", _passes),
    Case(
        "two_dungeoneers_shield_two_attackers_for_lethal.yaml",
        "bob",
        _attacks_with("Dungeon Crawler", "Seasoned Dungeoneer #1", "Seasoned Dungeoneer #2"),
        ("medium", "hard"),
        EASY_SLIPS + ": it judges the attack without the shields its triggers give",
    ),
    Case(
        "acererak_not_recast_when_the_venture_is_stopped.yaml",
        "bob",
        _not_cast("Acererak the Archlich"),
    ),
    Case("sacrifices_the_token_not_a_land_in_sandfall_cell.yaml", "bob", _sacrifices("Skeleton")),
    Case(
        "no_trap_at_itself_past_a_hexproof_player.yaml",
        "bob",
        _room("Arena"),
        levels=("medium", "hard"),
        why=EASY_SLIPS + ": a random room half the time",
    ),
    Case(
        "chumps_the_lifelinker_when_the_next_attack_would_kill.yaml",
        "bob",
        _blocks("Goblin blocks Passageway Seer"),
        ("medium", "hard"),
        EASY_SLIPS + ": it chump-blocks only when this attack would leave it at 4 or less",
    ),
    Case(
        "blocks_to_keep_the_initiative_from_trap.yaml",
        "bob",
        _blocks("Goblin blocks Grizzled Outrider"),
        ("medium", "hard"),
        EASY_SLIPS + ": it doesn't weigh the initiative or the room it hands over",
    ),
    Case(
        "keeps_a_guard_home_when_the_crack_back_and_trap_would_kill.yaml",
        "bob",
        _keeps_one_home,
        ("medium", "hard"),
        EASY_SLIPS + ": it never keeps blockers home against a lethal counter-attack",
    ),
    Case(
        "kick_in_the_door_on_a_creature_that_can_attack.yaml",
        "bob",
        _one_of("Yuan-Ti Fang-Blade #1", "Yuan-Ti Fang-Blade #2"),
        ("medium", "hard"),
        EASY_SLIPS + ": a good target, not always the best",
    ),
    Case(
        "a_frozen_creature_is_no_crack_back.yaml",
        "alice",
        _attacks_with("Yuan-Ti Malison"),
        ("medium", "hard"),
        EASY_SLIPS + ": it holds an attacker back out of caution",
    ),
    Case(
        "magic_missile_all_at_the_face_for_lethal.yaml", "bob", _alice_alone, ("hard",), HARD_ONLY
    ),
    Case(
        "reach_blocker_saved_for_the_flyer.yaml",
        "bob",
        _solar_on_the_flyer_worm_on_the_ground,
        ("hard",),
        HARD_ONLY,
    ),
]
