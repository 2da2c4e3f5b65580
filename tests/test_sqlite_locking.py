"""The embedded default's SQLite options (`SQLITE_OPTIONS`): the web process, the worker and beat write one file
at once. A transaction that reads and then writes while another process holds the write lock must wait for it,
never fail with "database is locked" (which SQLite answers a deferred transaction whatever the busy timeout, to
avoid a deadlock): `make smoke`'s multi-table tournament found a table's job failing so while moves were being
written. Two real connections on a file of their own, one per thread, beside the suite's PostgreSQL one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

HOLD_SECONDS = 1.0


def _connection(path: Path) -> Any:
    options = {**settings.SQLITE_OPTIONS, "timeout": 10}
    handler = ConnectionHandler(
        {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "OPTIONS": options}}
    )
    return handler["default"]


def _begin(db: Any) -> None:
    # what `transaction.atomic()` does on SQLite (which looks its alias up in django.db.connections)
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def _commit(db: Any) -> None:
    db.commit()
    db.set_autocommit(True)


@pytest.fixture(autouse=True)
def _unblocked(django_db_blocker: Any) -> Iterator[None]:
    # connections of their own: django.db.connections stays the suite's PostgreSQL
    with django_db_blocker.unblock():
        yield


def test_a_transaction_that_reads_then_writes_waits_for_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "ramino.sqlite3"
    setup = _connection(path)
    with setup.cursor() as cursor:
        cursor.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
        cursor.execute("INSERT INTO counter (id, n) VALUES (1, 0)")
    setup.close()

    holding = threading.Event()
    failures: list[BaseException] = []

    def writer() -> None:
        db = _connection(path)
        try:
            _begin(db)
            with db.cursor() as cursor:
                cursor.execute("UPDATE counter SET n = n + 1 WHERE id = 1")
            holding.set()
            threading.Event().wait(HOLD_SECONDS)  # a move's transaction, long on a loaded machine
            _commit(db)
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
            holding.set()
        finally:
            db.close()

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(10)
    db = _connection(path)
    try:
        # the table's job: read (the tournament, its table), then write
        _begin(db)
        with db.cursor() as cursor:
            cursor.execute("SELECT n FROM counter WHERE id = 1")
            seen = cursor.fetchone()[0]
            cursor.execute("UPDATE counter SET n = %s WHERE id = 1", [seen + 10])
        _commit(db)
    finally:
        db.close()
        thread.join()
    assert not failures
    check = _connection(path)
    with check.cursor() as cursor:
        cursor.execute("SELECT n FROM counter WHERE id = 1")
        # the reader began after the writer's commit: it read 1, not the 0 a lost update would have used
        assert cursor.fetchone()[0] == 11
    check.close()
