"""Hand-written SQL for the move's hot path: whole model rows read, updated and inserted without the ORM's
query building.

Building, compiling and reading back an ORM query costs about 1 ms of CPU each, several times what the
statement costs PostgreSQL; a move runs a handful of them (docs/performance.md). These helpers keep the
models' own field conversions (`get_db_prep_save`, `from_db_value`, `auto_now`) so the rows are exactly
what `save()` and a queryset would write and read. No model signals fire: the tournaments models have
no receivers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import signals
from django.db.models.base import ModelState

from config.db import json as db_json

# The cursor for the statements built here (re-exported: play.py runs its own through it too).
from config.db import statement_cursor as statement_cursor

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]


# SQL text that depends only on the models and the database vendor, built once per process: quoting every
# column name again on each move was a visible share of the move's Python time (docs/performance.md).
_TEXT: dict[tuple[Any, ...], Any] = {}


def _db() -> BaseDatabaseWrapper:
    # The connection itself rather than the `connection` proxy, whose every attribute goes through a
    # context-local lookup: the per-value loops below used it a few hundred times per move.
    return connections[DEFAULT_DB_ALIAS]


def table(model: type[models.Model]) -> str:
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


def username_column() -> str:
    """The user model's username column, quoted."""
    user_model = get_user_model()
    return str(_db().ops.quote_name(column(user_model, user_model.USERNAME_FIELD)))


def width(model: type[models.Model]) -> int:
    return len(model._meta.concrete_fields)


def _converters(model: type[models.Model]) -> list[list[Converter]]:
    result = []
    for field in model._meta.concrete_fields:
        convs = list(connection.ops.get_db_converters(field.get_col(model._meta.db_table)))
        convs += _field_converters(field)
        result.append(convs)
    return result


def _field_converters(field: models.Field[Any, Any]) -> list[Converter]:
    # Field.get_db_converters is public Django API that django-stubs does not declare.
    converters = list(field.get_db_converters(connection))  # type: ignore[attr-defined]
    if isinstance(field, models.JSONField) and field.decoder is None:
        # JSONField.from_db_value with orjson (config/db/json.py): the game state is read on every move.
        converters = [_json_from_db if conv == field.from_db_value else conv for conv in converters]
    return converters


def loads_text(text: str | None) -> list[Any]:
    """A JSON array built by the statement (`json_agg(...)::text`); NULL (no rows) is an empty list."""
    return list(db_json.loads(text)) if text is not None else []


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    if value is None or not isinstance(value, str | bytes):
        return value
    try:
        return db_json.loads(value)
    except ValueError:  # as JSONField.from_db_value: text that is not JSON is returned as it is
        return value


def column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field.column


def convert(model: type[models.Model], name: str, value: Any) -> Any:
    """A value of field `name` as read from the database, as the model holds it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    for conv in _field_converters(field):
        value = conv(value, None, connection)
    return value


_CONVERTERS: dict[tuple[str, type[models.Model]], list[list[Converter]]] = {}


def from_row(model: type[M], values: Sequence[Any]) -> M | None:
    """An instance from the values of `columns(model, ...)` (None when the row is all NULL: an outer join
    that found nothing)."""
    if values[0] is None:
        return None
    db = _db()
    key = (db.vendor, model)
    converters = _CONVERTERS.get(key)
    if converters is None:
        converters = _CONVERTERS[key] = _converters(model)
    converted = []
    for value, convs in zip(values, converters, strict=True):
        for conv in convs:
            value = conv(value, None, db)
        converted.append(value)
    attnames = _PLAIN_INIT.get(model)
    if attnames is None:
        attnames = _PLAIN_INIT[model] = _plain_init_attnames(model)
    if not attnames:
        return model.from_db(db.alias, (), converted)
    # What Model.__init__ does with a full row of positional values when nothing listens to its signals,
    # minus the descriptors' bookkeeping for a changed value (nothing is cached on a new instance yet):
    # the constructor was the largest single cost of reading a move's rows.
    obj = model.__new__(model)
    state = obj._state = ModelState()
    state.adding = False
    state.db = db.alias
    obj.__dict__.update(zip(attnames, converted, strict=True))
    return obj


# Model -> the attribute names `from_row` sets directly, or () when Model.__init__ must run (a receiver of
# pre_init/post_init, or a model that overrides __init__ or from_db). Decided at a model's first row.
_PLAIN_INIT: dict[type[models.Model], tuple[str, ...]] = {}


def _plain_init_attnames(model: type[models.Model]) -> tuple[str, ...]:
    if (
        signals.pre_init.has_listeners(model)
        or signals.post_init.has_listeners(model)
        or model.__init__ is not models.Model.__init__
        or model.from_db.__func__ is not models.Model.from_db.__func__  # type: ignore[attr-defined]
    ):
        return ()
    return tuple(field.attname for field in model._meta.concrete_fields)


def fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with statement_cursor() as cursor:
        cursor.execute(sql, list(params))
        return list(cursor.fetchall())


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
    values = obj.__dict__  # a deferred field is not in it: that one goes through its field's conversion
    params = [
        values[field.attname]
        if _is_plain(field) and field.attname in values
        else field.get_db_prep_save(field.pre_save(obj, False), db)
        for field in fields
    ]
    params.append(obj.pk)
    return sql, params


# Field classes whose value goes to the database as the instance holds it (their pre_save and
# get_db_prep_save only read the attribute and re-check its type): for them the write helpers read the
# attribute directly, the per-value calls having been a few percent of a move's CPU.
_PLAIN_FIELD_CLASSES: tuple[type[models.Field[Any, Any]], ...] = (
    models.CharField,
    models.IntegerField,
    models.BigIntegerField,
    models.SmallIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
    models.BooleanField,
)
_PLAIN: dict[models.Field[Any, Any], bool] = {}


def _is_plain(field: models.Field[Any, Any]) -> bool:
    plain = _PLAIN.get(field)
    if plain is None:
        plain = _PLAIN[field] = (
            type(field) in _PLAIN_FIELD_CLASSES
            or (
                isinstance(field, models.ForeignKey)
                and type(field.target_field) in (*_PLAIN_FIELD_CLASSES, models.BigAutoField, models.AutoField)
            )
        ) and not field.primary_key
    return plain


def update(obj: models.Model, field_names: Iterable[str]) -> None:
    execute([update_sql(obj, field_names)])


def _insert_value(field: models.Field[Any, Any], obj: models.Model, db: BaseDatabaseWrapper) -> Any:
    if _is_plain(field) and field.attname in obj.__dict__:
        return obj.__dict__[field.attname]
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
        row = f"({', '.join(['%s'] * len(fields))})"
        sql = (
            f"INSERT INTO {table(type(objs[0]))} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES {', '.join([row] * len(objs))}"
        )
        cached = _TEXT[key] = (sql, fields)
    sql, fields = cached
    return sql, [_insert_value(field, obj, db) for obj in objs for field in fields]


def insert(obj: models.Model) -> None:
    """`obj.save(force_insert=True)` as one INSERT; sets the primary key."""
    sql, params = insert_sql([obj])
    quote = connection.ops.quote_name
    with statement_cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{sql} RETURNING {quote(obj._meta.pk.column)}", params)
            obj.pk = cursor.fetchone()[0]
        else:
            cursor.execute(sql, params)
            obj.pk = cursor.lastrowid
    obj._state.adding = False
    obj._state.db = connection.alias


def execute(statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Run INSERT/UPDATE statements in order; on PostgreSQL as one statement (data-modifying CTEs, each run
    exactly once), saving the round trips. Rows inserted here get no primary key on their instances."""
    if not statements:
        return
    with statement_cursor() as cursor:
        if connection.vendor == "postgresql" and len(statements) > 1:
            heads = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(statements[:-1]))
            params = [param for _, stmt_params in statements for param in stmt_params]
            cursor.execute(f"WITH {heads} {statements[-1][0]}", params)
        else:
            for sql, stmt_params in statements:
                cursor.execute(sql, list(stmt_params))
