"""YAML with line numbers: mappings and lists remember where each entry was written.

Scenario files come from strangers (the New game form takes an upload), so a file is first read
as PyYAML's event stream, which its parser produces with a loop and an explicit stack (no
recursion), and bounded there, before anything is composed into nodes or expanded into dicts and
lists: PyYAML's composer recurses once per nesting level, and an alias is a pointer that the
conversion below copies, so ten aliases to ten aliases to ... of a 429-byte file would otherwise
expand into billions of entries. The bounds are the caller's (`game/scenario/loader.py` keeps
every limit in one place).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"


class LineDict(dict):
    line: int = 0
    key_lines: dict[Any, int]


class LineList(list):
    line: int = 0
    item_lines: list[int]


class YamlRefused(Exception):
    """The file is well-formed YAML but past a bound, or holds a value that can't be read."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class YamlBounds:
    max_depth: int  # nesting levels, counted through aliases
    max_nodes: int  # entries after expanding every alias (keys, values and list items)
    max_scalar_chars: int  # characters in one value
    max_number_digits: int  # digits in one number, so int() and float() never refuse


@dataclass
class _Open:
    """A mapping or list whose end event has not come yet."""

    anchor: str | None
    start_total: int  # entries counted before this one began
    height: int = 1  # levels below and including this one, aliases expanded


@dataclass
class _Anchored:
    size: int  # entries the node expands to
    height: int


def load_with_lines(text: str, bounds: YamlBounds) -> Any:
    check_events(text, bounds)
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _convert(loader, node)
    finally:
        loader.dispose()


def check_events(text: str, bounds: YamlBounds) -> None:
    """Refuse a file past `bounds`, in one linear pass over its events.

    The expanded size of every anchored node is remembered when the node ends, so an alias costs
    its node's full size without being walked; the running total is checked at every event, so a
    bomb is refused as soon as it passes the bound, never built.
    """
    loader = yaml.SafeLoader(text)
    try:
        stack: list[_Open] = []
        anchors: dict[str, _Anchored] = {}
        total = 0
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1 if event.start_mark is not None else 0
            if isinstance(event, yaml.DocumentStartEvent):
                anchors = {}  # anchors are per document
                continue
            if isinstance(event, yaml.AliasEvent):
                if any(frame.anchor == event.anchor for frame in stack):
                    raise YamlRefused(
                        line,
                        f"the alias *{event.anchor} is inside the entry it points to "
                        "(a recursive alias)",
                    )
                target = anchors.get(event.anchor)
                if target is None:
                    continue  # an undefined alias: the composer names it below
                size, height = target.size, target.height
            elif isinstance(event, yaml.ScalarEvent):
                _check_scalar(loader, event, line, bounds)
                size, height = 1, 1
            elif isinstance(event, yaml.CollectionStartEvent):
                stack.append(_Open(event.anchor, total))
                total += 1
                if total > bounds.max_nodes:
                    raise _too_many(line, bounds)
                if len(stack) > bounds.max_depth:
                    raise _too_deep(line, bounds)
                continue
            elif isinstance(event, yaml.CollectionEndEvent):
                frame = stack.pop()
                if frame.anchor is not None:
                    anchors[frame.anchor] = _Anchored(total - frame.start_total, frame.height)
                _child_done(stack, frame.height)
                continue
            else:
                continue  # stream and document boundaries
            total += size
            if total > bounds.max_nodes:
                raise _too_many(line, bounds)
            if len(stack) + height > bounds.max_depth:
                raise _too_deep(line, bounds)
            if isinstance(event, yaml.ScalarEvent) and event.anchor is not None:
                anchors[event.anchor] = _Anchored(1, 1)
            _child_done(stack, height)
    finally:
        loader.dispose()


def _child_done(stack: list[_Open], height: int) -> None:
    if stack:
        stack[-1].height = max(stack[-1].height, height + 1)


def _too_many(line: int, bounds: YamlBounds) -> YamlRefused:
    return YamlRefused(
        line,
        f"the file is too big: with its aliases (*name) expanded it has more than "
        f"{bounds.max_nodes:,} entries",
    )


def _too_deep(line: int, bounds: YamlBounds) -> YamlRefused:
    return YamlRefused(
        line, f"this is nested deeper than {bounds.max_depth} levels (aliases counted)"
    )


def _check_scalar(
    loader: yaml.SafeLoader, event: yaml.ScalarEvent, line: int, bounds: YamlBounds
) -> None:
    value = event.value
    if len(value) > bounds.max_scalar_chars:
        raise YamlRefused(
            line, f"a value of {len(value):,} characters; at most {bounds.max_scalar_chars:,}"
        )
    tag = event.tag
    if tag is None or tag == "!":
        tag = loader.resolve(yaml.ScalarNode, value, event.implicit)
    if tag in (_INT_TAG, _FLOAT_TAG):
        digits = len(re.findall(r"[0-9a-fA-F]", value))
        if digits > bounds.max_number_digits:
            raise YamlRefused(
                line,
                f"a number of {digits:,} digits; numbers have at most "
                f"{bounds.max_number_digits} digits",
            )


def _convert(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        out = LineDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = _convert(loader, key_node)
            if isinstance(key, (dict, list)):
                raise YamlRefused(key_node.start_mark.line + 1, "a key must be a plain value")
            out[key] = _convert(loader, value_node)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        items = LineList(_convert(loader, n) for n in node.value)
        items.line = node.start_mark.line + 1
        items.item_lines = [n.start_mark.line + 1 for n in node.value]
        return items
    try:
        value = loader.construct_object(node, deep=True)
    except (ValueError, TypeError, OverflowError) as e:
        # A value the resolver took for a date or a number but that isn't one (2024-13-45):
        # PyYAML's constructors raise the conversion's own error, not a YAMLError.
        raise YamlRefused(
            node.start_mark.line + 1, f"{node.value[:40]!r} can't be read as a value: {e}"
        ) from None
    return value


def line_of(container: Any, key: Any = None, default: int = 0) -> int:
    if isinstance(container, LineDict):
        if key is not None and key in container.key_lines:
            return container.key_lines[key]
        return container.line
    if isinstance(container, LineList):
        if isinstance(key, int) and 0 <= key < len(container.item_lines):
            return container.item_lines[key]
        return container.line
    return default
