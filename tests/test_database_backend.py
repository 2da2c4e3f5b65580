"""The database settings on PostgreSQL: Django's own backend; a connection that died idle replaced before use
(Django's health checks), one that dies in use answered with 503 and replaced."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import close_old_connections, connection, connections
from django.db.backends.postgresql import base as postgresql_base
from rest_framework.test import APIClient

from accounts.services import create_token
from tests.clients import api_client
from tests.ledger.utils import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_connection() -> Iterator[None]:
    connection.close()
    yield
    connection.close()


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


def test_the_engine_is_djangos_with_health_checks() -> None:
    settings_dict = connection.settings_dict
    # Django's own, under django-prometheus' wrapper (it counts and times each query; nothing else changes).
    assert settings_dict["ENGINE"] == "django_prometheus.db.backends.postgresql"
    assert isinstance(connections["default"], postgresql_base.DatabaseWrapper)
    assert settings_dict["CONN_HEALTH_CHECKS"] is True and settings_dict["CONN_MAX_AGE"] > 0


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
