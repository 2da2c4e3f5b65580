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


def test_a_web_process_has_every_task_registered_after_start_up() -> None:
    """`config.wsgi` imports the task modules at start-up, so no request's thread imports them lazily."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, config.wsgi; from config.celery_app import app;"
        "print('tournaments.start_round' in app.tasks, 'ledger.perform_reconciliation_run' in app.tasks)"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "True True"
