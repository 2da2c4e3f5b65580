"""config.db.sqlite3 (the embedded default's backend): the append-only triggers survive Django's table
remakes and `flush`. Runs on an in-memory SQLite database of its own, beside the suite's PostgreSQL one."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management.color import no_style
from django.db.utils import ConnectionHandler

from config.db.sqlite3.base import triggers_on
from tournaments.live.models import MoveLog

REFUSE_DELETE = (
    "CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} BEGIN SELECT RAISE(ABORT, 'append-only'); END"
)


@pytest.fixture
def sqlite_db(django_db_blocker: Any) -> Iterator[Any]:
    # a handler of its own: django.db.connections stays the suite's PostgreSQL
    handler = ConnectionHandler({"default": {"ENGINE": "config.db.sqlite3", "NAME": ":memory:"}})
    with django_db_blocker.unblock():
        db = handler["default"]
        yield db
        db.close()


def _refuses_delete(db: Any, table: str) -> bool:
    with db.cursor() as cursor:
        try:
            cursor.execute(f'DELETE FROM "{table}"')
        except Exception as exc:  # Django wraps sqlite3's error in its own IntegrityError
            return isinstance(exc.__cause__, sqlite3.IntegrityError) and "append-only" in str(exc)
    return False


def test_altering_a_column_keeps_the_tables_triggers(sqlite_db: Any) -> None:
    table = MoveLog._meta.db_table
    with sqlite_db.schema_editor(atomic=False) as editor:
        editor.create_model(MoveLog)
        editor.execute(REFUSE_DELETE.format(table=table), params=None)
        new: Any = MoveLog._meta.get_field("game")
        old = new.clone()
        old.db_index = not new.db_index
        old.set_attributes_from_name("game")
        old.model = MoveLog
        old.remote_field.model = new.remote_field.model
        # what tournaments/0007 did: SQLite cannot drop an index of a column in place, so Django remakes it
        editor.alter_field(MoveLog, old, new, strict=True)
    assert [name for name, _ in triggers_on(sqlite_db, [table])] == [f"{table}_no_delete"]
    with sqlite_db.cursor() as cursor:
        # a row trigger needs a row; the game and round it names need not exist for this
        cursor.execute("PRAGMA foreign_keys = OFF")
        cursor.execute(
            f'INSERT INTO "{table}" (round_id, game_id, player, move, version, idempotency_key, '
            "request_hash, server_played, created_at) VALUES (1, 1, 'ann', '{}', 1, '', '', 1, '2026-01-01')"
        )
    assert _refuses_delete(sqlite_db, table)


def test_flush_empties_append_only_tables_and_keeps_their_triggers(sqlite_db: Any) -> None:
    with sqlite_db.cursor() as cursor:
        cursor.execute('CREATE TABLE "log" (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT)')
        cursor.execute('CREATE TABLE "plain" (id INTEGER PRIMARY KEY AUTOINCREMENT)')
        cursor.execute(REFUSE_DELETE.format(table="log"))
        cursor.execute("INSERT INTO \"log\" (body) VALUES ('a'), ('b')")
        cursor.execute('INSERT INTO "plain" DEFAULT VALUES')
    before = triggers_on(sqlite_db, ["log", "plain"])
    assert _refuses_delete(sqlite_db, "log")

    # as execute_sql_flush runs them (its atomic() would look the alias up in django.db.connections)
    with sqlite_db.cursor() as cursor:
        for statement in sqlite_db.ops.sql_flush(no_style(), ["log", "plain"], reset_sequences=True):
            cursor.execute(statement)

    with sqlite_db.cursor() as cursor:
        cursor.execute('SELECT (SELECT COUNT(*) FROM "log") + (SELECT COUNT(*) FROM "plain")')
        assert cursor.fetchone()[0] == 0
        cursor.execute("INSERT INTO \"log\" (body) VALUES ('c')")
    assert triggers_on(sqlite_db, ["log", "plain"]) == before
    assert _refuses_delete(sqlite_db, "log")
