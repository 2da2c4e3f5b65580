"""The project's low-level row helpers: whole model rows read, updated and inserted by hand-written SQL.

Used only where docs/performance.md#hand-written-statements measured the ORM's query building
as the larger cost: the move's lock, read and write, the token read, the game view and events reads, the
round end's seats, the ledger's posting. Each call site cites its row of that table.

What stays Django's: rows become instances through `Model.from_db` (so `__init__`, its signals and a
model's own `from_db` run as for a queryset), values come back through the fields' converters and go out
through `get_db_prep_save` / `pre_save` (`auto_now` included), so a row is what a queryset reads and what
`save()` writes (tests/tournaments/live/storage/test_rows.py). Model save signals do not fire: the models written here
have no receivers.
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from database import json as db_json

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]


def _db() -> BaseDatabaseWrapper:
    # The connection itself rather than the `connection` proxy, whose every attribute goes through a
    # context-local lookup: the per-value loops below used it a few hundred times per move
    # (docs/performance.md#hand-written-statements: sql-text).
    return connections[DEFAULT_DB_ALIAS]


def statement_cursor() -> Any:
    """The cursor for hand-written statements: Django's own (errors translated, queries logged)."""
    # docs/performance.md, "Django's public API on the move path, measured" (2026-12-02): with this cursor
    # the move path held 0.79x its floor; the ORM in these statements' place 0.25-0.35x.
    return _db().cursor()


# ------------------------------------------------------------------------------------------------ SQL text

# SQL text that depends only on the models and the database vendor, built once per process: quoting every
# column name again on each move was a visible share of the move's Python time
# (docs/performance.md#hand-written-statements: sql-text, 160 → 43 µs for the move's writes).
_TEXT: dict[tuple[Any, ...], Any] = {}


def table(model: type[models.Model]) -> str:
    """The model's table, quoted."""
    db = _db()
    key = ("table", db.vendor, model)
    text = _TEXT.get(key)
    if text is None:
        text = _TEXT[key] = db.ops.quote_name(model._meta.db_table)
    return str(text)


def columns(model: type[models.Model], alias: str) -> str:
    """The select list of every concrete field of `model`, in `from_row`'s order."""
    db = _db()
    key = ("columns", db.vendor, model, alias)
    text = _TEXT.get(key)
    if text is None:
        quote = db.ops.quote_name
        text = _TEXT[key] = ", ".join(
            f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields
        )
    return str(text)


def placeholders(count: int) -> str:
    """`%s, %s, ...`: the parameters of an IN list."""
    return ", ".join(["%s"] * count)


def column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field.column


def username_column() -> str:
    """The user model's username column, quoted."""
    user_model = get_user_model()
    return str(_db().ops.quote_name(column(user_model, user_model.USERNAME_FIELD)))


def width(model: type[models.Model]) -> int:
    """How many columns `columns(model, ...)` selects."""
    return len(model._meta.concrete_fields)


# ------------------------------------------------------------------------------------------------ reading


def _field_converters(field: models.Field[Any, Any]) -> list[Converter]:
    db = _db()
    # Field.get_db_converters is public Django API that django-stubs does not declare.
    converters = list(field.get_db_converters(db))  # type: ignore[attr-defined]
    if isinstance(field, models.JSONField) and field.decoder is None:
        # JSONField.from_db_value with orjson (database/json.py): the game state is read on every move
        # (docs/performance.md#hand-written-statements: orjson).
        converters = [db_json.from_db_value if conv == field.from_db_value else conv for conv in converters]
    return converters


def _converters(model: type[models.Model]) -> list[list[Converter]]:
    db = _db()
    return [
        [*db.ops.get_db_converters(field.get_col(model._meta.db_table)), *_field_converters(field)]
        for field in model._meta.concrete_fields
    ]


# A JSON array built by the statement (`json_agg(...)::text`); NULL (no rows) is an empty list.
loads_text = db_json.loads_array


def convert(model: type[models.Model], name: str, value: Any) -> Any:
    """A value of field `name` as read from the database, as the model holds it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    db = _db()
    for conv in _field_converters(field):
        value = conv(value, None, db)
    return value


# (vendor, model) -> each column's converters, and the attribute names in `columns`' order.
_READERS: dict[tuple[str, type[models.Model]], tuple[list[list[Converter]], tuple[str, ...]]] = {}


def from_row(model: type[M], values: Sequence[Any]) -> M | None:
    """An instance from the values of `columns(model, ...)`, built by `Model.from_db` as a queryset builds
    it (None when the row is all NULL: an outer join that found nothing)."""
    if values[0] is None:
        return None
    db = _db()
    key = (db.vendor, model)
    reader = _READERS.get(key)
    if reader is None:
        attnames = tuple(field.attname for field in model._meta.concrete_fields)
        reader = _READERS[key] = (_converters(model), attnames)
    converters, attnames = reader
    converted = []
    for value, convs in zip(values, converters, strict=True):
        for conv in convs:
            value = conv(value, None, db)
        converted.append(value)
    # Public API rather than the constructor bypassed by hand, which saved 26 µs per move, under 1% of its
    # server CPU (docs/performance.md, "The database backend, measured").
    return model.from_db(db.alias, attnames, converted)


def fetch(sql: str, params: Sequence[Any], *, prepared: bool = False) -> list[tuple[Any, ...]]:
    """Every row of one SELECT (`prepared`: see `run`)."""
    with statement_cursor() as cursor:
        run(cursor, sql, list(params), prepared=prepared)
        return list(cursor.fetchall())


# ------------------------------------------------------------------------------------------------ prepared

# PostgreSQL plans a statement sent as text at every run; for the move's statements the planning cost the
# server more CPU than running them (docs/performance.md#hand-written-statements: prepared). A statement run
# with `prepared` is prepared once per connection (SQL `PREPARE`, in the same round trip as its first
# `EXECUTE`) and then run by name with its values bound on the client as before (Django's own cursor: errors
# translated, queries logged). Off with `RAMINO_DATABASE_PREPARED_STATEMENTS` (a transaction-pooling pooler
# hands a session's prepared statements to other clients' transactions: docs/operations.md).
MAX_PREPARED_PER_CONNECTION = 64
# The database connection (the driver's, which lives as long as its session) -> {statement text: name}.
_PREPARED: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
_NAMES = itertools.count(1)
_PLACEHOLDER = re.compile(r"%s")
_NUMBERED: dict[str, tuple[str, int]] = {}


def _numbered(sql: str) -> tuple[str, int]:
    """`sql` with its `%s` placeholders numbered (`$1`, `$2`, ...) as PREPARE takes them, and their count
    (`%%`, a literal percent sign, stays as it is: the text is formatted with the values as before)."""
    found = _NUMBERED.get(sql)
    if found is None:
        counter = itertools.count(1)
        text = "%%".join(
            _PLACEHOLDER.sub(lambda _match: f"${next(counter)}", part) for part in sql.split("%%")
        )
        found = _NUMBERED[sql] = (text, next(counter) - 1)
    return found


def run(cursor: Any, sql: str, params: list[Any], *, prepared: bool = False) -> None:
    """`cursor.execute(sql, params)`; with `prepared`, on PostgreSQL, through a statement prepared once
    per connection (at most `MAX_PREPARED_PER_CONNECTION` of them; beyond, as text)."""
    db = _db()
    if not prepared or db.vendor != "postgresql" or not settings.RAMINO_DATABASE_PREPARED_STATEMENTS:
        cursor.execute(sql, params)
        return
    known = _PREPARED.get(db.connection)
    if known is None:
        known = _PREPARED[db.connection] = {}
    values = f"({placeholders(len(params))})" if params else ""
    name = known.get(sql)
    if name is not None:
        cursor.execute(f"EXECUTE {name}{values}", params)
        return
    text, count = _numbered(sql)
    if count != len(params) or len(known) >= MAX_PREPARED_PER_CONNECTION:
        cursor.execute(sql, params)
        return
    # A name never used before on any connection: if this round trip fails after the PREPARE took effect
    # (prepared statements outlive a rolled-back transaction), the next attempt prepares under a new name.
    name = f"ramino_rows_{next(_NAMES)}"
    cursor.execute(f"PREPARE {name} AS {text}; EXECUTE {name}{values}", params)
    cursor.nextset()  # the EXECUTE's result
    known[sql] = name


# ------------------------------------------------------------------------------------------------ writing


def update_sql(obj: models.Model, field_names: Iterable[str]) -> tuple[str, list[Any]]:
    """`obj.save(update_fields=field_names)` as one UPDATE by primary key (`auto_now` fields included)."""
    db = _db()
    names = frozenset(field_names)
    key = ("update", db.vendor, type(obj), names)
    cached = _TEXT.get(key)
    if cached is None:
        meta = obj._meta
        quote = db.ops.quote_name
        fields = [f for f in meta.concrete_fields if f.name in names or getattr(f, "auto_now", False)]
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        sql = f"UPDATE {table(type(obj))} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
        cached = _TEXT[key] = (sql, fields)
    sql, fields = cached
    params = [field.get_db_prep_save(field.pre_save(obj, False), db) for field in fields]
    params.append(obj.pk)
    return sql, params


def update(obj: models.Model, field_names: Iterable[str]) -> None:
    """`obj.save(update_fields=field_names)` as one UPDATE."""
    execute([update_sql(obj, field_names)])


def _insert_value(field: models.Field[Any, Any], obj: models.Model, db: BaseDatabaseWrapper) -> Any:
    # An `auto_now_add` value set by the caller is kept (an event's time is in the answer before it is
    # written); otherwise the field fills itself in as save() would.
    if getattr(field, "auto_now_add", False) and getattr(obj, field.attname) is not None:
        value = getattr(obj, field.attname)
    else:
        value = field.pre_save(obj, True)
    return field.get_db_prep_save(value, db)


def insert_sql(objs: Sequence[models.Model]) -> tuple[str, list[Any]]:
    """One INSERT of `objs` (instances of one model, primary keys from the database)."""
    db = _db()
    key = ("insert", db.vendor, type(objs[0]), len(objs))
    cached = _TEXT.get(key)
    if cached is None:
        quote = db.ops.quote_name
        fields = [field for field in objs[0]._meta.concrete_fields if not field.primary_key]
        row = f"({placeholders(len(fields))})"
        sql = (
            f"INSERT INTO {table(type(objs[0]))} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES {', '.join([row] * len(objs))}"
        )
        cached = _TEXT[key] = (sql, fields)
    sql, fields = cached
    return sql, [_insert_value(field, obj, db) for obj in objs for field in fields]


def mark_saved(obj: models.Model, pk: Any) -> None:
    """What `save()` leaves on an instance it inserted: its primary key, and its state as read from the
    database."""
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = _db().alias


def execute(statements: Sequence[tuple[str, Sequence[Any]]], *, prepared: bool = False) -> None:
    """Run INSERT/UPDATE statements in order; on PostgreSQL as one statement (data-modifying CTEs, each run
    exactly once), saving the round trips (docs/performance.md#hand-written-statements: move-write).
    Rows inserted here get no primary key on their instances. `prepared`: see `run`."""
    if not statements:
        return
    db = _db()
    with statement_cursor() as cursor:
        if db.vendor == "postgresql" and len(statements) > 1:
            heads = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(statements[:-1]))
            params = [param for _, stmt_params in statements for param in stmt_params]
            run(cursor, f"WITH {heads} {statements[-1][0]}", params, prepared=prepared)
        else:
            for sql, stmt_params in statements:
                run(cursor, sql, list(stmt_params), prepared=prepared)
