"""Turn structure (CR 500-514): steps, turn-based actions and priority in each step."""

from __future__ import annotations

from .casting import resolve_top
from .choices import Gen, choose_objects
from .combat import declare_attackers, declare_blockers
from .combat_damage import combat_damage, has_first_strike_step
from .continuous import chars, end_effects
from .headings import phase_heading, turn_heading
from .initiative import upkeep_trigger
from .kinds import DISCARD
from .priority import priority_decision, take_action
from .sba import check_sbas, settle
from .state import STEPS, Combat, GameState
from .triggers import fire
from .zones import discard, draw

HAND_SIZE = 7


def priority_round(g: GameState) -> Gen:
    """Players get priority until all pass in succession with an empty stack (CR 117.4, 500.2)."""
    player = g.active
    passes = 0
    changed = True
    while True:
        if changed:
            yield from settle(g)
        # Passing priority changes nothing, so the state-based action check that follows it
        # (CR 704.3) would find exactly what the previous one found: none.
        changed = True
        g.priority = player
        answer = yield priority_decision(g, player)
        g.priority = None  # nobody holds priority while something is cast or resolves
        if answer == "pass":
            passes += 1
            if passes < len(g.players):
                player = g.opponent(player)
                changed = False
                continue
            if not g.stack:
                return
            yield from resolve_top(g)
            passes = 0
            player = g.active  # CR 117.3b: the active player receives priority after resolution
        else:
            yield from take_action(g, player, answer)
            passes = 0  # CR 117.3c: the player who acted receives priority again


def empty_pools(g: GameState) -> None:
    for p in g.players:
        p.pool = {}  # CR 106.4: mana empties at the end of each step and phase


def enter_step(g: GameState, step: str) -> None:
    g.step = step
    g.step_serial += 1
    g.heading = phase_heading(g.turn, g.active, step)


def run_turns(g: GameState, start_step: str, resume: bool) -> Gen:
    """Run turns forever from `start_step`; when `resume`, the step's start already happened and
    the active player simply has priority (a position loaded from a scenario)."""
    step_index = STEPS.index(start_step)
    while True:
        for step in STEPS[step_index:]:
            skip_start = resume
            resume = False
            yield from run_step(g, step, skip_start)
            empty_pools(g)
        step_index = 0
        begin_next_turn(g)


def begin_next_turn(g: GameState) -> None:
    g.turn += 1
    g.active = g.opponent(g.active)
    for p in g.players:
        p.lands_played = 0
        p.ventures_this_turn = 0
    g.creatures_died_this_turn = 0
    g.heading = g.heading_written = ""  # the turn's own line heads its beginning phase
    g.note(turn_heading(g.turn, g.active))


def run_step(g: GameState, step: str, skip_start: bool) -> Gen:
    if step in ("declare_blockers", "combat_damage") and not (g.combat and g.combat.declared):
        # CR 508.8: skipped only when no creatures were declared as attackers; an attacker
        # removed from combat later doesn't skip them.
        return
    enter_step(g, step)
    if step == "untap":
        if not skip_start:
            untap_step(g)
        return  # CR 502.4: no player receives priority in the untap step
    if step == "cleanup":
        yield from cleanup_step(g)
        return
    if not skip_start:
        if step == "upkeep":
            upkeep_trigger(g)
        if step == "draw":
            if g.turn == 1 and g.active == g.first_player:
                g.note(f"{g.active} skips the first draw of the game", "CR 103.8a")
            elif draw(g, g.active):
                g.note(f"{g.active} draws a card for the turn", "CR 504.1")
        if step == "declare_attackers":
            # Players get priority in this step even when nobody attacks (CR 508.8).
            yield from declare_attackers(g)
        if step == "declare_blockers":
            yield from declare_blockers(g)
        if step == "combat_damage":
            if has_first_strike_step(g):
                yield from combat_damage(g, first_strike=True)
                fire(g, "step_begin", step="first_strike_damage")
                yield from priority_round(g)
                empty_pools(g)
                # CR 510.4: the regular damage step is a second combat damage step, entered anew
                # (a scenario's `advance: combat_damage` from the first one stops in it).
                enter_step(g, step)
                yield from combat_damage(g, first_strike=False)
            else:
                yield from combat_damage(g, first_strike=None)
        fire(g, "step_begin", step=step)
    elif step == "declare_attackers" and g.combat is None:
        g.combat = Combat()
    yield from priority_round(g)
    if step == "end_of_combat":
        g.combat = None  # CR 511.3: creatures stop being attacking or blocking


def untap_step(g: GameState) -> None:
    """CR 502: "until your next turn" effects end as the turn begins; untap; sickness ends."""
    end_effects(g, "until_next_turn", g.active)
    for o in g.battlefield:
        o.goaded_by.pop(g.active, None)  # goad lasts until the goading player's next turn
    for o in g.battlefield:
        if o.controller != g.active:
            continue
        o.sick = False
        if o.tapped and not chars(g, o).doesnt_untap:
            o.tapped = False


def cleanup_step(g: GameState) -> Gen:
    """CR 514: discard to hand size, remove damage and end "until end of turn" effects."""
    while True:
        p = g.player(g.active)
        excess = len(p.hand) - HAND_SIZE
        if excess > 0:
            chosen = yield from choose_objects(
                g,
                p.name,
                list(p.hand),
                excess,
                f"Discard {excess} card{'s' if excess != 1 else ''} to hand size",
                DISCARD,
            )
            for o in chosen:
                discard(g, o)
            g.note(f"{p.name} discards to seven cards", "CR 514.1")
        for o in g.battlefield:
            o.damage = 0
            o.deathtouch_damage = False
        end_effects(g, "end_of_turn")
        g.combat = None
        # CR 514.3a: if SBAs happen or triggers wait, players get priority, then cleanup again.
        acted = yield from check_sbas(g)
        if not acted and not g.pending_triggers:
            return
        yield from priority_round(g)
