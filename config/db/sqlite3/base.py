"""Django's SQLite backend, keeping the append-only triggers of the ledger and the game logs intact.

The ledger's rows and the game logs refuse UPDATE and DELETE through triggers (ledger/migrations/0002,
tournaments/migrations/0003). Two of Django's SQLite habits would lose or trip over them:

- Altering a column remakes the table (create a copy, copy the rows, drop the old, rename), and dropping
  the old table drops its triggers with it. The schema editor here creates them again on the new table.
- `manage.py flush` empties tables with DELETE, which the triggers refuse (PostgreSQL's TRUNCATE fires no
  row triggers). A flush here drops the triggers of the tables it empties, deletes, and creates them again,
  all in the one transaction Django runs a flush in.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import Any

from django.db.backends.sqlite3 import base, operations, schema


def triggers_on(connection: Any, tables: Iterable[str]) -> list[tuple[str, str]]:
    """(name, CREATE TRIGGER statement) of every trigger on `tables`, as SQLite stored them."""
    names = sorted(set(tables))
    if not names:
        return []
    placeholders = ", ".join(["%s"] * len(names))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ({placeholders}) "
            "ORDER BY name",
            names,
        )
        return [(str(name), str(sql)) for name, sql in cursor.fetchall()]


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self, style: Any, tables: Iterable[str], *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        flushed = set(tables)
        if flushed and allow_cascade:
            # Django's own widening (the tables that reference these), done here to know their triggers.
            # (a private helper of Django's SQLite operations that django-stubs does not declare)
            graph = self._references_graph  # type: ignore[attr-defined]
            flushed = set(chain.from_iterable(graph(table) for table in flushed))
        statements = super().sql_flush(style, sorted(flushed), reset_sequences=reset_sequences)
        triggers = triggers_on(self.connection, flushed)
        return [
            *(f"DROP TRIGGER {self.quote_name(name)};" for name, _ in triggers),
            *statements,
            *(f"{sql};" for _, sql in triggers),
        ]


class DatabaseSchemaEditor(schema.DatabaseSchemaEditor):
    def _remake_table(
        self, model: Any, create_field: Any = None, delete_field: Any = None, alter_fields: Any = None
    ) -> None:
        triggers = triggers_on(self.connection, [model._meta.db_table])
        super()._remake_table(  # type: ignore[misc]  # private in Django, undeclared in django-stubs
            model, create_field=create_field, delete_field=delete_field, alter_fields=alter_fields
        )
        for _, sql in triggers:
            self.execute(sql, params=None)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    SchemaEditorClass = DatabaseSchemaEditor
