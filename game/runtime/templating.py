"""The Jinja2 environment of the live board (`templates/jinja2/`, TEMPLATES["jinja2"]).

Guarantees. The board's fragments, rendered for every player after every answer, are Jinja2
templates (the rest of the site, pages, forms and the admin, stays on Django templates), with
Django's `linebreaksbr` (the same escaped HTML) and undefined names as errors, not blanks (a
template asking for a key the context lacks fails the tests instead of drawing nothing).
`option_form` draws an option's button and form with one escaping `Markup.format` instead of a
macro call. `p.name` on a plain dict gives what Jinja2 gives (an attribute of dict first, then
the key) without Jinja2's failed attribute lookup on every key read (`BoardEnvironment.getattr`).

Private APIs it relies on (tests/web/test_runtime_private_apis.py checks each one):
`jinja2.Environment.getattr(obj, attribute)` (overridden) and
`Environment.undefined(obj=, name=)`; Django's Jinja2 backend's `.env` attribute; the filter
`django.template.defaultfilters.linebreaksbr(value, autoescape=)`.

Re-measure: `bench/hotpath.py` (`render_ms`) against a copy without the `getattr` override.
docs/performance.md has the figures.
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


# The names getattr() finds on a plain dict (its methods): only these are attributes of one.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class BoardEnvironment(jinja2.Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        # Jinja2's own order, for a plain dict: a name that is not one of dict's attributes
        # can only be a key, so the key is tried straight away.
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


_OPTION_FORM = Markup(
    '<form class="option-form" method="post" action="{}" ws-send>{}'
    '<input type="hidden" name="action" value="answer">{}'
    '<input type="hidden" name="option" value="{}">'
    '<button type="submit" class="btn {}" data-option="{}"{}>{}</button></form>'
)
_TITLE = Markup(' title="{}"')


def option_form(o: dict[str, Any], f: Any, cls: str = "", text: str | None = None) -> Markup:
    """One option of the viewer's pending decision as a button, sent over the websocket
    (ws-send) or posted when JavaScript is off. `f` is the render's board.FormData. A function,
    not a macro: a priority prompt draws a dozen of these, and a Jinja2 macro call costs
    several times the string work (Markup.format escapes each value, as the template did)."""
    title = _TITLE.format(o["text"]) if o["text"] else ""
    return _OPTION_FORM.format(
        f.act_url, f.csrf, f.fields(), o["id"], cls, o["label"], title, text or o["label"]
    )


def environment(**options: Any) -> jinja2.Environment:
    """The factory TEMPLATES["jinja2"]["OPTIONS"]["environment"] names."""
    options["undefined"] = jinja2.StrictUndefined
    env = BoardEnvironment(**options)
    env.filters["linebreaksbr"] = _linebreaksbr
    env.globals["option_form"] = option_form
    return env


def board_environment() -> jinja2.Environment:
    return engines["jinja2"].env
