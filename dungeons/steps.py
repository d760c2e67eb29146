"""Room abilities as rows: the conversion between an effect step of the engine's vocabulary
(`{op: lose_life, who: each_opponent, amount: 1}`, the dungeons/data format) and the fields of
an `EffectStep`, which the admin edits as a form per step."""

from __future__ import annotations

from typing import Any

from game.engine.effects import STEP_PARAMS

LIST_PARAMS = ("keywords", "types", "set_subtypes")  # comma-separated in a form field
PAIR_PARAMS = ("set_base",)  # "1/1" in a form field
BOOL_PARAMS = ("cant_attack", "undercity")
INT_PARAMS = ("amount", "count", "power", "toughness", "reveal", "counters")
TEXT_PARAMS = ("who", "token", "counter", "duration", "unless", "until", "describe")
ALL_PARAMS = (
    "target",
    *TEXT_PARAMS,
    *INT_PARAMS,
    *BOOL_PARAMS,
    *LIST_PARAMS,
    *PAIR_PARAMS,
)


def data_ops() -> list[str]:
    """Operations an admin may use in a room (those with declared parameters; not "hook")."""
    return sorted(STEP_PARAMS)


def step_to_fields(step: dict[str, Any]) -> dict[str, Any]:
    """A data step -> EffectStep field values."""
    fields: dict[str, Any] = {"op": step["op"]}
    for key, value in step.items():
        if key == "op":
            continue
        if key == "target":
            fields["target"] = f"#{value}" if isinstance(value, int) else str(value)
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
        if key == "target":
            step[key] = int(value[1:]) if str(value).startswith("#") else value
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
