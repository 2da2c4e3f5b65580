"""The abandonment schedule (docs/rules.md "Fair play"), pure: plain times in, a standing out.

The first abandonment of a streak is a warning; each further one within 72 h of the previous bars new seats
for 10 min, 30 min, 1 h, 3 h, 12 h, then 48 h (the last repeats), counted from that abandonment; 72 h without
one resets the count. A staff lift ends the bar and the streak: only abandonments after it count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

STREAK_GAP = timedelta(hours=72)
WARNING_FOR = timedelta(hours=24)
BARS: tuple[timedelta, ...] = (
    timedelta(minutes=10),
    timedelta(minutes=30),
    timedelta(hours=1),
    timedelta(hours=3),
    timedelta(hours=12),
    timedelta(hours=48),
)


def bar_for(streak: int) -> timedelta | None:
    """The bar the `streak`-th abandonment of a streak earns (1: the warning, none)."""
    if streak <= 1:
        return None
    return BARS[min(streak - 2, len(BARS) - 1)]


@dataclass(frozen=True)
class Standing:
    streak: int  # abandonments in the current streak (0: none within 72 h)
    last: datetime | None  # the streak's last abandonment
    bar: timedelta | None  # the bar the last one earned
    until: datetime | None  # barred until then (None: not barred now)
    warned: bool  # the streak's only abandonment, within 24 h: a warning


def standing(times: Iterable[datetime], *, now: datetime, lifted_at: datetime | None = None) -> Standing:
    """A player's standing at `now` from their abandonment times (any order; those after `now` or at or
    before `lifted_at` do not count)."""
    counted = sorted(t for t in times if t <= now and (lifted_at is None or t > lifted_at))
    streak = 0
    previous: datetime | None = None
    for moment in counted:
        streak = streak + 1 if previous is not None and moment - previous <= STREAK_GAP else 1
        previous = moment
    if previous is None or now - previous > STREAK_GAP:
        return Standing(streak=0, last=previous, bar=None, until=None, warned=False)
    bar = bar_for(streak)
    until = previous + bar if bar is not None and previous + bar > now else None
    warned = streak == 1 and now - previous <= WARNING_FOR
    return Standing(streak=streak, last=previous, bar=bar, until=until, warned=warned)
