"""game/runtime/templating.py: the board's Jinja2 environment looks up `x.name` exactly as Jinja2
does (an attribute first, then the key), only faster on plain dicts."""

from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace

import jinja2
import pytest

from game.runtime.templating import BoardEnvironment

DATA = {
    "plain": {"name": "Gloomstalker", "items": "a key named like a method", "n": 0},
    "ordered": OrderedDict(name="a dict subclass"),
    "obj": SimpleNamespace(name="an object"),
}
TEMPLATES = [
    "{{ plain.name }}",
    "{{ plain.n }}",
    "{{ plain['items'] }}",
    "{{ plain.items() | list | length }}",  # dict's method, not the key
    "{{ plain.get('name') }}",
    "{{ ordered.name }}",
    "{{ obj.name }}",
    "{{ plain.missing is defined }}",
]


@pytest.mark.parametrize("source", TEMPLATES)
def test_lookups_give_what_jinja2_gives(source):
    ours = BoardEnvironment(undefined=jinja2.StrictUndefined, autoescape=True)
    theirs = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=True)
    assert ours.from_string(source).render(DATA) == theirs.from_string(source).render(DATA)


def test_a_missing_key_is_still_an_error():
    ours = BoardEnvironment(undefined=jinja2.StrictUndefined)
    with pytest.raises(jinja2.UndefinedError, match="no attribute 'missing'"):
        ours.from_string("{{ plain.missing }}").render(DATA)
