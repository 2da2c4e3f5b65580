"""Reading a player's fair-play record and standing (docs/rules.md "Fair play")."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from tournaments.fair_play import schedule
from tournaments.fair_play.models import Abandonment, BarLift

# Enough of the record to find the current streak: a streak's abandonments are at most 72 h apart, and the
# 48 h bar repeats, so a streak long enough to matter ends within this many rows of the newest.
RECENT_ROWS = 200


def last_lift(*, player_id: int) -> BarLift | None:
    return BarLift.objects.filter(player_id=player_id).order_by("-lifted_at", "-pk").first()


def recent_abandonments(*, player_id: int, limit: int = RECENT_ROWS) -> list[Abandonment]:
    return list(
        Abandonment.objects.filter(player_id=player_id)
        .select_related("table", "tournament")
        .order_by("-at", "-pk")[:limit]
    )


def standing_of(*, player_id: int, now: datetime | None = None) -> schedule.Standing:
    now = now or timezone.now()
    lift = last_lift(player_id=player_id)
    times = Abandonment.objects.filter(player_id=player_id, at__lte=now)
    if lift is not None:
        times = times.filter(at__gt=lift.lifted_at)
    moments = list(times.order_by("-at").values_list("at", flat=True)[:RECENT_ROWS])
    return schedule.standing(moments, now=now, lifted_at=lift.lifted_at if lift else None)
