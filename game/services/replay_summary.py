"""The summary of a finished game, read from its replay's timeline (services/replays.py): life by
turn, each player's dungeon progress, the cards each cast, damage by source, and the turns where
the lead changed hands. Plain numbers and names; game/board/replay.py draws them."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .replays import Timeline

# The engine writes every damage event as one log line (engine/effects.py, deal_damage):
# "<source> deals <n> damage to <player or permanent>", with " (now <life>)" after a player and
# " (<controller>'s)" after a permanent, and "<controller>'s " before a source fighting its
# namesake (taken off here: the table counts each source by its name, as it always has).
DAMAGE_LINE = re.compile(
    r"^(?P<source>.+?) deals (?P<amount>\d+) damage to (?P<target>.+?)( \(now -?\d+\))?$"
)
# Two options that read the same get " #N" (docs/scenarios.md, "Option labels").
_NUMBERED = re.compile(r" #\d+$")


@dataclass(frozen=True, slots=True)
class DungeonEvent:
    turn: int
    text: str  # "entered Cave Entrance (Lost Mine of Phandelver)", "completed Tomb of Annihilation"
    completed: bool


@dataclass(frozen=True, slots=True)
class Damage:
    source: str
    to_players: int
    to_permanents: int

    @property
    def total(self) -> int:
        return self.to_players + self.to_permanents


@dataclass(frozen=True, slots=True)
class Summary:
    players: tuple[str, ...]  # engine names, in seat order
    turns: tuple[int, ...]  # 0 (the start), then every turn played
    life: tuple[tuple[int, ...], ...]  # per player, life at the start and at the end of each turn
    dungeons: tuple[tuple[DungeonEvent, ...], ...]  # per player
    rooms_entered: tuple[int, ...]
    completions: tuple[int, ...]
    cast: tuple[tuple[tuple[str, int], ...], ...]  # per player: (card, times), most cast first
    damage: tuple[Damage, ...]  # most damage first
    # (turn, the player who took the lead at its end): the first lead, then every change
    leads: tuple[tuple[int, str], ...]

    @property
    def lead_changes(self) -> int:
        return max(0, len(self.leads) - 1)


def summary(tl: Timeline) -> Summary:
    players = tuple(tl.players)
    frames = tl.frames
    # Life at the start, then at the last point of each turn.
    ends: dict[int, tuple[int, ...]] = {}
    for f in frames:
        ends[f.turn] = f.life
    turns = (0, *sorted(ends))
    life_rows = [frames[0].life, *(ends[t] for t in turns[1:])]
    life = tuple(tuple(row[i] for row in life_rows) for i in range(len(players)))

    dungeons: list[list[DungeonEvent]] = [[] for _ in players]
    for prev, f in zip(frames, frames[1:], strict=False):
        for i in range(len(players)):
            now = f.dungeons[i]
            if now is not None and now != prev.dungeons[i]:
                dungeons[i].append(DungeonEvent(f.turn, f"entered {now[1]} ({now[0]})", False))
            for name, _turn in f.completed[i][len(prev.completed[i]) :]:
                dungeons[i].append(DungeonEvent(f.turn, f"completed {name}", True))

    casts: list[Counter[str]] = [Counter() for _ in players]
    for a in tl.answers:
        if a.label and a.label.startswith("cast ") and a.player in players:
            casts[players.index(a.player)][_NUMBERED.sub("", a.label[5:])] += 1

    dealt: dict[str, list[int]] = {}
    for line in tl.log(tl.last):
        m = DAMAGE_LINE.match(line)
        if m is None:
            continue
        to_player = m["target"] in players
        source = m["source"]
        for p in players:
            source = source.removeprefix(f"{p}'s ")
        row = dealt.setdefault(source, [0, 0])
        row[0 if to_player else 1] += int(m["amount"])
    damage = sorted(
        (Damage(source, p, q) for source, (p, q) in dealt.items()),
        key=lambda d: (-d.total, d.source),
    )

    return Summary(
        players=players,
        turns=turns,
        life=life,
        dungeons=tuple(tuple(d) for d in dungeons),
        rooms_entered=tuple(sum(not e.completed for e in d) for d in dungeons),
        completions=tuple(sum(e.completed for e in d) for d in dungeons),
        cast=tuple(tuple(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for c in casts),
        damage=tuple(damage),
        leads=_leads(players, turns, life_rows),
    )


def _leads(
    players: tuple[str, ...], turns: tuple[int, ...], life_rows: list[tuple[int, ...]]
) -> tuple[tuple[int, str], ...]:
    """The turns at whose end a player took the lead (the most life) from nobody or from the
    other player; a tie leads nobody and changes nothing."""
    out: list[tuple[int, str]] = []
    leader: str | None = None
    for turn, row in zip(turns, life_rows, strict=True):
        best = max(row)
        if row.count(best) > 1:
            continue
        now = players[row.index(best)]
        if now != leader:
            out.append((turn, now))
        leader = now
    return tuple(out)
