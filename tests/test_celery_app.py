"""config/celery_app.py: a web process prepares task publishing at start-up."""

from __future__ import annotations

import logging

import pytest
from celery import Celery

from config.celery_app import app, prepare_publishing


def test_prepare_publishing_leaves_a_connected_producer_in_the_pool() -> None:
    prepare_publishing()
    assert app.finalized  # type: ignore[attr-defined]
    with app.producer_pool.acquire(block=True, timeout=2) as producer:
        assert producer.connection is not None and producer.connection.connected


def test_prepare_publishing_with_the_broker_down_only_warns(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)  # Celery lets it override any app's broker
    down = Celery("down", broker="redis://127.0.0.1:1/0", set_as_current=False)
    down.conf.broker_connection_timeout = 1
    with caplog.at_level(logging.WARNING):
        prepare_publishing(down)
    assert any("broker not reachable" in record.getMessage() for record in caplog.records)


def test_the_wsgi_application_prepares_publishing() -> None:
    import config.wsgi

    assert config.wsgi.application is not None
    assert app.finalized  # type: ignore[attr-defined]
