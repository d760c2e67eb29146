"""Querysets compiled once (per thread and database) and run again with new parameters; writes
made from a model's fields; statements sent together in one round trip.

Guarantees. `PreparedQuery(build, count)` returns what `list(build(*values))` returns (model
instances with the same converters, select_related objects and annotations, or the tuples of a
`values_list()`), but compiles the queryset once per thread and connection, with placeholder
values, and runs the kept SQL with the values in their place. `PreparedInsert` and
`PreparedUpdate` write what `bulk_create()` and `save(update_fields=...)` write (each field's
`pre_save` and `get_db_prep_save`), without signals; an update that finds no row raises
DatabaseError. Statements sent inside `together()` reach PostgreSQL in one round trip
(psycopg's pipeline mode: the server runs them in order, the results come back at the end of
the block); elsewhere (SQLite) each runs when it is sent, with the same results.
`tests/web/test_prepared.py` compares each with the plain ORM.

Private APIs it relies on (tests/web/test_runtime_private_apis.py checks each one), all of
Django's SQL compiler, which Django does not promise to keep: `Query.get_compiler()`,
`SQLCompiler.as_sql/select/col_count/klass_info/annotation_col_map/get_converters/
apply_converters/has_composite_fields`, `QuerySet._iterable_class` and `QuerySet._fetch_mode`
(with `track_peers`), `Model.from_db(db, names, values, fetch_mode=)`,
`django.db.models.query.get_related_populators(klass_info, select, db, fetch_mode)`,
`BaseDatabaseWrapper.wrap_database_errors`; and psycopg 3's `Connection.pipeline()` and
`Pipeline.is_supported()`.

Re-measure: `bench/hotpath.py` (SQLite, and with DATABASE_URL on an empty PostgreSQL database)
and `bench/latency.py --games 50`, against a copy whose `PreparedQuery` runs
`list(build(*values))`, whose writes are `bulk_create()`/`save(update_fields=...)` and whose
`together()` never pipelines; the pipeline alone with `bench/latency.py --scale --games 200`
and `together(pipeline=False)`. docs/performance.md has the figures.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, router, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators
from django.db.transaction import TransactionManagementError

# Values no real id or index takes, so that each is found in the compiled parameters exactly
# once. Positive and below 2**31: Django turns a comparison with a value outside the column's
# range (a negative index, a 64-bit value on a 32-bit column) into "matches nothing/everything"
# at compile time, which would compile a different query.
PLACEHOLDER = 2_071_493_651


def placeholders(count: int) -> list[int]:
    return [PLACEHOLDER + i for i in range(count)]


class _Compiled:
    """One compilation of a PreparedQuery on one connection."""

    def __init__(self, queryset: QuerySet, count: int) -> None:
        compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.at = []
        for placeholder in placeholders(count):
            where = [i for i, p in enumerate(self.params) if p == placeholder]
            if len(where) != 1:
                raise ValueError(f"a placeholder appears {len(where)} times in {self.sql!r}")
            self.at.append(where[0])
        self.compiler = compiler
        self.connection = compiler.connection
        self.select_for_update = (
            queryset.query.select_for_update and self.connection.features.has_select_for_update
        )
        kind = queryset._iterable_class
        if kind not in (ModelIterable, ValuesListIterable):
            raise ValueError("a prepared query gives model instances or values_list() tuples")
        self.rows_only = kind is ValuesListIterable
        # The columns' converters (JSON, dates, booleans on SQLite...) once, not per run as
        # compiler.results_iter() finds them: a tenth of a render's queries' cost. A composite
        # key's columns would need results_iter's regrouping too: none of ours has one.
        columns = [s[0] for s in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("a prepared query reads no composite primary key")
        self.converters = compiler.get_converters(columns)
        if self.rows_only:
            return
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

    def params_for(self, values: tuple[Any, ...]) -> list[Any]:
        params = list(self.params)
        for at, value in zip(self.at, values, strict=True):
            params[at] = value
        if self.select_for_update and self.connection.get_autocommit():
            # As the queryset would refuse it: a row lock outside a transaction is a mistake.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        return params

    def run(self, values: tuple[Any, ...]) -> list[Any]:
        params = self.params_for(values)
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        return self.objects(rows)

    def objects(self, rows: list[Any]) -> list[Any]:
        """The rows as the queryset gives them: model instances or tuples."""
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        if self.rows_only:
            return [tuple(row) for row in rows]
        out = []
        db = self.connection.alias
        for row in rows:
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
    """`build(*values)` returns the queryset for some integer values (ids, indexes);
    `query(*values)` returns what `list(build(*values))` would, without compiling it again: model
    instances, or the tuples of a `values_list()`."""

    def __init__(self, build: Callable[..., QuerySet], count: int = 1) -> None:
        self.build = build
        self.count = count
        self.local = threading.local()  # Django's connections are per thread, so is this

    def __call__(self, *values: int) -> list[Any]:
        return self._compiled().run(values)

    def send(self, batch: Batch, *values: int) -> Sent:
        """Run in `batch`: the `Sent`'s `rows` (after the batch) are what a call gives."""
        compiled = self._compiled()
        if compiled.connection is not batch.connection:
            raise ValueError("a prepared query runs in a batch on its own database")
        return batch.execute(compiled.sql, compiled.params_for(values), compiled.objects)

    def _compiled(self) -> _Compiled:
        alias = self.local.__dict__.get("alias")
        found = self.local.__dict__.get("compiled")
        if found is None or found.connection is not connections[alias]:
            queryset = self.build(*placeholders(self.count))
            found = self.local.compiled = _Compiled(queryset, self.count)
            self.local.alias = queryset.db
        return found


class _Statement:
    """A write statement made from a model's fields with plain string work, not the ORM's
    compiler (an UPDATE's text is kept per database vendor; an INSERT's depends on its rows)."""

    def __init__(self, model: type[Model], names: list[str]) -> None:
        self.model = model
        self.fields = [model._meta.get_field(name) for name in names]

    def _connection(self, batch: Batch) -> Any:
        connection = connections[router.db_for_write(self.model)]
        if connection is not batch.connection:
            raise ValueError(f"{self.model.__name__} is written in a batch on its own database")
        return connection

    def _values(self, obj: Model, connection: Any, *, add: bool) -> list[Any]:
        # What save()/bulk_create() store for each field: pre_save (auto_now_add and the like),
        # then the database's form of the value (JSON, datetimes).
        return [f.get_db_prep_save(f.pre_save(obj, add), connection) for f in self.fields]

    def _table(self, connection: Any) -> tuple[str, list[str]]:
        quote = connection.ops.quote_name
        return quote(self.model._meta.db_table), [quote(f.column) for f in self.fields]


class PreparedInsert(_Statement):
    """`send(batch, objs)`: the rows of `objs` (new instances), as `bulk_create(objs)` would
    store them, in one INSERT of every column but the automatic primary key. Their primary keys are
    not read back and no signal is sent (as with bulk_create); use it where neither is wanted."""

    def __init__(self, model: type[Model]) -> None:
        fields = model._meta.concrete_fields
        super().__init__(model, [f.name for f in fields if not f.primary_key])

    def send(self, batch: Batch, objs: list[Model]) -> None:
        """The INSERT, run in `batch` (nothing when `objs` is empty)."""
        if not objs:
            return
        connection = self._connection(batch)
        table, columns = self._table(connection)
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES " + ", ".join([row] * len(objs))
        params = [v for obj in objs for v in self._values(obj, connection, add=True)]
        batch.execute(sql, params)


class PreparedUpdate(_Statement):
    """`send(batch, obj)`: the named fields of a saved instance written to its row, as
    `obj.save(update_fields=names)` would (no signals: this project has no receivers)."""

    def __init__(self, model: type[Model], names: list[str]) -> None:
        super().__init__(model, names)
        self.sql: dict[str, str] = {}

    def send(self, batch: Batch, obj: Model) -> None:
        """The UPDATE, run in `batch`; the batch raises DatabaseError unless it updated the row
        (as save() does when the row is gone)."""
        connection = self._connection(batch)
        sql = self.sql.get(connection.vendor)
        if sql is None:
            table, columns = self._table(connection)
            pk = connection.ops.quote_name(self.model._meta.pk.column)
            sets = ", ".join(f"{c} = %s" for c in columns)
            sql = self.sql[connection.vendor] = f"UPDATE {table} SET {sets} WHERE {pk} = %s"
        params = self._values(obj, connection, add=False) + [obj.pk]
        name, pk = self.model.__name__, obj.pk

        def one_row(count: int) -> None:
            if count != 1:
                raise DatabaseError(f"{name} {pk}: {count} rows updated")

        batch.execute(sql, params, check=one_row)


# Statements sent together -------------------------------------------------------------------


class Sent:
    """A statement of a batch. After the batch (not before, on any database: what works inside
    the block on SQLite would not on PostgreSQL): `rows`, what it read (made into objects when
    sent with a converter), and `rowcount`, the rows it inserted or updated."""

    def __init__(self, cursor: Any, convert: Callable[[list[Any]], list[Any]] | None) -> None:
        self.cursor = cursor
        self.convert = convert
        self.done = False
        self._rows: list[Any] = []
        self._rowcount = -1

    def read(self) -> None:
        """Take the results from the cursor, and close it."""
        cursor, self.cursor = self.cursor, None
        try:
            self._rowcount = cursor.rowcount
            rows = cursor.fetchall() if cursor.description is not None else []
            self._rows = self.convert(rows) if self.convert is not None else rows
        finally:
            cursor.close()

    @property
    def rows(self) -> list[Any]:
        self._check_done()
        return self._rows

    @property
    def rowcount(self) -> int:
        self._check_done()
        return self._rowcount

    def _check_done(self) -> None:
        if not self.done:
            raise RuntimeError("a statement's results are read after its batch's block")


class Batch:
    """The statements of one `together()` block, on one database connection."""

    def __init__(self, connection: Any, using: str) -> None:
        self.connection = connection
        self.using = using
        self.sent: list[Sent] = []
        self.checks: list[tuple[Sent, Callable[[int], None]]] = []
        self.pipelined = False
        self.sending = False

    def execute(
        self,
        sql: str,
        params: list[Any],
        convert: Callable[[list[Any]], list[Any]] | None = None,
        *,
        check: Callable[[int], None] | None = None,
    ) -> Sent:
        """Send a statement; its results are read at the end of the batch, where `check` is
        called with its row count (and may raise)."""
        # As the ORM's own writes: an error marks the enclosing atomic block for rollback, so
        # that catching it cannot commit half a batch.
        with transaction.mark_for_rollback_on_error(self.using):
            cursor = self.connection.cursor()
            self.sending = True
            try:
                cursor.execute(sql, params)
            except BaseException:
                cursor.close()
                raise
            finally:
                self.sending = False
            sent = Sent(cursor, convert)
            self.sent.append(sent)
            if check is not None:
                self.checks.append((sent, check))
            if not self.pipelined:
                sent.read()  # nothing to wait for: read it now, while the cursor is current
        return sent

    def finish(self) -> None:
        """Read every statement's results, then run the checks."""
        with transaction.mark_for_rollback_on_error(self.using):
            for sent in self.sent:
                if sent.cursor is not None:
                    sent.read()
                sent.done = True
            for sent, check in self.checks:
                check(sent.rowcount)

    def close(self) -> None:
        """Close the cursors whose results were not read (the batch failed)."""
        for sent in self.sent:
            if sent.cursor is not None:
                sent.cursor.close()
                sent.cursor = None

    def only_batch_statements(
        self, execute: Any, sql: str, params: Any, many: bool, ctx: Any
    ) -> Any:
        """An execute wrapper for the pipelined block: any other statement (the ORM's, another
        batch's) would get no results until the block ends, and a row count of -1."""
        if not self.sending:
            raise TransactionManagementError(
                "only the batch's own statements can run inside a together() block on "
                f"PostgreSQL; got {sql[:80]!r}"
            )
        return execute(sql, params, many, ctx)


def _can_pipeline(connection: Any) -> bool:
    if connection.vendor != "postgresql":
        return False
    import psycopg  # only where the database is PostgreSQL (psycopg 3: psycopg2 has no pipeline)

    return psycopg.Pipeline.is_supported()


@contextmanager
def together(using: str = DEFAULT_DB_ALIAS, *, pipeline: bool = True) -> Iterator[Batch]:
    """A batch of statements (`Batch.execute`, or the prepared statements' `send`) for the
    database `using`, inside `transaction.atomic()`. On PostgreSQL they are sent without
    waiting for each other and their results read at the end of the block: one round trip for
    all (psycopg's pipeline mode). A statement's error is raised at a later `send` or at the
    end of the block, and the statements after it are not run; only the batch's statements may
    run inside the block. Elsewhere, or with `pipeline=False`, each statement runs when it is
    sent (outside a transaction too).

    Read a statement's results (`Sent.rows`, `Sent.rowcount`) after the block. The first
    statement of a transaction still costs a round trip of its own (psycopg sends BEGIN and
    waits for it), which is also where a connection found gone raises (game/runtime/dbpool.py
    retries a call whose connection was gone at its first statement)."""
    connection = connections[using]
    batch = Batch(connection, using)
    if pipeline and connection.get_autocommit():
        # In autocommit a pipeline is one implicit transaction on PostgreSQL, statement by
        # statement on SQLite: the same code would commit different things.
        raise TransactionManagementError("together() sends its statements inside atomic()")
    try:
        if not (pipeline and _can_pipeline(connection)):
            yield batch
            batch.finish()
            return
        # Connect (and check the connection as for any statement) before entering the
        # pipeline on the connection this gives.
        connection.cursor().close()
        if getattr(connection, "venture_pipelined", False):
            raise TransactionManagementError("together() blocks do not nest on PostgreSQL")
        batch.pipelined = connection.venture_pipelined = True
        try:
            with (
                transaction.mark_for_rollback_on_error(using),
                connection.wrap_database_errors,
                connection.execute_wrapper(batch.only_batch_statements),
                connection.connection.pipeline(),
            ):
                yield batch
        finally:
            connection.venture_pipelined = False
        # Out of the pipeline: every result is in (an error was raised by its end, above).
        with connection.wrap_database_errors:
            batch.finish()
    finally:
        batch.close()
