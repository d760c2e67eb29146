"""Reading and validating a scenario file. Every error names the line it is about."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.engine.cards import CARDS, TOKENS
from game.engine.state import STEPS

from .yamlines import LineDict, LineList, line_of, load_with_lines

TOP_KEYS = {"name", "seed", "players", "turn", "setup", "script", "expect", "description", "notes"}
TURN_KEYS = {"number", "active", "step"}
PLAYER_SETUP_KEYS = {
    "life",
    "hand",
    "library",
    "graveyard",
    "exile",
    "battlefield",
    "dungeon",
    "completed",
    "initiative",
    "lands_played",
}
PERMANENT_KEYS = {
    "card",
    "token",
    "tapped",
    "sick",
    "counters",
    "damage",
    "as",
    "attached_to",
    "loyalty",
}
PLAYER_EXPECT_KEYS = {
    "life",
    "poison",
    "hand",
    "library",
    "graveyard",
    "exile",
    "battlefield",
    "dungeon",
    "completed",
    "initiative",
    "permanents",
    "hand_count",
    "library_count",
}
TOP_EXPECT_KEYS = {"stack", "pending", "winner", "turn", "log", "waiting_triggers"}


class ScenarioError(Exception):
    """An invalid file or a script step that can't be carried out; names the line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass
class Step:
    line: int
    kind: str  # "answer", "resolve", "advance", "check", "concede"
    player: str | None = None
    value: Any = None


@dataclass
class Scenario:
    path: str
    name: str
    seed: int
    players: list[str]
    position: dict[str, Any]
    script: list[Step] = field(default_factory=list)
    expect: dict[str, Any] | None = None
    expect_line: int = 0
    aliases: set[str] = field(default_factory=set)


def load_scenario(path: str | Path) -> Scenario:
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(path, 0, f"can't read the file: {e}") from None
    return parse_scenario(text, path)


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    try:
        data = load_with_lines(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise ScenarioError(path, line, f"not valid YAML: {getattr(e, 'problem', e)}") from None
    if not isinstance(data, LineDict):
        raise ScenarioError(path, 1, "a scenario file is a mapping with at least a 'name'")

    def err(container: Any, key: Any, message: str) -> ScenarioError:
        return ScenarioError(path, line_of(container, key), message)

    for key in data:
        if key not in TOP_KEYS:
            raise err(data, key, f"unknown key {key!r}; known keys: {', '.join(sorted(TOP_KEYS))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise err(data, "name", "'name' is required and must be text")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise err(data, "seed", "'seed' must be a whole number")
    players = data.get("players", ["alice", "bob"])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p for p in players)
        or players[0] == players[1]
    ):
        raise err(data, "players", "'players' must be a list of two different names")
    turn = data.get("turn") or LineDict()
    if not isinstance(turn, dict):
        raise err(data, "turn", "'turn' must be a mapping with number, active and step")
    for key in turn:
        if key not in TURN_KEYS:
            raise err(turn, key, f"unknown turn key {key!r}; known: number, active, step")
    if "active" in turn and turn["active"] not in players:
        raise err(turn, "active", f"turn.active must be one of {', '.join(players)}")
    if "step" in turn and turn["step"] not in STEPS:
        raise err(turn, "step", f"unknown step {turn['step']!r}; steps: {', '.join(STEPS)}")
    if "number" in turn and (not isinstance(turn["number"], int) or turn["number"] < 1):
        raise err(turn, "number", "turn.number must be a whole number of at least 1")
    setup = data.get("setup") or LineDict()
    if not isinstance(setup, dict):
        raise err(data, "setup", "'setup' must be a mapping from player name to their zones")
    aliases: set[str] = set()
    initiative_holders = 0
    for pname, spec in setup.items():
        if pname not in players:
            raise err(setup, pname, f"{pname!r} is not a player ({', '.join(players)})")
        spec = spec if spec is not None else LineDict()
        if not isinstance(spec, dict):
            raise err(setup, pname, f"setup.{pname} must be a mapping")
        for key in spec:
            if key not in PLAYER_SETUP_KEYS:
                raise err(
                    spec, key, f"unknown key {key!r}; known: {', '.join(sorted(PLAYER_SETUP_KEYS))}"
                )
        for zone in ("hand", "library", "graveyard", "exile"):
            cards = spec.get(zone) or []
            if not isinstance(cards, list):
                raise err(spec, zone, f"setup.{pname}.{zone} must be a list of card names")
            for i, card in enumerate(cards):
                if card not in CARDS:
                    raise ScenarioError(path, line_of(cards, i), _unknown_card(card))
        for i, entry in enumerate(spec.get("battlefield") or []):
            line = line_of(spec.get("battlefield"), i)
            if isinstance(entry, str):
                if entry not in CARDS:
                    raise ScenarioError(path, line, _unknown_card(entry))
                continue
            if not isinstance(entry, dict):
                raise ScenarioError(path, line, "a battlefield entry is a card name or a mapping")
            for key in entry:
                if key not in PERMANENT_KEYS:
                    raise ScenarioError(
                        path,
                        line,
                        f"unknown permanent key {key!r}; "
                        f"known: {', '.join(sorted(PERMANENT_KEYS))}",
                    )
            if "token" in entry:
                if entry["token"] not in TOKENS:
                    raise ScenarioError(
                        path,
                        line,
                        f"unknown token {entry['token']!r}; tokens: {', '.join(sorted(TOKENS))}",
                    )
            elif entry.get("card") not in CARDS:
                raise ScenarioError(path, line, _unknown_card(entry.get("card")))
            if "as" in entry:
                aliases.add(str(entry["as"]))
        dungeon = spec.get("dungeon")
        if dungeon is not None and not (isinstance(dungeon, dict) and "name" in dungeon):
            raise err(spec, "dungeon", "dungeon must be {name: DUNGEON, room: ROOM}")
        if spec.get("initiative"):
            initiative_holders += 1
        if "life" in spec and not isinstance(spec["life"], int):
            raise err(spec, "life", "life must be a whole number")
    if initiative_holders > 1:
        raise err(setup, None, "at most one player may have the initiative")
    position = {"turn": dict(turn), "setup": {k: v or {} for k, v in setup.items()}}
    scenario = Scenario(path, name, seed, list(players), position, aliases=aliases)
    script = data.get("script") or LineList()
    if not isinstance(script, list):
        raise err(data, "script", "'script' must be a list of steps")
    for i, raw in enumerate(script):
        scenario.script.append(_parse_step(path, raw, line_of(script, i), players))
    expect = data.get("expect")
    if expect is not None:
        _check_expect_keys(path, expect, players)
        scenario.expect = expect
        scenario.expect_line = line_of(data, "expect")
    return scenario


def _unknown_card(name: Any) -> str:
    return f"unknown card name {name!r} (use the exact English card name)"


def _parse_step(path: str, raw: Any, line: int, players: list[str]) -> Step:
    if raw == "resolve":
        return Step(line, "resolve", value="one")
    if isinstance(raw, dict) and len(raw) == 1:
        ((key, value),) = raw.items()
        if key == "resolve":
            if value not in (None, "all", "one"):
                raise ScenarioError(path, line, "resolve takes nothing or 'all'")
            return Step(line, "resolve", value=value or "one")
        if key == "advance":
            if value not in STEPS:
                raise ScenarioError(path, line, f"advance needs a step; steps: {', '.join(STEPS)}")
            return Step(line, "advance", value=value)
        if key == "check":
            _check_expect_keys(path, value, players)
            return Step(line, "check", value=value)
        if key == "illegal":
            # Extension: the answer must be refused and change nothing.
            if not (isinstance(value, dict) and len(value) == 1):
                raise ScenarioError(path, line, "illegal takes one 'PLAYER: answer' mapping")
            inner = _parse_step(path, dict(value), line, players)
            return Step(line, "illegal", player=inner.player, value=inner.value)
        if key == "concede":
            if value not in players:
                raise ScenarioError(path, line, f"concede names a player: {', '.join(players)}")
            return Step(line, "concede", player=value)
        if key in players:
            if isinstance(value, list):
                if not all(isinstance(v, (str, int)) for v in value):
                    raise ScenarioError(path, line, "a list answer holds option labels")
                return Step(line, "answer", player=key, value=[str(v) for v in value])
            if value is None or isinstance(value, (dict,)):
                raise ScenarioError(path, line, f"{key}'s answer must be an option label or a list")
            return Step(line, "answer", player=key, value=str(value))
    raise ScenarioError(
        path,
        line,
        f"unknown script step {raw!r}; a step is 'PLAYER: answer', 'resolve', "
        "'resolve: all', 'advance: STEP', 'check: {...}' or 'concede: PLAYER'",
    )


def _check_expect_keys(path: str, expect: Any, players: list[str]) -> None:
    if not isinstance(expect, dict):
        raise ScenarioError(path, line_of(expect), "expectations are a mapping")
    for key, value in expect.items():
        if key in players:
            if not isinstance(value, dict):
                raise ScenarioError(
                    path, line_of(expect, key), f"{key}'s expectations are a mapping"
                )
            for k in value:
                if k not in PLAYER_EXPECT_KEYS:
                    raise ScenarioError(
                        path,
                        line_of(value, k),
                        f"unknown expectation {k!r}; "
                        f"known: {', '.join(sorted(PLAYER_EXPECT_KEYS))}",
                    )
        elif key not in TOP_EXPECT_KEYS:
            raise ScenarioError(
                path,
                line_of(expect, key),
                f"unknown expectation {key!r}; known: players' names and "
                + ", ".join(sorted(TOP_EXPECT_KEYS)),
            )
