"""Celery tasks of the ledger: thin bodies calling one service."""

from __future__ import annotations

from celery import shared_task

from ledger.services import reconciliation


# Running reconciliation twice only records two runs, so a redelivery after a crash is harmless.
@shared_task(name="ledger.run_reconciliation", acks_late=True)
def run_reconciliation(trigger: str = "task") -> int:
    """Reconcile the ledger and record a ReconciliationRun; returns its id."""
    return reconciliation.run_reconciliation(trigger=trigger).pk


# A duplicate or late delivery finds the run done (or locked by the worker running it) and does nothing.
@shared_task(name="ledger.perform_reconciliation_run", acks_late=True)
def perform_reconciliation_run(run_id: int) -> None:
    """Run the reconciliation staff queued (POST /ledger/reconciliation/runs/)."""
    reconciliation.perform_reconciliation_run(run_id=run_id)
