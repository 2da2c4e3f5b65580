"""The SQLite leg's flush with the append-only triggers in place.

The ledger's rows and the game logs refuse UPDATE and DELETE through triggers (ledger/migrations/0002,
tournaments/migrations/0003). A transactional test ends with Django's `flush`, which empties tables with DELETE
on SQLite (PostgreSQL's TRUNCATE fires no row triggers), so the triggers refuse it. `flush_keeping_triggers`
flushes with the triggers lifted and puts them back as SQLite stored them; the flush that follows (the test's
own) then finds the tables empty, and a row trigger fires for no row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.management import call_command


def triggers_on(db: Any, tables: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(name, CREATE TRIGGER statement) of every trigger (on `tables`), as SQLite stored them, by name."""
    with db.cursor() as cursor:
        cursor.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        found = cursor.fetchall()
    wanted = None if tables is None else set(tables)
    return [(str(name), str(sql)) for name, table, sql in found if wanted is None or table in wanted]


def flush_keeping_triggers(db: Any) -> None:
    """Django's `flush` of `db`, run with every trigger dropped and then created again as it was."""
    triggers = triggers_on(db)
    with db.cursor() as cursor:
        for name, _ in triggers:
            cursor.execute(f"DROP TRIGGER {db.ops.quote_name(name)}")
    try:
        call_command("flush", database=db.alias, interactive=False, verbosity=0)
    finally:
        with db.cursor() as cursor:
            for _, sql in triggers:
                cursor.execute(sql)
