"""config.db.postgresql: prepared statements for the hot path; a connection that died idle replaced before
use (Django's health checks), one that dies in use answered with 503 and replaced."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.db import DataError, close_old_connections, connection, connections
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import create_token
from config.db.postgresql import base as backend
from tests.clients import api_client
from tests.ledger.utils import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_connection() -> Iterator[None]:
    connection.close()
    yield
    connection.close()


def _db() -> backend.DatabaseWrapper:
    return cast(backend.DatabaseWrapper, connections["default"])


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _kill(pid: int) -> None:
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone()[0] is True
    finally:
        other.close()


def _client(username: str) -> APIClient:
    _, token = create_token(user=make_user(username))
    return api_client(token=token)


def test_the_engine_is_the_project_backend() -> None:
    assert connection.settings_dict["ENGINE"] == "config.db.postgresql"
    assert isinstance(connections["default"], backend.DatabaseWrapper)


def test_prepared_cursor_prepares_each_statement_once_per_connection(fresh_connection: None) -> None:
    sql = "SELECT %s::int + 1 AS prepared_probe"
    for value in range(3):
        with _db().prepared_cursor() as cursor:
            cursor.execute(sql, [value])
            assert cursor.fetchone()[0] == value + 1
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s AND NOT from_sql",
            ["%prepared_probe%"],
        )
        assert cursor.fetchone()[0] == 1
        # Django's own cursors still bind on the client: nothing of theirs is prepared.
        cursor.execute("SELECT 41 + 1 AS client_probe")
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%client_probe%'")
        assert cursor.fetchone()[0] == 0


def test_one_psycopg_cursor_serves_statement_after_statement_and_a_nested_one_is_new(
    fresh_connection: None,
) -> None:
    with _db().prepared_cursor() as first:
        first.execute("SELECT %s::int", [1])
        kept = first.cursor
        assert first.fetchone()[0] == 1
        with _db().prepared_cursor() as nested:  # asked for while the kept one is in use
            assert nested.cursor is not kept
            nested.execute("SELECT %s::int", [2])
            assert nested.fetchone()[0] == 2
        first.execute("SELECT %s::int", [3])  # the nested one's closing did not touch it
        assert first.fetchone()[0] == 3
    assert not kept.closed  # handed back, not closed
    with _db().prepared_cursor() as again:
        assert again.cursor is kept
        again.execute("SELECT %s::text", ["x"])
        assert again.fetchall() == [("x",)]
    with pytest.raises(DataError), _db().prepared_cursor() as failing:
        failing.execute("SELECT 1/0")
    with _db().prepared_cursor() as after_error:
        assert after_error.cursor is kept
        after_error.execute("SELECT %s::int", [4])
        assert after_error.fetchone()[0] == 4
    connection.close()
    with _db().prepared_cursor() as reconnected:  # a new connection, a new cursor
        assert reconnected.cursor is not kept
        reconnected.execute("SELECT %s::int", [5])
        assert reconnected.fetchone()[0] == 5


def test_prepared_cursor_queries_are_logged_and_errors_translated(fresh_connection: None) -> None:
    from django.db import ProgrammingError

    with CaptureQueriesContext(connection) as queries, _db().prepared_cursor() as cursor:
        cursor.execute("SELECT %s::int", [7])
    assert any("SELECT" in q["sql"] for q in queries.captured_queries)
    with pytest.raises(ProgrammingError), _db().prepared_cursor() as cursor:
        cursor.execute("SELECT no_such_column FROM ledger_account")


def _request(client: APIClient) -> Any:
    """One request with Django's connection handling around it, as a WSGI server runs it (the test
    client alone leaves `close_old_connections` out)."""
    close_old_connections()
    try:
        return client.get("/api/v1/wallet/")
    finally:
        close_old_connections()


def test_a_connection_that_died_idle_is_replaced_before_use(fresh_connection: None) -> None:
    client = _client("health-b")
    assert _request(client).status_code == 200
    old_pid = _backend_pid()
    _kill(old_pid)
    response = _request(client)
    assert response.status_code == 200, response.content
    assert _backend_pid() != old_pid


def test_a_connection_that_died_in_use_gives_503_then_recovers(
    fresh_connection: None, caplog: pytest.LogCaptureFixture
) -> None:
    client = _client("health-c")
    assert _request(client).status_code == 200
    old_pid = _backend_pid()
    statements = 0

    def die_after_the_first_statement(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        # After the request's health check and its first statement: the connection dies in use.
        nonlocal statements
        statements += 1
        if statements == 2:
            _kill(old_pid)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(die_after_the_first_statement), caplog.at_level(logging.INFO):
        response = _request(client)
    assert response.status_code == 503, response.content
    assert response.json()["error"]["code"] == "service.unavailable"
    assert response["Retry-After"] == "1"
    # A handled, retryable fault: one WARNING with the driver's reason, no ERROR (tests/test_fault_logging.py).
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    (warning,) = [r for r in caplog.records if r.name == "django.request"]
    assert warning.levelno == logging.WARNING
    assert "Service Unavailable" in warning.getMessage() and "database unavailable" in warning.getMessage()
    # The request's end closed the broken connection; the next request opens a new one.
    response = _request(client)
    assert response.status_code == 200, response.content
    assert _backend_pid() != old_pid


def test_prepared_statements_can_be_turned_off_for_poolers(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    import config.settings.base as base_settings

    monkeypatch.setenv("DATABASE_URL", "postgres://u@db:5432/x")
    monkeypatch.setenv("DATABASE_PREPARED_STATEMENTS", "false")
    try:
        settings_off = importlib.reload(base_settings)
        assert settings_off.DATABASES["default"]["ENGINE"] == "config.db.postgresql"
        assert settings_off.DATABASES["default"]["OPTIONS"]["prepare_threshold"] is None
        wrapper = backend.DatabaseWrapper(
            {**settings_off.DATABASES["default"], "NAME": "x", "TIME_ZONE": None}
        )
        assert wrapper.get_connection_params()["prepare_threshold"] is None
    finally:
        monkeypatch.undo()
        importlib.reload(base_settings)
