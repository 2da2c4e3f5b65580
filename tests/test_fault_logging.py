"""Handled, retryable faults are logged at WARNING with their reason; real failures stay ERROR.

A database blip answers 503 `service.unavailable` (api/exceptions.py), an unready service's probe 503
(operations/health.py), and a task's transient fault is retried (config.celery_app.RetryTransient): none of
them is an ERROR, so alerts counting errors count what needs a person."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from accounts.services import create_token
from ledger import selectors
from operations import health
from tests.clients import api_client
from tests.ledger.utils import make_user
from tournaments import tasks
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db


def _client() -> APIClient:
    _, token = create_token(user=make_user("blip"))
    return api_client(token=token)


def _at(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno == level]


def test_a_database_blip_is_a_warning_with_its_reason(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def blip(**kwargs: Any) -> int:
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(selectors, "wallet_balance", blip)
    client = _client()
    with caplog.at_level(logging.INFO):
        response = client.get("/api/v1/wallet/")
    assert response.status_code == 503 and response.json()["error"]["code"] == "service.unavailable"
    assert _at(caplog, logging.ERROR) == []
    (warning,) = [r for r in _at(caplog, logging.WARNING) if r.name == "django.request"]
    message = warning.getMessage()
    assert message.startswith("Service Unavailable: /api/v1/wallet/ (database unavailable: OperationalError")
    assert "terminating connection due to administrator command" in message
    assert warning.status_code == 503  # type: ignore[attr-defined]


@pytest.mark.off_contract  # a 500 is no documented answer: the bug is faked
def test_an_unhandled_exception_stays_an_error(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def bug(**kwargs: Any) -> int:
        raise RuntimeError("a real bug")

    monkeypatch.setattr(selectors, "wallet_balance", bug)
    client = _client()
    client.raise_request_exception = False
    with caplog.at_level(logging.INFO):
        response = client.get("/api/v1/wallet/")
    assert response.status_code == 500
    (error,) = _at(caplog, logging.ERROR)
    assert error.name == "django.request" and error.getMessage() == "Internal Server Error: /api/v1/wallet/"
    assert error.exc_info is not None and error.exc_info[0] is RuntimeError


def test_an_unready_probe_is_a_warning_with_its_reason(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "_database_ok", lambda: (False, "OperationalError"))
    with caplog.at_level(logging.INFO):
        response = APIClient().get("/ready/")
    assert response.status_code == 503
    assert _at(caplog, logging.ERROR) == []
    (warning,) = [r for r in _at(caplog, logging.WARNING) if r.name == "django.request"]
    assert warning.getMessage() == (
        "Service Unavailable: /ready/ (not ready: database OperationalError, broker ok)"
    )


def test_a_task_s_transient_fault_is_a_warning_and_a_retry(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def flaky(*, game_id: int) -> None:
        calls.append(game_id)
        if len(calls) == 1:
            raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(round_start, "start_round", flaky)
    with caplog.at_level(logging.INFO):
        result = tasks.start_round.apply(args=(41,))
    assert result.successful() and result.result is False
    assert calls == [41, 41]  # retried with the same arguments
    assert _at(caplog, logging.ERROR) == []
    (warning,) = _at(caplog, logging.WARNING)
    assert warning.name == "config.celery_app"
    message = warning.getMessage()
    assert message.startswith("task tournaments.start_round[")
    assert "transient fault (OperationalError: could not connect to server: Connection refused)" in message
    assert message.endswith("retry 1 of 5 in 1 s")


def test_a_fault_that_outlasts_the_retries_is_an_error(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def down(*, game_id: int) -> None:
        calls.append(game_id)
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(round_start, "start_round", down)
    with caplog.at_level(logging.INFO):
        result = tasks.start_round.apply(args=(42,))
    assert result.failed() and isinstance(result.result, OperationalError)
    retries = tasks.start_round.max_retries
    assert retries == 5
    assert len(calls) == 1 + retries
    assert len(_at(caplog, logging.WARNING)) == retries
    (error,) = _at(caplog, logging.ERROR)
    assert "the database system is shutting down" in error.getMessage()


def test_any_other_task_failure_is_an_error_at_once(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def bug(*, game_id: int) -> None:
        calls.append(game_id)
        raise RuntimeError("a real bug")

    monkeypatch.setattr(round_start, "start_round", bug)
    with caplog.at_level(logging.INFO):
        result = tasks.start_round.apply(args=(43,))
    assert result.failed() and calls == [43]
    assert _at(caplog, logging.WARNING) == []
    assert len(_at(caplog, logging.ERROR)) == 1
