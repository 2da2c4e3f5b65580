"""Calendar periods in the site's time zone (`RAMINO_SITE_TIME_ZONE`): a day from midnight, a week from Monday,
a month from its first day. Pure: datetimes in, datetimes out."""

from __future__ import annotations

from datetime import date, datetime, timedelta, tzinfo
from enum import StrEnum
from zoneinfo import ZoneInfo

from django.conf import settings


class Period(StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"


def site_zone() -> tzinfo:
    return ZoneInfo(settings.RAMINO_SITE_TIME_ZONE)


def _midnight(day: date, zone: tzinfo) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=zone)


def bounds(period: Period, at: datetime, zone: tzinfo | None = None) -> tuple[datetime, datetime]:
    """The period holding `at`: its first instant and the first instant of the next (when it resets)."""
    zone = zone or site_zone()
    today = at.astimezone(zone).date()
    if period is Period.DAY:
        first, following = today, today + timedelta(days=1)
    elif period is Period.WEEK:
        first = today - timedelta(days=today.weekday())
        following = first + timedelta(days=7)
    else:
        first = today.replace(day=1)
        following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return _midnight(first, zone), _midnight(following, zone)
