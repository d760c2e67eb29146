"""What a board reads from the engine while it holds the engine's lock: plain data only (the
viewer's `view_for`, the viewer's own decision as a `Prompt`, the other seat's public choice),
so the rest of the board is built after the lock is let go."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from game.engine.combat_damage import between_strikes, damage_coming
from game.engine.kinds import DECLARE_BLOCKERS, PRIORITY
from game.engine.stops import destination

from . import whose
from .division import division
from .prompt import prompt_of
from .viewmodel import Coming

if TYPE_CHECKING:
    from game.engine.dungeon import DungeonSpec
    from game.engine.game import Engine

    from .viewmodel import Prompt, SeatView


# The steps of a combat whose damage is still to come.
BEFORE_DAMAGE = frozenset({"declare_attackers", "declare_blockers"})


@dataclass(frozen=True)
class Snapshot:
    """What is read from the engine under its lock: plain data only."""

    view: dict[str, Any]
    prompt: Prompt | None
    public_choice: tuple[str, tuple[str, ...]] | None  # the other seat's (kind, option labels)
    dungeons: dict[str, DungeonSpec]
    my_hand_ids: list[int]
    pass_text: str  # the pass button's words: where passing takes the viewer
    player_names: dict[str, str]  # engine name -> display name


def read(engine: Engine, my_seat: SeatView | None, names: dict[str, str]) -> Snapshot:
    me = my_seat.engine_name if my_seat else None
    view = engine.view_for(me)
    d = engine.pending
    prompt = None
    pass_words = "Pass"
    if d is not None and my_seat is not None and d.player == me:
        owners = whose.owners(engine.state, d, my_seat.engine_name, names)
        lethal = (d.constraints or {}).get("lethal", ())
        prompt = prompt_of(d, owners, division(d, owners, names, lethal))
        state = engine.state
        if d.kind == DECLARE_BLOCKERS or (
            d.kind == PRIORITY
            and state.combat is not None
            and state.active != me
            and (state.step in BEFORE_DAMAGE or between_strikes(state))
        ):
            # Blocks, or a stop in the other player's combat before its damage (or before the
            # regular damage, after first strike's): what its attack will deal (once dealt, the
            # life total says it).
            coming = tuple(damage_coming(state, me))
            final = (
                d.kind == PRIORITY
                and (state.step == "declare_blockers" or between_strikes(state))
                and not state.stack
            )
            prompt = replace(prompt, coming=Coming(coming, state.player(me).life, final))
        if d.kind == PRIORITY:
            pass_words = destination(
                engine.state, my_seat.engine_name, my_seat.stops, my_seat.full_control
            )
            if prompt.coming is not None and prompt.coming.final and prompt.coming.lethal:
                pass_words = f"Pass and take {prompt.coming.total}"  # not "To your turn"
    # The other seat's dungeon and room choices are public; view_for gives their options.
    theirs = view["pending"]
    public = None
    if theirs and theirs["player"] != me and "options" in theirs:
        public = (theirs["kind"], tuple(theirs["options"]))
    hand_ids = view["players"][me]["hand_ids"] if me is not None else []
    return Snapshot(view, prompt, public, dict(engine.state.dungeons), hand_ids, pass_words, names)
