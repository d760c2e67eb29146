"""How an effect step was kept from migration 0003 to 0005: one column per parameter, most of them
empty. Written out here, frozen, so those migrations convert a step as they always did whatever
the registry (game/engine/ops.py) declares later; the live models keep a step as one JSON value.

A step in columns: a target as text ("creature", "#0" for the first earlier target), a list of
words comma-separated ("flying, haste"), a pair as "1/1", an absent text as "", an absent number
as None, an absent flag as False. The migration loader skips this module (its name starts
with "_")."""

from __future__ import annotations

from typing import Any

TARGET = ("target",)
TEXT = ("counter", "token", "describe", "who", "until", "unless", "duration")
INT = ("amount", "count", "power", "toughness", "reveal", "counters")
BOOL = ("cant_attack", "undercity")
WORDS = ("types", "keywords", "set_subtypes")
PAIR = ("set_base",)
# In the order a step's parameters were read back (the target first: the phrase it declares may
# be named by the others), which is the order of the keys in every exported step.
COLUMNS = (*TARGET, *TEXT, *INT, *BOOL, *WORDS, *PAIR)


def step_to_columns(step: dict[str, Any]) -> dict[str, Any]:
    """A step -> the values of its row's columns (`op` and every parameter column)."""
    unkept = set(step) - {"op", *COLUMNS}
    if unkept:
        raise ValueError(f"no column holds {', '.join(sorted(unkept))} of the step {step!r}")
    row: dict[str, Any] = {"op": step["op"]}
    for column in COLUMNS:
        value = step.get(column)
        if column in TARGET:
            row[column] = "" if value is None else f"#{value}" if isinstance(value, int) else str(value)
        elif column in WORDS:
            row[column] = ", ".join(value or [])
        elif column in PAIR:
            row[column] = "/".join(str(v) for v in value) if value else ""
        elif column in BOOL:
            row[column] = bool(value)
        elif column in INT:
            row[column] = value
        else:
            row[column] = "" if value is None else value
    return row


def columns_to_step(row: dict[str, Any]) -> dict[str, Any]:
    """A row's column values (`op` and the parameter columns) -> the step, blank columns left
    out."""
    step: dict[str, Any] = {"op": row["op"]}
    for column in COLUMNS:
        value = row.get(column)
        if value is None or value == "" or (column in BOOL and value is False):
            continue
        if column in TARGET:
            step[column] = _int(value[1:]) if str(value).startswith("#") else value
        elif column in WORDS:
            step[column] = [v.strip() for v in str(value).split(",") if v.strip()]
        elif column in PAIR:
            step[column] = [_int(v) for v in str(value).split("/")]
        else:
            step[column] = value
    return step


def _int(text: str) -> int | str:
    try:
        return int(text.strip())
    except ValueError:
        return text.strip()
