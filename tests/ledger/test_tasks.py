from __future__ import annotations

import time

import pytest
from django.db import connection
from django_celery_beat.models import PeriodicTask

from ledger import tasks
from ledger.models import ReconciliationRun
from ledger.services import reconciliation
from tests.ledger.utils import funded_wallet, make_user


@pytest.mark.django_db
def test_the_nightly_reconciliation_is_scheduled_in_beat() -> None:
    task = PeriodicTask.objects.get(task="ledger.run_reconciliation")
    assert task.enabled
    assert task.crontab is not None
    assert (task.crontab.minute, task.crontab.hour) == ("30", "3")
    assert tasks.run_reconciliation.name == "ledger.run_reconciliation"


@pytest.mark.django_db
def test_the_task_body_records_a_run() -> None:
    funded_wallet(make_user(), 10)
    run_id = tasks.run_reconciliation()
    run = ReconciliationRun.objects.get(pk=run_id)
    assert run.ok
    assert run.problems == []
    assert run.totals == {"site": 0}
    assert run.accounts == 2
    assert run.transfers == 1
    assert run.started_at is not None and run.finished_at is not None
    assert run.started_at <= run.finished_at


@pytest.mark.django_db
def test_a_run_records_problems() -> None:
    wallet = funded_wallet(make_user(), 10)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_account SET balance = 3 WHERE id = %s", [wallet.pk])
    run = reconciliation.run_reconciliation(trigger="manual")
    assert not run.ok
    assert {p["code"] for p in run.problems} == {"account.balance_mismatch", "chips.not_conserved"}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_reconciliation_task(celery_worker_process: object) -> None:
    funded_wallet(make_user(), 10)
    tasks.run_reconciliation.delay(trigger="worker-test")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = ReconciliationRun.objects.filter(trigger="worker-test").first()
        if run is not None:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the worker did not record a reconciliation run within 60 s")
    assert run.ok
    assert run.accounts == 2
