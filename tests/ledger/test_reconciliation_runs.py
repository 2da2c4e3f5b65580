"""Reconciliation on demand: staff queue a full run (once at a time, rate-limited); a worker runs it once."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from ledger import tasks
from ledger.models import ReconciliationRun, ReconciliationStatus
from ledger.services import reconciliation
from ledger.throttling import ReconciliationRequestThrottle
from tests.ledger.test_concurrency import _run_threads
from tests.ledger.utils import funded_wallet, make_user


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()


@pytest.mark.django_db
def test_asking_again_while_a_run_waits_answers_that_run(
    staff_client: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as enqueued:
        first = staff_client.post("/api/v1/ledger/reconciliation/runs/")
        second = staff_client.post("/api/v1/ledger/reconciliation/runs/")
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] == second.json()["id"]
    assert len(enqueued) == 1 and ReconciliationRun.objects.count() == 1
    ReconciliationRun.objects.filter(pk=first.json()["id"]).update(status=ReconciliationStatus.RUNNING)
    assert staff_client.post("/api/v1/ledger/reconciliation/runs/").json()["id"] == first.json()["id"]


@pytest.mark.django_db
def test_a_run_lost_with_its_worker_is_failed_and_a_new_one_queued(staff: Any) -> None:
    lost, _ = reconciliation.request_reconciliation(requested_by=staff)
    ReconciliationRun.objects.filter(pk=lost.pk).update(queued_at=timezone.now() - timedelta(hours=2))
    run, queued = reconciliation.request_reconciliation(requested_by=staff)
    assert queued and run.pk != lost.pk
    lost.refresh_from_db()
    assert lost.status == ReconciliationStatus.FAILED
    assert lost.problems[0]["code"] == "reconciliation.abandoned"


@pytest.mark.django_db
def test_queueing_is_rate_limited(staff_client: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ReconciliationRequestThrottle.THROTTLE_RATES, "reconciliation", "2/hour")
    for _ in range(2):
        assert staff_client.post("/api/v1/ledger/reconciliation/runs/").status_code == 202
    response = staff_client.post("/api/v1/ledger/reconciliation/runs/")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert staff_client.get("/api/v1/ledger/reconciliation/runs/").status_code == 200  # reading is not


@pytest.mark.django_db
def test_players_may_not_queue_a_run(player_client: APIClient, anon_client: APIClient) -> None:
    assert player_client.post("/api/v1/ledger/reconciliation/runs/").status_code == 403
    assert anon_client.post("/api/v1/ledger/reconciliation/runs/").status_code == 401
    assert not ReconciliationRun.objects.exists()


@pytest.mark.django_db
def test_the_task_runs_a_queued_run_once(staff: Any) -> None:
    wallet = funded_wallet(make_user(), 10)
    run, _ = reconciliation.request_reconciliation(requested_by=staff)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_account SET balance = 3 WHERE id = %s", [wallet.pk])
    tasks.perform_reconciliation_run(run.pk)
    run.refresh_from_db()
    assert run.status == ReconciliationStatus.FINISHED and run.ok is False
    assert {p["code"] for p in run.problems} == {"account.balance_mismatch", "chips.not_conserved"}
    assert run.started_at is not None and run.finished_at is not None
    finished_at = run.finished_at
    assert reconciliation.perform_reconciliation_run(run_id=run.pk) is None  # a duplicate delivery
    run.refresh_from_db()
    assert run.finished_at == finished_at


@pytest.mark.django_db(transaction=True)
def test_racing_requests_queue_one_run(staff: Any) -> None:
    results = _run_threads(4, lambda index: reconciliation.request_reconciliation(requested_by=staff))
    assert len({run.pk for run, _ in results}) == 1
    assert sum(queued for _, queued in results) == 1
    assert ReconciliationRun.objects.count() == 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_queued_run(celery_worker_process: object, staff_client: APIClient) -> None:
    funded_wallet(make_user(), 10)
    response = staff_client.post("/api/v1/ledger/reconciliation/runs/")
    assert response.status_code == 202
    run_id = response.json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = ReconciliationRun.objects.get(pk=run_id)
        if run.status == ReconciliationStatus.FINISHED:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the worker did not finish the queued reconciliation within 60 s")
    assert run.ok and run.accounts == 2 and run.transfers == 1
    body = staff_client.get("/api/v1/ledger/reconciliation/").json()
    assert (body["run"], body["ok"], body["pending"]) == (run_id, True, None)
