"""A room's steps in the editor: the conversion between an effect step of the engine's vocabulary
(`{op: lose_life, who: each_opponent, amount: 1}`, the dungeons/data format, which is what an
`EffectStep` keeps) and the fields of the admin's form per step; the form of a step the models
keep; and the registry's objections to a step, by the field each concerns.

Which operations and parameters exist, and how each is written in a form field, follow from
the engine's registry (`game/engine/ops.py`); nothing here lists them.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS

from game.engine.ops import BOOL, INT, PAIR, TARGET, TEXT, WORDS, data_params, step_problems
from game.engine.ops import data_ops as _registry_data_ops

from .problems import step_field

_PARAMS = data_params()


def _of(kind: str) -> tuple[str, ...]:
    return tuple(name for name, p in _PARAMS.items() if p.type == kind)


TARGET_PARAMS = _of(TARGET)
LIST_PARAMS = _of(WORDS)  # comma-separated in a form field
PAIR_PARAMS = _of(PAIR)  # "1/1" in a form field
BOOL_PARAMS = _of(BOOL)
INT_PARAMS = _of(INT)
TEXT_PARAMS = _of(TEXT)
# The target first (it declares the phrase the other parameters may name), then by kind.
ALL_PARAMS = (
    *TARGET_PARAMS,
    *TEXT_PARAMS,
    *INT_PARAMS,
    *BOOL_PARAMS,
    *LIST_PARAMS,
    *PAIR_PARAMS,
)


def data_ops() -> list[str]:
    """Operations an admin may use in a room (the registry's data operations, sorted)."""
    return list(_registry_data_ops())


def step_to_fields(step: dict[str, Any]) -> dict[str, Any]:
    """A data step -> the form's field values."""
    fields: dict[str, Any] = {"op": step["op"]}
    for key, value in step.items():
        if key == "op":
            continue
        if key in TARGET_PARAMS:
            fields[key] = f"#{value}" if isinstance(value, int) else str(value)
        elif key in LIST_PARAMS:
            fields[key] = ", ".join(value)
        elif key in PAIR_PARAMS:
            fields[key] = "/".join(str(v) for v in value)
        else:
            fields[key] = value
    return fields


def fields_to_step(fields: dict[str, Any]) -> dict[str, Any]:
    """The form's field values (blank ones ignored) -> a data step. A list of words is typed
    comma-separated or ticked (a list)."""
    step: dict[str, Any] = {"op": fields["op"]}
    for key in ALL_PARAMS:
        value = fields.get(key)
        if blank(key, value):
            continue
        if key in TARGET_PARAMS:
            step[key] = _int(value[1:]) if str(value).startswith("#") else value
        elif key in LIST_PARAMS:
            words = value if isinstance(value, list) else str(value).split(",")
            step[key] = [v.strip() for v in words if v.strip()]
        elif key in PAIR_PARAMS:
            step[key] = [_int(v) for v in str(value).split("/")]
        else:
            step[key] = value
    return step


def blank(key: str, value: Any) -> bool:
    """A field left empty: the step doesn't give that parameter."""
    return value is None or value == "" or value == [] or (key in BOOL_PARAMS and value is False)


def normal_step(step: dict[str, Any]) -> dict[str, Any]:
    """A copy of `step` as the editor writes it: its parameters in the form's order, blank ones
    (an empty text or list, a false flag) left out. What the models keep and give back, so a
    step read from a file and the same step saved in the editor are one value and export alike.
    A key no parameter has is kept, last, for the registry to report."""
    known = {"op", *ALL_PARAMS}
    return {
        **fields_to_step(step_to_fields({k: v for k, v in step.items() if k in known})),
        **{k: v for k, v in step.items() if k not in known},
    }


_WHERE = "The step"
_PROBLEM = re.compile(rf"^{_WHERE}(?: \([^)]*\))?: (?P<what>.*)$")


def step_errors(step: Any) -> dict[str, list[str]]:
    """What the registry finds wrong with one step (`ops.step_problems`, in its words), by the
    form field each problem concerns (a parameter or `op`; NON_FIELD_ERRORS for the rest).
    Empty when the step is valid. Target phrases naming earlier ones are the dungeon's check."""
    errors: dict[str, list[str]] = {}
    for message in step_problems(step, _WHERE):
        match = _PROBLEM.match(message)
        what = match.group("what") if match else message
        field = step_field(what)
        key = field if field in ("op", *ALL_PARAMS) else NON_FIELD_ERRORS
        errors.setdefault(key, []).append(what)
    return errors


def _int(text: str) -> int | str:
    try:
        return int(text.strip())
    except ValueError:
        return text.strip()  # left for the validator to report
