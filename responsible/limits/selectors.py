"""Reads of a player's limits: what is in force, what is pending, the whole history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from responsible.limits.models import LimitChange, LimitName


@dataclass(frozen=True)
class LimitState:
    limit: str
    value: int | None  # in force now (None: no limit)
    pending: int | None  # the value a pending change will set (None with `applies_at` None: nothing pending)
    applies_at: datetime | None  # when the pending change applies (None: nothing pending)
    pending_id: int | None


def in_force(*, player_id: int, now: datetime) -> dict[str, int]:
    """The limits in force at `now` (only those set): the last change of each applied by then, not withdrawn."""
    values: dict[str, int | None] = {}
    for limit, value in (
        LimitChange.objects.filter(player_id=player_id, applies_at__lte=now, withdrawn_at__isnull=True)
        .order_by("applies_at", "pk")
        .values_list("limit", "value")
    ):
        values[limit] = value
    return {limit: value for limit, value in values.items() if value is not None}


def pending(*, player_id: int, now: datetime) -> dict[str, LimitChange]:
    """The changes asked for and not yet applied (at most one per limit: a newer change withdraws the older)."""
    return {
        change.limit: change
        for change in LimitChange.objects.filter(
            player_id=player_id, applies_at__gt=now, withdrawn_at__isnull=True
        ).order_by("applies_at", "pk")
    }


def states(*, player_id: int, now: datetime) -> dict[str, LimitState]:
    current = in_force(player_id=player_id, now=now)
    waiting = pending(player_id=player_id, now=now)
    result = {}
    for limit in LimitName.values:
        change = waiting.get(limit)
        result[limit] = LimitState(
            limit=limit,
            value=current.get(limit),
            pending=change.value if change else None,
            applies_at=change.applies_at if change else None,
            pending_id=change.pk if change else None,
        )
    return result


def history(*, player_id: int | None = None) -> QuerySet[LimitChange]:
    """Every change, newest first (one player's, or everyone's for the staff's list)."""
    rows = LimitChange.objects.select_related("player", "requested_by").order_by("-requested_at", "-pk")
    return rows if player_id is None else rows.filter(player_id=player_id)
