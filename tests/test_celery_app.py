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


def test_every_scheduled_job_names_a_registered_task() -> None:
    """CELERY_BEAT_SCHEDULE (config/settings/base.py) is the one list of periodic jobs; a job whose task no
    worker knows would be sent by beat and dropped by every worker."""
    from django.conf import settings

    app.loader.import_default_modules()
    declared = {name: entry["task"] for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
    assert app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE  # what beat reads
    assert set(declared.values()) == {
        "tournaments.sweep_clocks",
        "tournaments.run_tournament_schedule",
        "tournaments.forget_idempotency_keys",
        "tournaments.forget_presence",
        "tournaments.close_idle_tables",
        "accounts.purge_expired_tokens",
        "tournaments.purge_guests",
        "ledger.run_reconciliation",
        "integrity.run_checks",
        "ratings.update",
        "notifications.tournament_reminders",
        "responsible.sweep",
        "responsible.enforce_breaks",
    }
    unregistered = {name: task for name, task in declared.items() if task not in app.tasks}
    assert unregistered == {}


# The jobs the data migrations (accounts 0003, ledger 0003, tournaments 0002, 0009 and 0015) made.
MIGRATED_JOBS = {
    "tournaments: re-arm lost clocks",
    "tournaments: open registrations and start scheduled tournaments",
    "tournaments: forget old idempotency keys",
    "accounts: purge expired tokens",
    "ledger: nightly reconciliation",
}


@pytest.mark.django_db
def test_beat_start_after_migrate_keeps_each_job_once_as_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    """The data migrations made these rows under the declared names; beat's start-up sync (the
    DatabaseScheduler's setup_schedule) updates them in place: no second row for a job, the declared task and
    schedule, and a job paused in the admin stays paused."""
    from datetime import timedelta

    from celery.schedules import crontab
    from django.conf import settings
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    declared = settings.CELERY_BEAT_SCHEDULE
    migrated = {row.name: row.pk for row in PeriodicTask.objects.filter(name__in=declared)}
    # a fresh `migrate` already has the jobs its data migrations made, under the same names; a job declared
    # since (no migration) is made by the first sync
    assert set(migrated) == MIGRATED_JOBS and set(declared) >= MIGRATED_JOBS
    PeriodicTask.objects.filter(name="accounts: purge expired tokens").update(enabled=False)
    nightly = PeriodicTask.objects.get(name="ledger: nightly reconciliation").crontab_id
    # Beat's own connection hygiene would close the test's connection: inside the test's transaction autocommit
    # is off, which close_old_connections takes for a connection left broken.
    monkeypatch.setattr("django_celery_beat.schedulers.close_old_connections", lambda: None)

    DatabaseScheduler(app=app, lazy=True).setup_schedule()
    DatabaseScheduler(app=app, lazy=True).setup_schedule()  # a second start adds nothing either

    for name, entry in declared.items():
        rows = list(PeriodicTask.objects.filter(task=entry["task"]))
        assert len(rows) == 1, name
        if name in migrated:
            assert rows[0].pk == migrated[name], name
        row = rows[0]
        assert row.name == name and row.description == entry["description"]
        if isinstance(entry["schedule"], timedelta):
            assert row.interval is not None and row.crontab is None
            assert row.interval.schedule.run_every == entry["schedule"], name
        else:
            assert isinstance(entry["schedule"], crontab)
            assert row.crontab is not None and row.interval is None
            assert row.crontab.schedule == entry["schedule"], name
    # the migration's 03:30 UTC row, reused (not a copy in another time zone)
    assert PeriodicTask.objects.get(name="ledger: nightly reconciliation").crontab_id == nightly
    assert not PeriodicTask.objects.get(name="accounts: purge expired tokens").enabled
