"""The ratings' Celery task: record what became final and apply it (thin; ratings.services)."""

from __future__ import annotations

from celery import shared_task

from ratings import services

UPDATE_RATINGS = "ratings.update"


# Running twice is harmless (results are recorded once, applied under one lock): acks_late.
@shared_task(name=UPDATE_RATINGS, acks_late=True)
def update_ratings() -> int:
    return services.update_ratings()
