"""Celery tasks of responsible play: thin bodies calling one service."""

from __future__ import annotations

from celery import shared_task

from responsible.breaks import enforcement as break_enforcement
from responsible.limits import enforcement


# Running twice is harmless: a seat already leaving is not left again, a session is recorded once.
@shared_task(name="responsible.sweep", acks_late=True)
def sweep() -> int:
    """Leave at the round's end the players past their daily time limit; record sessions. Returns tables left."""
    return enforcement.sweep().tables_left


# Finishes what a break asks (seats left, entries refunded) where a stake raced it or a crash interrupted it.
@shared_task(name="responsible.enforce_breaks", acks_late=True, ignore_result=True)
def enforce_breaks() -> int:
    return break_enforcement.sweep()
