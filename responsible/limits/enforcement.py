"""The daily time limit reached at a table (docs/rules.md "Responsible play"): the player is left at the round's
end at every ring table (tournaments already running go on), and records every session the sweep sees. The body of
the beat job `responsible.sweep`, run every minute."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.utils import timezone

from responsible.limits import flows, periods, selectors
from responsible.limits.models import LimitChange, LimitName
from responsible.sessions import leaving
from responsible.sessions import services as sessions
from responsible.sessions.models import PlaySession
from tournaments.live.models import Seat


@dataclass(frozen=True)
class SweepResult:
    players_left: int
    tables_left: int
    sessions_seen: int


def over_time_limit(*, player_id: int, now: datetime) -> bool:
    limit = selectors.in_force(player_id=player_id, now=now).get(LimitName.MINUTES_DAY)
    if limit is None:
        return False
    start, _ = periods.bounds(periods.Period.DAY, now)
    return flows.seated_seconds(player_id=player_id, start=start, end=now) >= limit * 60


def sweep(*, now: datetime | None = None) -> SweepResult:
    now = now or timezone.now()
    seated = set(
        Seat.objects.filter(left_at__isnull=True, table__practice=False).values_list("player_id", flat=True)
    )
    timed = set(LimitChange.objects.filter(limit=LimitName.MINUTES_DAY).values_list("player_id", flat=True))
    players_left = tables_left = 0
    for user in User.objects.filter(pk__in=seated & timed).order_by("pk"):
        if over_time_limit(player_id=user.pk, now=now):
            left = leaving.leave_ring_tables(user=user)
            players_left += bool(left)
            tables_left += len(left)
    # Sessions: recorded for everyone seated, closed for those who stopped.
    open_sessions = set(PlaySession.objects.filter(ended_at__isnull=True).values_list("player_id", flat=True))
    seen = 0
    for user in User.objects.filter(pk__in=seated | open_sessions).order_by("pk"):
        sessions.current(user=user, now=now)
        seen += 1
    return SweepResult(players_left=players_left, tables_left=tables_left, sessions_seen=seen)
