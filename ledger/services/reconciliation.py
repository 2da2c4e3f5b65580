"""Reconciliation: the full check of the ledger (`ledger.selectors.reconcile`), run now or queued for a worker,
and its record, a `ReconciliationRun`. One queued or running check at a time. A recorded run also reports the
checks the apps above the ledger add (`add_check`: the tournaments' counters against a count)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import current_app
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger.models import ReconciliationRun, ReconciliationStatus
from ledger.selectors import ReconciliationReport, reconcile

logger = logging.getLogger(__name__)

# A run queued or running this long was lost with its worker: asking again queues a new one.
RECONCILIATION_ABANDONED_AFTER = timedelta(hours=1)
# ledger/tasks.py's task name (explicit and stable: queued messages carry it).
PERFORM_RECONCILIATION_TASK = "ledger.perform_reconciliation_run"


# The checks of apps above the ledger, by name, each answering problems in the ledger's shape (`code`,
# `message`, ids): the ledger imports none of them; they register at start-up (their `AppConfig.ready`).
_CHECKS: dict[str, Callable[[], list[dict[str, Any]]]] = {}


def add_check(name: str, check: Callable[[], list[dict[str, Any]]]) -> None:
    """Report `check`'s problems in every recorded run from now on (again under one name replaces it)."""
    _CHECKS[name] = check


def full_report() -> ReconciliationReport:
    """The ledger's reconciliation with the added checks' problems after its own: not ok if any finds one."""
    report = reconcile()
    found = [problem for check in _CHECKS.values() for problem in check()]
    if not found:
        return report
    return dataclasses.replace(report, ok=False, problems=[*report.problems, *found])


def run_reconciliation(*, trigger: str = "task") -> ReconciliationRun:
    """Reconcile the whole ledger now and record the result (the nightly task, manual runs)."""
    started = timezone.now()
    report = full_report()
    return ReconciliationRun.objects.create(
        status=ReconciliationStatus.FINISHED,
        queued_at=started,
        started_at=started,
        finished_at=timezone.now(),
        ok=report.ok,
        accounts=report.accounts,
        transfers=report.transfers,
        totals=report.totals,
        problems=report.problems,
        trigger=trigger,
    )


def request_reconciliation(*, requested_by: AbstractBaseUser | None) -> tuple[ReconciliationRun, bool]:
    """Queue a full reconciliation for a worker, unless one is already queued or running: that one is
    answered instead, so asking twice runs one check. Returns (the run, whether it was queued now)."""
    with transaction.atomic():
        active = (
            ReconciliationRun.objects.select_for_update()
            .filter(status__in=[ReconciliationStatus.QUEUED, ReconciliationStatus.RUNNING])
            .order_by("-id")
            .first()
        )
        if active is not None:
            if active.queued_at > timezone.now() - RECONCILIATION_ABANDONED_AFTER:
                return active, False
            active.status = ReconciliationStatus.FAILED
            active.finished_at = timezone.now()
            active.problems = [
                {"code": "reconciliation.abandoned", "message": "No worker finished this run."}
            ]
            active.save(update_fields=["status", "finished_at", "problems"])
        try:
            with transaction.atomic():
                run = ReconciliationRun.objects.create(
                    trigger="on_demand", requested_by_id=requested_by.pk if requested_by else None
                )
        except IntegrityError:
            # Another request queued one between our look and our insert (one queued run at a time); by now a
            # worker may have started or even finished it, so it is the newest run, whatever its status.
            return ReconciliationRun.objects.latest("pk"), False
        transaction.on_commit(lambda: current_app.send_task(PERFORM_RECONCILIATION_TASK, args=(run.pk,)))
    return run, True


def perform_reconciliation_run(*, run_id: int) -> ReconciliationRun | None:
    """Run a queued reconciliation and record its result; a run already done (or being done by another
    worker) is left alone, so a duplicated or late task does nothing. Returns the run if this call ran it."""
    ReconciliationRun.objects.filter(pk=run_id, status=ReconciliationStatus.QUEUED).update(
        status=ReconciliationStatus.RUNNING, started_at=timezone.now()
    )
    try:
        with transaction.atomic():
            # The row lock marks this worker as the one running it; a redelivered copy skips it.
            run = (
                ReconciliationRun.objects.select_for_update(skip_locked=True)
                .filter(pk=run_id, status=ReconciliationStatus.RUNNING)
                .first()
            )
            if run is None:
                return None
            report = full_report()
            run.status = ReconciliationStatus.FINISHED
            run.finished_at = timezone.now()
            run.ok = report.ok
            run.accounts = report.accounts
            run.transfers = report.transfers
            run.totals = report.totals
            run.problems = report.problems
            run.save()
        logger.info("reconciliation run %s: ok=%s, %d problems", run.pk, run.ok, len(run.problems))
        return run
    except Exception:
        ReconciliationRun.objects.filter(pk=run_id, status=ReconciliationStatus.RUNNING).update(
            status=ReconciliationStatus.FAILED, finished_at=timezone.now()
        )
        raise
