"""The Jinja2 environment of the live board (`templates/jinja2/`, TEMPLATES["jinja2"]).

The board's fragments are rendered for every player after every answer, and with Django's
template language they were a third of a server's CPU (docs/performance.md, change 14); the
rest of the site (pages, forms, the admin) stays on Django templates. What the board templates
need beyond Jinja2's own: Django's `linebreaksbr`, and undefined names as errors, not blanks
(a template asking for a key the context lacks fails the tests instead of drawing nothing).
"""

from __future__ import annotations

from typing import Any

import jinja2
from django.template import engines
from django.template.defaultfilters import linebreaksbr
from markupsafe import Markup


def _linebreaksbr(value: Any) -> Markup:
    # Django's filter escapes (autoescape on) and marks the result safe: the same HTML here.
    return Markup(linebreaksbr(value, autoescape=True))


def environment(**options: Any) -> jinja2.Environment:
    """The factory TEMPLATES["jinja2"]["OPTIONS"]["environment"] names."""
    options["undefined"] = jinja2.StrictUndefined
    env = jinja2.Environment(**options)
    env.filters["linebreaksbr"] = _linebreaksbr
    return env


def board_environment() -> jinja2.Environment:
    return engines["jinja2"].env
