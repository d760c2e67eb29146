"""Reading and validating a scenario file. Every error names the line it is about."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.engine.cards import CARDS, TOKENS
from game.engine.mana import MANA_KINDS
from game.engine.state import STEPS

from .lesson_spec import LessonSpec, parse_lesson
from .puzzle_spec import PuzzleSpec, parse_puzzle
from .yamlines import LineDict, LineList, YamlBounds, YamlRefused, line_of, load_with_lines

# Limits ------------------------------------------------------------------------------------------
# Anyone may upload a scenario file (the New game form, game/forms/new_game.py), so a file is
# bounded before it is read into memory and checked against the sizes a real game can reach.
# docs/scenarios.md, "Limits", states each one; tests/scenarios/test_hostile_files.py checks the
# two agree.
MAX_FILE_BYTES = 64 * 1024  # the upload; the largest file here is under 5 KiB
MAX_DEPTH = 40  # nesting levels, aliases counted (a real file uses 6)
MAX_NODES = 20_000  # entries once every alias is expanded
MAX_SCALAR_CHARS = 10_000  # one value
MAX_NUMBER_DIGITS = 30  # one number: int() refuses past 4,300 digits, nothing here needs 30
MAX_ZONE_CARDS = {"hand": 60, "library": 250, "graveyard": 250, "exile": 250}  # per player
MAX_PERMANENTS = 100  # a side
MAX_COMPLETED = 20  # dungeons completed, per player
MAX_LIFE = 1_000_000  # either way: life can go below zero
MAX_COUNTERS = 1_000  # of one kind on one permanent
MAX_DAMAGE = 1_000_000  # marked on one permanent
MAX_LOYALTY = 1_000
MAX_TURN = 10_000
MAX_LANDS_PLAYED = 100  # this turn
MAX_VENTURES = 100  # this turn, per player: each takes a spell, an ability or an attack
MAX_CREATURES_DIED = 1_000  # this turn: 100 permanents a side, and tokens come and go
MAX_POOL_MANA = 1_000  # of one kind in a player's mana pool
MAX_POISON = 1_000  # 10 or more loses at once (CR 704.5c), as life 0 does (CR 704.5a)
YAML_BOUNDS = YamlBounds(MAX_DEPTH, MAX_NODES, MAX_SCALAR_CHARS, MAX_NUMBER_DIGITS)

TOP_KEYS = {
    "name",
    "seed",
    "players",
    "turn",
    "setup",
    "deal",
    "script",
    "expect",
    "description",
    "notes",
    "puzzle",
    "lesson",
}
TURN_KEYS = {"number", "active", "step", "creatures_died"}
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
    "mana_pool",
    "poison",
    "revealed",
    "ventured_this_turn",
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
    "mana_pool",
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
    name_line: int = 0
    puzzle: PuzzleSpec | None = None
    lesson: LessonSpec | None = None


def load_scenario(path: str | Path) -> Scenario:
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(path, 0, f"can't read the file: {e}") from None
    return parse_scenario(text, path)


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    try:
        data = load_with_lines(text, YAML_BOUNDS)
    except YamlRefused as e:
        raise ScenarioError(path, e.line, e.message) from None
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
            raise err(
                data, key, f"unknown key {_short(key)}; known keys: {', '.join(sorted(TOP_KEYS))}"
            )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise err(data, "name", "'name' is required and must be text")
    seed = data.get("seed", 0)
    if not _is_int(seed):
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
            raise err(
                turn, key, f"unknown turn key {_short(key)}; known: {', '.join(sorted(TURN_KEYS))}"
            )
    if "active" in turn and turn["active"] not in players:
        raise err(turn, "active", f"turn.active must be one of {', '.join(players)}")
    if "step" in turn and not (isinstance(turn["step"], str) and turn["step"] in STEPS):
        raise err(turn, "step", f"unknown step {_short(turn['step'])}; steps: {', '.join(STEPS)}")
    if "number" in turn and not (_is_int(turn["number"]) and 1 <= turn["number"] <= MAX_TURN):
        raise err(turn, "number", f"turn.number must be a whole number from 1 to {MAX_TURN:,}")
    if "creatures_died" in turn and not _whole_up_to(turn["creatures_died"], MAX_CREATURES_DIED):
        raise err(
            turn,
            "creatures_died",
            f"turn.creatures_died must be a whole number from 0 to {MAX_CREATURES_DIED:,}",
        )
    setup = data.get("setup") or LineDict()
    if not isinstance(setup, dict):
        raise err(data, "setup", "'setup' must be a mapping from player name to their zones")
    aliases: set[str] = set()
    initiative_holders = 0
    for pname, spec in setup.items():
        if pname not in players:
            raise err(setup, pname, f"{_short(pname)} is not a player ({', '.join(players)})")
        spec = spec if spec is not None else LineDict()
        if not isinstance(spec, dict):
            raise err(setup, pname, f"setup.{pname} must be a mapping")
        _check_player_setup(path, pname, spec, aliases)
        if spec.get("initiative"):
            initiative_holders += 1
    if initiative_holders > 1:
        raise err(setup, None, "at most one player may have the initiative")
    position: dict[str, Any] = {"turn": dict(turn), "setup": {k: v or {} for k, v in setup.items()}}
    deal = data.get("deal", False)
    if not isinstance(deal, bool):
        raise err(data, "deal", "deal must be true or false")
    if deal:
        # The game from its very beginning (coin flip, play or draw, mulligans): the libraries
        # are the decks, shuffled; nothing else of a position applies.
        if "turn" in data:
            raise err(data, "turn", "a file with 'deal: true' starts at turn 1: leave out 'turn'")
        for spec in setup.values():
            for key in spec or {}:
                if key != "library":
                    raise err(
                        spec,
                        key,
                        f"with 'deal: true' a player's setup holds only 'library' (the deck), "
                        f"not {_short(key)}",
                    )
        position["deal"] = True
    scenario = Scenario(
        path, name, seed, list(players), position, aliases=aliases, name_line=line_of(data, "name")
    )
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
    if "puzzle" in data:
        if deal:
            raise err(data, "puzzle", "a puzzle starts from a position, not from 'deal: true'")
        active = turn.get("active", players[0])
        scenario.puzzle = parse_puzzle(data["puzzle"], list(players), active, err, line_of)
    if "lesson" in data:
        if deal:
            raise err(data, "lesson", "a lesson starts from a position, not from 'deal: true'")
        scenario.lesson = parse_lesson(
            data["lesson"],
            list(players),
            err,
            lambda block: _check_expect_keys(path, block, players),
        )
    return scenario


def _short(value: Any, limit: int = 60) -> str:
    """A value quoted in a message, cut short: a hostile file's value may be 10,000 characters or
    a structure of thousands of entries."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_up_to(value: Any, most: int) -> bool:
    return _is_int(value) and 0 <= value <= most


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _check_player_setup(path: str, pname: str, spec: dict, aliases: set[str]) -> None:
    """One player's `setup`: every value of the type the position builder reads, within the
    limits of a real game. Types are checked before `in CARDS`: a list there is unhashable."""

    def err(container: Any, key: Any, message: str) -> ScenarioError:
        return ScenarioError(path, line_of(container, key), message)

    for key in spec:
        if key not in PLAYER_SETUP_KEYS:
            raise err(
                spec,
                key,
                f"unknown key {_short(key)}; known: {', '.join(sorted(PLAYER_SETUP_KEYS))}",
            )
    where = f"setup.{pname}"
    for zone, most in MAX_ZONE_CARDS.items():
        cards = spec.get(zone) or []
        if not isinstance(cards, list):
            raise err(spec, zone, f"{where}.{zone} must be a list of card names")
        if len(cards) > most:
            raise err(spec, zone, f"{where}.{zone} has {len(cards):,} cards; at most {most}")
        for i, card in enumerate(cards):
            if not isinstance(card, str) or card not in CARDS:
                raise ScenarioError(path, line_of(cards, i), _unknown_card(card))
    _check_revealed(path, spec, where)
    battlefield = spec.get("battlefield") or []
    if not isinstance(battlefield, list):
        raise err(spec, "battlefield", f"{where}.battlefield must be a list of permanents")
    if len(battlefield) > MAX_PERMANENTS:
        raise err(
            spec,
            "battlefield",
            f"{where}.battlefield has {len(battlefield):,} permanents; at most {MAX_PERMANENTS}",
        )
    for i, entry in enumerate(battlefield):
        _check_permanent(path, entry, line_of(battlefield, i), aliases)
    dungeon = spec.get("dungeon")
    if dungeon is not None and not (
        isinstance(dungeon, dict)
        and _is_text(dungeon.get("name"))
        and set(dungeon) <= {"name", "room"}
        and ("room" not in dungeon or _is_text(dungeon["room"]))
    ):
        raise err(spec, "dungeon", "dungeon must be {name: DUNGEON, room: ROOM}")
    completed = spec.get("completed") or []
    if not isinstance(completed, list) or not all(_is_text(d) for d in completed):
        raise err(spec, "completed", "completed must be a list of dungeon names")
    if len(completed) > MAX_COMPLETED:
        raise err(
            spec,
            "completed",
            f"{len(completed):,} completed dungeons; at most {MAX_COMPLETED}",
        )
    if not isinstance(spec.get("initiative", False), bool | None):
        raise err(spec, "initiative", "initiative must be true or false")
    if "life" in spec and not (_is_int(spec["life"]) and abs(spec["life"]) <= MAX_LIFE):
        raise err(spec, "life", f"life must be a whole number from -{MAX_LIFE:,} to {MAX_LIFE:,}")
    for key, most in (
        ("lands_played", MAX_LANDS_PLAYED),
        ("ventured_this_turn", MAX_VENTURES),
        ("poison", MAX_POISON),
    ):
        if key in spec and not _whole_up_to(spec[key], most):
            raise err(spec, key, f"{key} must be a whole number from 0 to {most:,}")
    pool = spec.get("mana_pool") or {}
    if not isinstance(pool, dict) or not all(
        kind in MANA_KINDS and _whole_up_to(n, MAX_POOL_MANA) for kind, n in pool.items()
    ):
        raise err(
            spec,
            "mana_pool",
            f"mana_pool must map a kind of mana ({' '.join(MANA_KINDS)}) to how much "
            f"(0 to {MAX_POOL_MANA:,}), e.g. {{W: 1, R: 2}}",
        )


def _check_revealed(path: str, spec: dict, where: str) -> None:
    """`revealed`: cards of the hand the other player has seen, so each one is in `hand` (the
    zones are checked first: every name is a card)."""
    revealed = spec.get("revealed") or []
    if not isinstance(revealed, list):
        raise ScenarioError(
            path, line_of(spec, "revealed"), f"{where}.revealed must be a list of card names"
        )
    left = Counter(spec.get("hand") or [])
    for i, card in enumerate(revealed):
        if not isinstance(card, str) or card not in CARDS:
            raise ScenarioError(path, line_of(revealed, i), _unknown_card(card))
        if left[card] == 0:
            raise ScenarioError(
                path,
                line_of(revealed, i),
                f"{where}.revealed names {card!r} more times than {where}.hand holds it",
            )
        left[card] -= 1


def _check_permanent(path: str, entry: Any, line: int, aliases: set[str]) -> None:
    if isinstance(entry, str):
        if entry not in CARDS:
            raise ScenarioError(path, line, _unknown_card(entry))
        return
    if not isinstance(entry, dict):
        raise ScenarioError(path, line, "a battlefield entry is a card name or a mapping")
    for key in entry:
        if key not in PERMANENT_KEYS:
            raise ScenarioError(
                path,
                line,
                f"unknown permanent key {_short(key)}; known: {', '.join(sorted(PERMANENT_KEYS))}",
            )
    if "token" in entry:
        token = entry["token"]
        if not isinstance(token, str) or token not in TOKENS:
            raise ScenarioError(
                path, line, f"unknown token {_short(token)}; tokens: {', '.join(sorted(TOKENS))}"
            )
    else:
        card = entry.get("card")
        if not isinstance(card, str) or card not in CARDS:
            raise ScenarioError(path, line, _unknown_card(card))
    for flag in ("tapped", "sick"):
        if not isinstance(entry.get(flag, False), bool | None):
            raise ScenarioError(path, line, f"{flag} must be true or false")
    for key, most in (("damage", MAX_DAMAGE), ("loyalty", MAX_LOYALTY)):
        if key in entry and not (_is_int(entry[key]) and 0 <= entry[key] <= most):
            raise ScenarioError(path, line, f"{key} must be a whole number from 0 to {most:,}")
    counters = entry.get("counters") or {}
    if not isinstance(counters, dict) or not all(
        _is_text(kind) and _is_int(n) and 0 <= n <= MAX_COUNTERS for kind, n in counters.items()
    ):
        raise ScenarioError(
            path,
            line,
            f"counters must map a counter's name to how many (0 to {MAX_COUNTERS:,}), "
            'e.g. {"+1/+1": 2}',
        )
    for key in ("as", "attached_to"):
        if key in entry and not _is_text(entry[key]):
            raise ScenarioError(path, line, f"{key} must be a name")
    if "as" in entry:
        aliases.add(entry["as"])


def _unknown_card(name: Any) -> str:
    return f"unknown card name {_short(name)} (use the exact English card name)"


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
        f"unknown script step {_short(raw)}; a step is 'PLAYER: answer', 'resolve', "
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
                        f"unknown expectation {_short(k)}; "
                        f"known: {', '.join(sorted(PLAYER_EXPECT_KEYS))}",
                    )
        elif key not in TOP_EXPECT_KEYS:
            raise ScenarioError(
                path,
                line_of(expect, key),
                f"unknown expectation {_short(key)}; known: players' names and "
                + ", ".join(sorted(TOP_EXPECT_KEYS)),
            )
