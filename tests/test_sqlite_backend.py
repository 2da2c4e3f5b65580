"""The SQLite leg's flush (tests/sqlite/triggers.py): the append-only tables are emptied and keep their
triggers. Runs on an in-memory SQLite database of its own (Django's backend), beside the suite's PostgreSQL
one."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.utils import ConnectionHandler

from tests.sqlite import triggers

REFUSE_DELETE = (
    "CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} BEGIN SELECT RAISE(ABORT, 'append-only'); END"
)


@pytest.fixture
def sqlite_db(django_db_blocker: Any) -> Iterator[Any]:
    # a handler of its own: django.db.connections stays the suite's PostgreSQL
    handler = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
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


def test_the_flush_empties_append_only_tables_and_keeps_their_triggers(
    sqlite_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sqlite_db.cursor() as cursor:
        cursor.execute('CREATE TABLE "log" (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT)')
        cursor.execute('CREATE TABLE "plain" (id INTEGER PRIMARY KEY AUTOINCREMENT)')
        cursor.execute(REFUSE_DELETE.format(table="log"))
        cursor.execute("INSERT INTO \"log\" (body) VALUES ('a'), ('b')")
        cursor.execute('INSERT INTO "plain" DEFAULT VALUES')
    before = triggers.triggers_on(sqlite_db)
    assert [name for name, _ in before] == ["log_no_delete"]
    assert _refuses_delete(sqlite_db, "log")

    def flush(command: str, *, database: str, **options: Any) -> None:
        # Django's flush empties tables with DELETE on SQLite (call_command would look the alias up in
        # django.db.connections, the suite's PostgreSQL)
        assert (command, database) == ("flush", sqlite_db.alias)
        with sqlite_db.cursor() as cursor:
            cursor.execute('DELETE FROM "log"')
            cursor.execute('DELETE FROM "plain"')

    monkeypatch.setattr(triggers, "call_command", flush)
    triggers.flush_keeping_triggers(sqlite_db)

    with sqlite_db.cursor() as cursor:
        cursor.execute('SELECT (SELECT COUNT(*) FROM "log") + (SELECT COUNT(*) FROM "plain")')
        assert cursor.fetchone()[0] == 0
        cursor.execute("INSERT INTO \"log\" (body) VALUES ('c')")
    assert triggers.triggers_on(sqlite_db) == before
    assert _refuses_delete(sqlite_db, "log")
