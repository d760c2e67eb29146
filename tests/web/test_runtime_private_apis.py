"""The private APIs of Django, Channels, Jinja2 and psycopg that game/runtime/ relies on
are still there, with the signatures and the behaviour it uses.

After an upgrade a failure here names the runtime module and the library: read that module's
docstring (what it guarantees, how to re-measure what it buys) before adapting it, or remove the
piece if what it buys no longer pays for the adaptation (docs/performance.md).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest


def _require(module: str, library: str, owner: Any, name: str) -> Any:
    """`owner.name`, or a failure saying who needs it."""
    where = getattr(owner, "__qualname__", None) or getattr(owner, "__name__", repr(owner))
    if not hasattr(owner, name):
        pytest.fail(
            f"game/runtime/{module} relies on {library}'s private {where}.{name}, which is gone "
            f"in {library} {_version(library)}: adapt {module} or remove the piece"
        )
    return getattr(owner, name)


def _require_params(module: str, library: str, func: Any, *names: str) -> None:
    params = list(inspect.signature(func).parameters)
    missing = [n for n in names if n not in params]
    if missing:
        pytest.fail(
            f"game/runtime/{module} calls {library}'s {func.__qualname__} with {missing}, which "
            f"its signature {params} no longer takes ({library} {_version(library)})"
        )


def _require_source(module: str, library: str, func: Any, text: str, why: str) -> None:
    if text not in inspect.getsource(func):
        pytest.fail(
            f"game/runtime/{module} relies on {library}'s {func.__qualname__} {why}, which it no "
            f"longer seems to do ({library} {_version(library)}): adapt {module}"
        )


def _version(library: str) -> str:
    from importlib.metadata import version

    return version(library)


# prepared.py --------------------------------------------------------------------------------
@pytest.mark.django_db
def test_prepared_django_compiler() -> None:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models import Model, query
    from django.db.models.sql.compiler import SQLCompiler

    from game.models import Seat

    queryset = Seat.objects.select_related("game", "player").filter(game_id=1)
    _require("prepared.py", "django", queryset, "_iterable_class")
    fetch_mode = _require("prepared.py", "django", queryset, "_fetch_mode")
    _require("prepared.py", "django", fetch_mode, "track_peers")
    _require_params("prepared.py", "django", queryset.query.get_compiler, "using")
    compiler = queryset.query.get_compiler(using=queryset.db)
    compiler.as_sql()
    for attribute in ("select", "col_count", "klass_info", "annotation_col_map", "connection"):
        _require("prepared.py", "django", compiler, attribute)
    for method in ("get_converters", "apply_converters", "has_composite_fields"):
        _require("prepared.py", "django", SQLCompiler, method)
    if "select_fields" not in compiler.klass_info or "model" not in compiler.klass_info:
        pytest.fail(
            "game/runtime/prepared.py reads django's SQLCompiler.klass_info['select_fields'] and "
            f"['model']; it now holds {sorted(compiler.klass_info)}"
        )
    _require_params("prepared.py", "django", Model.from_db, "db", "field_names", "values")
    _require_params("prepared.py", "django", Model.from_db, "fetch_mode")
    populators = _require("prepared.py", "django", query, "get_related_populators")
    _require_params("prepared.py", "django", populators, "klass_info", "select", "db", "fetch_mode")
    related = _require("prepared.py", "django", query, "RelatedPopulator")
    _require_params("prepared.py", "django", related.populate, "row", "from_obj")
    _require("prepared.py", "django", query, "ModelIterable")
    _require("prepared.py", "django", query, "ValuesListIterable")
    _require("prepared.py", "django", BaseDatabaseWrapper, "wrap_database_errors")


def test_prepared_psycopg_pipeline() -> None:
    psycopg = pytest.importorskip("psycopg")
    _require("prepared.py", "psycopg", psycopg, "Pipeline")
    _require("prepared.py", "psycopg", psycopg.Pipeline, "is_supported")
    _require("prepared.py", "psycopg", psycopg.Connection, "pipeline")


# templating.py ------------------------------------------------------------------------------
@pytest.mark.django_db
def test_templating_jinja2_and_django() -> None:
    import jinja2
    from django.template import defaultfilters, engines
    from jinja2.compiler import CodeGenerator

    from game.runtime.templating import BoardEnvironment

    getattr_ = _require("templating.py", "jinja2", jinja2.Environment, "getattr")
    _require_params("templating.py", "jinja2", getattr_, "obj", "attribute")
    _require_source(
        "templating.py",
        "jinja2",
        CodeGenerator.visit_Getattr,
        "environment.getattr(",
        "compiling a dotted name to environment.getattr() (overridden by BoardEnvironment)",
    )
    _require_params("templating.py", "jinja2", jinja2.StrictUndefined.__init__, "obj", "name")
    env = _require("templating.py", "django", engines["jinja2"], "env")
    if not isinstance(env, BoardEnvironment):
        pytest.fail("game/runtime/templating.py: django's Jinja2 backend's .env is not ours")
    _require_params("templating.py", "django", defaultfilters.linebreaksbr, "value", "autoescape")


# dispatch.py --------------------------------------------------------------------------------
def test_dispatch_channels_handler_names_and_dispatch() -> None:
    from channels import consumer
    from channels.consumer import AsyncConsumer

    get_handler_name = _require("dispatch.py", "channels", consumer, "get_handler_name")
    _require_params("dispatch.py", "channels", get_handler_name, "message")
    if get_handler_name({"type": "game.changed"}) != "game_changed":
        pytest.fail(
            "game/runtime/dispatch.py relies on channels' get_handler_name reading a message's "
            f"type with '.' as '_'; it no longer does (channels {_version('channels')})"
        )
    _require_source(
        "dispatch.py",
        "channels",
        AsyncConsumer.__call__,
        "self.dispatch",
        "handing every message to self.dispatch (overridden by DirectDispatch)",
    )
    _require_source(
        "dispatch.py",
        "channels",
        AsyncConsumer.dispatch,
        "get_handler_name(message)",
        "finding a message's handler with get_handler_name (DirectDispatch does the same)",
    )
    _require_source(
        "dispatch.py",
        "channels",
        AsyncConsumer.dispatch,
        "close_old_connections()",
        "tidying connections before every message (what DirectDispatch skips; without it the "
        "mixin buys nothing and can go)",
    )


@pytest.mark.asyncio
async def test_direct_dispatch_reaches_channels_handler_without_tidying() -> None:
    from unittest import mock

    from channels import consumer
    from channels.consumer import AsyncConsumer

    from game.runtime.dispatch import DirectDispatch

    seen: list[dict[str, Any]] = []

    class Consumer(DirectDispatch, AsyncConsumer):
        async def game_changed(self, message: dict[str, Any]) -> None:
            seen.append(message)

    tidy = mock.AsyncMock()
    with mock.patch.object(consumer, "aclose_old_connections", tidy):
        await Consumer().dispatch({"type": "game.changed", "version": 3})
        with pytest.raises(ValueError):
            await Consumer().dispatch({"type": "no.such.handler"})
        with pytest.raises(ValueError):
            await Consumer().dispatch({"type": "_private"})
        assert seen == [{"type": "game.changed", "version": 3}]
        tidy.assert_not_called()
        # Channels' own dispatch, through the same patch, does tidy: what the mixin skips.
        await AsyncConsumer.dispatch(Consumer(), {"type": "game.changed", "version": 4})
    tidy.assert_awaited_once()
