"""Querysets compiled once (per thread and database) and run again with a new parameter.

Django compiles a queryset to SQL every time it runs it, and for the few queries that run for
every answer and every render that compilation cost more than the query itself: the board's
read of a game with its seats, players and connections took 0.7 ms of CPU, of which 0.5 ms was
compiling and 0.04 ms the database (docs/performance.md, change 17). A `PreparedQuery` builds
its queryset once with a placeholder value, keeps the compiled SQL, and each call executes it
with the value in the placeholder's place, turning the rows into model instances as the
queryset itself would (the same converters, the same select_related objects, the same
annotations). `tests/web/test_prepared.py` compares it with the plain queryset.

This reaches past Django's public API into its compiler (`klass_info`, `select`,
`RelatedPopulator`), which Django does not promise to keep: the pin in requirements.txt and
the test above are what keeps it honest across an upgrade.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

# A value no real primary key takes, so that it is found in the compiled parameters exactly once.
PLACEHOLDER = -7_193_482_651


class _Compiled:
    """One compilation of a PreparedQuery on one connection."""

    def __init__(self, queryset: QuerySet) -> None:
        compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        where = [i for i, p in enumerate(self.params) if p == PLACEHOLDER]
        if len(where) != 1:
            raise ValueError(f"the placeholder appears {len(where)} times in {self.sql!r}")
        self.at = where[0]
        self.compiler = compiler
        self.connection = compiler.connection
        self.select_for_update = (
            queryset.query.select_for_update and self.connection.features.has_select_for_update
        )
        klass_info = compiler.klass_info
        select = compiler.select
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.model: type[Model] = klass_info["model"]
        fetch_mode = queryset._fetch_mode
        if fetch_mode.track_peers:
            raise ValueError("a prepared query keeps no peers: use the default fetch mode")
        self.fetch_mode = fetch_mode
        self.related = get_related_populators(klass_info, select, queryset.db, fetch_mode)
        self.annotations = dict(compiler.annotation_col_map or {})

    def run(self, value: Any) -> list[Model]:
        params = list(self.params)
        params[self.at] = value
        if self.select_for_update and self.connection.get_autocommit():
            # As the queryset would refuse it: a row lock outside a transaction is a mistake.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        out = []
        db = self.connection.alias
        for row in self.compiler.results_iter([rows]):
            obj = self.model.from_db(
                db, self.init_list, row[self.start : self.end], fetch_mode=self.fetch_mode
            )
            for populator in self.related:
                populator.populate(row, obj)
            for name, column in self.annotations.items():
                setattr(obj, name, row[column])
            out.append(obj)
        return out


class PreparedQuery:
    """`build(value)` returns the queryset for a value (a primary key); `query(value)` returns
    what `list(build(value))` would, without compiling it again."""

    def __init__(self, build: Callable[[Any], QuerySet]) -> None:
        self.build = build
        self.local = threading.local()  # Django's connections are per thread, so is this

    def __call__(self, value: Any) -> list[Model]:
        alias = self.local.__dict__.get("alias")
        found = self.local.__dict__.get("compiled")
        if found is None or found.connection is not connections[alias]:
            queryset = self.build(PLACEHOLDER)
            found = self.local.compiled = _Compiled(queryset)
            self.local.alias = queryset.db
        return found.run(value)
