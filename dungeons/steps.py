"""Room abilities as rows: the conversion between an effect step of the engine's vocabulary
(`{op: lose_life, who: each_opponent, amount: 1}`, the dungeons/data format) and the fields of
an `EffectStep`, which the admin edits as a form per step.

Which operations and parameters exist, and how each is written in a form field, follow from
the engine's registry (`game/engine/ops.py`); nothing here lists them.
"""

from __future__ import annotations

from typing import Any

from game.engine.ops import BOOL, INT, PAIR, TARGET, TEXT, WORDS, data_params
from game.engine.ops import data_ops as _registry_data_ops

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
    """A data step -> EffectStep field values."""
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
    """EffectStep field values (blank ones ignored) -> a data step."""
    step: dict[str, Any] = {"op": fields["op"]}
    for key in ALL_PARAMS:
        value = fields.get(key)
        if value is None or value == "" or (key in BOOL_PARAMS and value is False):
            continue
        if key in TARGET_PARAMS:
            step[key] = _int(value[1:]) if str(value).startswith("#") else value
        elif key in LIST_PARAMS:
            step[key] = [v.strip() for v in str(value).split(",") if v.strip()]
        elif key in PAIR_PARAMS:
            step[key] = [_int(v) for v in str(value).split("/")]
        else:
            step[key] = value
    return step


def _int(text: str) -> int | str:
    try:
        return int(text.strip())
    except ValueError:
        return text.strip()  # left for the validator to report
