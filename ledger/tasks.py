"""Celery tasks of the ledger: thin bodies calling one service."""

from __future__ import annotations

from celery import shared_task

from ledger import services


# Running reconciliation twice only records two runs, so a redelivery after a crash is harmless.
@shared_task(name="ledger.run_reconciliation", acks_late=True)
def run_reconciliation(trigger: str = "task") -> int:
    """Reconcile the ledger and record a ReconciliationRun; returns its id."""
    return services.run_reconciliation(trigger=trigger).pk
