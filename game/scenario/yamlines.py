"""YAML with line numbers: mappings and lists remember where each entry was written."""

from __future__ import annotations

from typing import Any

import yaml


class LineDict(dict):
    line: int = 0
    key_lines: dict[Any, int]


class LineList(list):
    line: int = 0
    item_lines: list[int]


def load_with_lines(text: str) -> Any:
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _convert(loader, node)
    finally:
        loader.dispose()


def _convert(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        out = LineDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = _convert(loader, key_node)
            if isinstance(key, (dict, list)):
                raise yaml.YAMLError(
                    f"line {key_node.start_mark.line + 1}: a key must be a plain value"
                )
            out[key] = _convert(loader, value_node)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        items = LineList(_convert(loader, n) for n in node.value)
        items.line = node.start_mark.line + 1
        items.item_lines = [n.start_mark.line + 1 for n in node.value]
        return items
    return loader.construct_object(node, deep=True)


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
