"""Running a scenario: play its script against the engine and compare expectations."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dungeons.official import official_dungeons
from game.engine.decisions import Decision, IllegalAnswer, Option
from game.engine.game import Engine, GameSetup
from game.engine.kinds import ASSIGN_COMBAT_DAMAGE, ASSIGN_COMBAT_DAMAGE_PART, DIVIDE, PRIORITY
from game.engine.position import PositionError

from .loader import Scenario, ScenarioError, Step, load_scenario

MAX_PASSES = 2000


@dataclass
class Outcome:
    path: str
    name: str
    passed: bool
    problems: list[str] = field(default_factory=list)
    error: ScenarioError | None = None  # an invalid file (exit 2)


def build_game(scenario: Scenario) -> Engine:
    setup = GameSetup(
        players=scenario.players,
        seed=scenario.seed,
        dungeons=official_dungeons(),
        position=scenario.position,
    )
    try:
        return Engine(setup)
    except PositionError as e:
        raise ScenarioError(scenario.path, 0, str(e)) from None


# matching labels ------------------------------------------------------------------------------
def _label_variants(game: Engine, option: Option) -> set[str]:
    """An option's label, and the label with any named object's alias in place of its name.

    The objects are named in the label in the order of `option.objs` ("Gob blocks Gob": the
    blocker first), so each is looked for after the one before; a ` #N` that tells two objects
    of one name apart goes with the name, since an alias already tells them apart."""
    variants = [option.label]
    former = set(option.former)
    start = 0
    for obj_id in option.objs:
        obj = game.state.find(obj_id)
        if obj is None:
            continue
        at = option.label.find(obj.name, start)
        if at < 0:
            continue
        end = at + len(obj.name)
        suffix = re.match(r" #\d+", option.label[end:])
        if suffix:
            end += suffix.end()
        start = end
        if not obj.alias:
            continue
        # Same-length prefix in every variant so far: replace by position from the end.
        tail = len(option.label) - end
        variants += [
            v[: len(v) - tail - (end - at)] + obj.alias + v[len(v) - tail :] for v in variants
        ]
    return set(variants) | former


def _plain(text: str) -> str:
    """Loyalty costs print a minus sign (−2); a file may write a hyphen (-2)."""
    return text.replace("\u2212", "-")


def _resolve_label(game: Engine, d: Decision, label: str, step: Step, path: str) -> str:
    label = _plain(label)
    matches = [o for o in d.options if label in {_plain(v) for v in _label_variants(game, o)}]
    if len(matches) == 1:
        return matches[0].id
    if not matches:
        raise ScenarioError(
            path,
            step.line,
            f"{label!r} matches no option of {d.player}'s {d.kind} decision; the options were: "
            + "; ".join(o.label for o in d.options),
        )
    raise ScenarioError(
        path,
        step.line,
        f"{label!r} matches several options; use one of: " + "; ".join(o.label for o in matches),
    )


def match_answer(game: Engine, d: Decision, step: Step, path: str) -> Any:
    """The option id(s) `step.value` (a label or a list of labels) names in decision `d`;
    ScenarioError when a label names no option or several."""
    if isinstance(step.value, list):
        ids = [_resolve_label(game, d, label, step, path) for label in step.value]
        return ids if (d.multi or d.ordered) else (ids[0] if len(ids) == 1 else ids)
    one = _resolve_label(game, d, step.value, step, path)
    return [one] if (d.multi or d.ordered) else one


def _answer(game: Engine, step: Step, path: str) -> None:
    d = game.pending
    if d is None:
        raise ScenarioError(
            path, step.line, f"the game is over ({game.state.winner} won); nothing to answer"
        )
    if d.player != step.player:
        raise ScenarioError(
            path,
            step.line,
            f"the pending decision ({d.kind}: {d.prompt}) is {d.player}'s, not {step.player}'s; "
            "its options: " + "; ".join(o.label for o in d.options),
        )
    answer = match_answer(game, d, step, path)
    try:
        game.answer(step.player, answer)  # type: ignore[arg-type]
    except IllegalAnswer as e:
        raise ScenarioError(path, step.line, str(e)) from None


def _expect_refusal(game: Engine, step: Step, path: str) -> None:
    """An `illegal:` step: the answer must be refused, and the game must not change. An answer
    written as a division is refused only by a division: against any other decision it would
    match no option and pass whatever it says."""
    d = game.pending
    if _reads_as_division(step.value) and (d is None or d.kind not in DIVIDING):
        now = f"the pending decision is {d.player}'s {d.kind}: {d.prompt}" if d else "game over"
        raise ScenarioError(
            path,
            step.line,
            f"{step.value!r} is a division, but no division is pending ({now}); a combat damage "
            "division is asked after 'advance: combat_damage'",
        )
    before = game.state_json()
    answers = len(game.answers)
    try:
        _answer(game, step, path)
    except ScenarioError:
        if game.state_json() != before or len(game.answers) != answers:
            raise ScenarioError(path, step.line, "the refused answer changed the game") from None
        return
    raise ScenarioError(path, step.line, f"{step.value!r} was accepted, but it should be illegal")


# A combat damage division (docs/scenarios.md, "Combat damage"): files written before the
# attacking player chose it saw the usual division made for them, so a division is answered
# with its first option (the usual one) unless the script takes it up: its next step that is not
# a `check` answers it (or tries to, `illegal:`), or a check before that step looks at it. A check
# only looks, so one placed between `advance: combat_damage` and the answer sees the division.
DIVISIONS = (ASSIGN_COMBAT_DAMAGE, ASSIGN_COMBAT_DAMAGE_PART)
# Decisions whose labels read "N to <recipient>, ...": combat damage and a spell's divided damage.
DIVIDING = (*DIVISIONS, DIVIDE)
_DIVISION_LABEL = re.compile(r"\d+ to \S.*")

# What follows a point of the script: the steps still to come, then the final expectations.
Ahead = Sequence[Step | dict[str, Any] | None]


def _reads_as_division(value: Any) -> bool:
    labels = value if isinstance(value, list) else [value]
    return bool(labels) and all(
        isinstance(label, str) and _DIVISION_LABEL.fullmatch(label.strip()) for label in labels
    )


def _looks_at(game: Engine, d: Decision, want: Any) -> bool:
    """Whether a check's (or the final expectations') `pending` names the division `d`: by its
    kind, or, with no kind given, by its options."""
    pending = want.get("pending") if isinstance(want, dict) else None
    if not isinstance(pending, dict):
        return False
    if "kind" in pending:
        return pending["kind"] == d.kind
    options = pending.get("options")
    return isinstance(options, list) and _same_options(game, options, [o.label for o in d.options])


def _takes_up(game: Engine, d: Decision, ahead: Ahead) -> bool:
    """Whether the script from here (`ahead`) deals with the division `d`."""
    for nxt in ahead:
        if isinstance(nxt, dict) or (isinstance(nxt, Step) and nxt.kind == "check"):
            want = nxt if isinstance(nxt, dict) else nxt.value
            if _looks_at(game, d, want):
                return True
            if isinstance(nxt, Step):
                continue  # a check only looks: the step after it decides
            return False
        if nxt is None or nxt.kind not in ("answer", "illegal"):
            return False
        if nxt.kind == "illegal":
            return nxt.player == d.player or _reads_as_division(nxt.value)
        if nxt.player != d.player:
            return False
        labels = nxt.value if isinstance(nxt.value, list) else [nxt.value]
        known = {_plain(v) for o in d.options for v in _label_variants(game, o)}
        return all(_plain(label) in known for label in labels)
    return False


def _usual_divisions(game: Engine, ahead: Ahead) -> None:
    while (d := game.pending) is not None and d.kind in DIVISIONS and not _takes_up(game, d, ahead):
        game.answer(d.player, d.options[0].id)


def _pass(game: Engine) -> bool:
    d = game.pending
    if d is None or d.kind != PRIORITY:
        return False
    game.answer(d.player, "pass")
    return True


def _resolve(game: Engine, step: Step, path: str, ahead: Ahead = ()) -> None:
    g = game.state
    if not g.stack and not g.pending_triggers:
        return
    target = g.stack[-1].id if g.stack else None
    for _ in range(MAX_PASSES):
        _usual_divisions(game, ahead)
        if game.pending is None:
            return
        if step.value == "all":
            if not g.stack:
                return
        elif target is None:
            if not g.stack:
                return
            target = g.stack[-1].id
        elif all(s.id != target for s in g.stack):
            return
        if not _pass(game):
            return  # stopped at a decision that is not a plain priority pass
    raise ScenarioError(path, step.line, "resolve could not finish: the stack never emptied")


def _advance(game: Engine, step: Step, path: str, ahead: Ahead = ()) -> None:
    g = game.state
    if g.stack:
        raise ScenarioError(
            path, step.line, "advance needs an empty stack; use 'resolve' or 'resolve: all' first"
        )
    start = g.step_serial
    start_turn = g.turn
    for _ in range(MAX_PASSES):
        _usual_divisions(game, ahead)
        if g.step == step.value and g.step_serial > start:
            return
        if game.pending is None:
            raise ScenarioError(path, step.line, f"advance: the game ended ({g.winner} won)")
        if g.stack or game.pending.kind != PRIORITY:
            return  # something went on the stack, or a decision is needed
        if g.turn > start_turn + 4:
            break
        _pass(game)
    raise ScenarioError(path, step.line, f"advance could not reach {step.value}")


# expectations ---------------------------------------------------------------------------------
def compare(game: Engine, expect: dict[str, Any], players: list[str]) -> list[str]:
    state = game.state_json()
    problems: list[str] = []

    def differ(where: str, want: Any, got: Any) -> None:
        problems.append(f"{where}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key in players:
            pstate = state["players"][key]
            for field_name, value in want.items():
                _compare_player_field(game, key, pstate, field_name, value, differ)
        elif key == "stack":
            got = [s["name"] for s in state["stack"]]
            if list(want or []) != got:
                differ("stack (top first)", list(want or []), got)
        elif key == "winner":
            if want != state["winner"]:
                differ("winner", want, state["winner"])
        elif key == "turn":
            for k, v in want.items():
                if state["turn"].get(k) != v:
                    differ(f"turn.{k}", v, state["turn"].get(k))
        elif key == "pending":
            p = state["pending"]
            if want is None:
                if p is not None:
                    differ("pending", None, p)
                continue
            if p is None:
                differ("pending", want, None)
                continue
            for k, v in want.items():
                if k == "options":
                    if not _same_options(game, v, p["options"]):
                        differ("pending.options (as a set)", sorted(v), sorted(p["options"]))
                elif p.get(k) != v:
                    differ(f"pending.{k}", v, p.get(k))
        elif key == "log":
            for fragment in want:
                if not any(fragment in line for line in state["log"]):
                    problems.append(f"log: no line contains {fragment!r}")
        elif key == "waiting_triggers":
            got = [t["name"] for t in state["waiting_triggers"]]
            if list(want or []) != got:
                differ("waiting_triggers", list(want or []), got)
    return problems


def _same_options(game: Engine, want: list[str], got: list[str]) -> bool:
    """A file's list of options against the pending ones, as a multiset; an option may be
    written with a label it had before (`Option.former`)."""
    if Counter(want) == Counter(got):
        return True
    d = game.pending
    if d is None:
        return False
    # Copies once offered one by one ("Plains #1", "Plains #2") are one option now: its former
    # labels, each written once, are that option written as it was.
    written: dict[str, list[str]] = {o.id: [] for o in d.options}
    for label in want:
        match = next(
            (o for o in d.options if not written[o.id] and label in (o.label, *o.former)), None
        ) or next((o for o in d.options if label in o.former and label not in written[o.id]), None)
        if match is None:
            return False
        written[match.id].append(label)
    return all(
        len(labels) == 1 or bool(o.former_ids) and sorted(labels) == sorted(o.former)
        for o in d.options
        for labels in [written[o.id]]
    )


def _compare_player_field(game, player, pstate, field_name, want, differ) -> None:
    where = f"{player}.{field_name}"
    if field_name in ("hand", "graveyard", "exile", "battlefield"):
        got = (
            [p["name"] for p in pstate["battlefield"]]
            if field_name == "battlefield"
            else pstate[field_name]
        )
        if Counter(want or []) != Counter(got):
            differ(where + " (any order)", sorted(want or []), sorted(got))
    elif field_name == "library":
        if list(want or []) != pstate["library"]:
            differ(where + " (top first)", list(want or []), pstate["library"])
    elif field_name == "completed":
        got = [c["dungeon"] for c in pstate["completed"]]
        if list(want or []) != got:
            differ(where, list(want or []), got)
    elif field_name == "dungeon":
        got = pstate["dungeon"]
        if want is None or got is None:
            if want != got:
                differ(where, want, got)
        else:
            for k, v in want.items():
                if got.get(k) != v:
                    differ(f"{where}.{k}", v, got.get(k))
    elif field_name == "permanents":
        for ref, fields in want.items():
            matches = [p for p in pstate["battlefield"] if p["alias"] == ref] or [
                p for p in pstate["battlefield"] if p["name"] == ref
            ]
            if not matches:
                differ(f"{where}.{ref}", "on the battlefield", "not there")
                continue
            perm = matches[0]
            for k, v in (fields or {}).items():
                got = perm.get(k)
                if k == "keywords":
                    if sorted(v) != sorted(got or []):
                        differ(f"{where}.{ref}.keywords", sorted(v), sorted(got or []))
                elif k == "counters":
                    if {a: b for a, b in (v or {}).items() if b} != {
                        a: b for a, b in (got or {}).items() if b
                    }:
                        differ(f"{where}.{ref}.counters", v, got)
                elif got != v:
                    differ(f"{where}.{ref}.{k}", v, got)
    elif field_name == "hand_count":
        if want != len(pstate["hand"]):
            differ(where, want, len(pstate["hand"]))
    elif field_name == "library_count":
        if want != len(pstate["library"]):
            differ(where, want, len(pstate["library"]))
    elif field_name == "mana_pool":
        # `{}`, `null`, `{R: 0}` and a kind left out all say "none of it".
        got = {kind: n for kind, n in pstate["mana_pool"].items() if n}
        want = want or {}
        wanted = {kind: n for kind, n in want.items() if n} if isinstance(want, dict) else want
        if wanted != got:
            differ(where, want, got)
    else:
        if pstate.get(field_name) != want:
            differ(where, want, pstate.get(field_name))


# running --------------------------------------------------------------------------------------
def play_script(scenario: Scenario, game: Engine, *, checks: bool = True) -> list[str]:
    problems: list[str] = []
    script = scenario.script
    for i, step in enumerate(script):
        here: Ahead = [*script[i:], scenario.expect]
        _usual_divisions(game, here)
        if step.kind == "answer":
            _answer(game, step, scenario.path)
        elif step.kind == "resolve":
            _resolve(game, step, scenario.path, here[1:])
        elif step.kind == "advance":
            _advance(game, step, scenario.path, here[1:])
        elif step.kind == "illegal":
            _expect_refusal(game, step, scenario.path)
        elif step.kind == "concede":
            game.concede(step.player)  # type: ignore[arg-type]
        elif step.kind == "check" and checks:
            found = compare(game, step.value, scenario.players)
            problems += [f"check at line {step.line}: {p}" for p in found]
    _usual_divisions(game, [scenario.expect])
    return problems


def run_scenario(scenario: Scenario) -> Outcome:
    game = build_game(scenario)
    try:
        problems = play_script(scenario, game)
    except ScenarioError as e:
        return Outcome(scenario.path, scenario.name, False, [str(e)])
    if scenario.expect is not None:
        problems += compare(game, scenario.expect, scenario.players)
    return Outcome(scenario.path, scenario.name, not problems, problems)


def run_file(path: str | Path) -> Outcome:
    try:
        scenario = load_scenario(path)
        return run_scenario(scenario)
    except ScenarioError as e:
        return Outcome(str(path), "", False, [str(e)], error=e)


def reached(path: str | Path) -> Engine:
    """Set up, play the script, return the game where it stops (expectations ignored)."""
    scenario = load_scenario(path)
    game = build_game(scenario)
    play_script(scenario, game, checks=False)
    return game


def final_state(path: str | Path) -> dict[str, Any]:
    """Set up, play the script, return the judge's state JSON (expectations ignored)."""
    return reached(path).state_json()


def scenario_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out += sorted(path.rglob("*.yaml")) + sorted(path.rglob("*.yml"))
        else:
            out.append(path)
    return out
