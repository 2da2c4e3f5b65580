"""The limits in numbers, read at `/metrics` scrape time (docs/operations.md "Metrics"): for each limit, the players
who have it in force and those at it now (nothing more may be staked, or the day's minutes are played). A few
queries whatever the number of players: the limits in force, one grouped sum of the wallets' stakes and returns
per period, and the seats of the players with a time limit."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db.models import Q, Sum

from ledger.models import AccountKind, Entry
from responsible.limits import flows, periods
from responsible.limits.models import CHIP_LIMITS, LimitChange, LimitName


def limits_in_force(*, now: datetime) -> dict[int, dict[str, int]]:
    """Every player's limits in force at `now` (players with none left out)."""
    found: dict[int, dict[str, int | None]] = defaultdict(dict)
    for player_id, limit, value in (
        LimitChange.objects.filter(applies_at__lte=now, withdrawn_at__isnull=True)
        .order_by("applies_at", "pk")
        .values_list("player_id", "limit", "value")
    ):
        found[player_id][limit] = value
    result = {p: {k: v for k, v in limits.items() if v is not None} for p, limits in found.items()}
    return {p: limits for p, limits in result.items() if limits}


def players_with_and_at_limits(*, now: datetime) -> dict[str, tuple[int, int]]:
    """For each limit: (players who have it in force, players at it now)."""
    limits = limits_in_force(now=now)
    counts = {name: [0, 0] for name in LimitName.values}
    if not limits:
        return dict.fromkeys(LimitName.values, (0, 0))
    starts = {str(p): periods.bounds(p, now)[0] for p in periods.Period}
    stake, back = (
        Q(transfer__kind__in=flows.STAKE_KINDS, amount__lt=0),
        Q(transfer__kind__in=flows.RETURN_KINDS, amount__gt=0)
        | Q(
            transfer__kind="reversal", transfer__reverses__kind__in=(*flows.STAKE_KINDS, *flows.RETURN_KINDS)
        ),
    )
    sums = {
        f"{name}_{part}": Sum("amount", filter=where & Q(created_at__gte=start))
        for name, start in starts.items()
        for part, where in (("stakes", stake), ("returns", back))
    }
    per_player = {
        row["account__user_id"]: row
        for row in Entry.objects.filter(
            account__kind=AccountKind.WALLET,
            account__user_id__in=list(limits),
            created_at__gte=min(starts.values()),
        )
        .values("account__user_id")
        .annotate(**sums)
    }
    day_start = starts[str(periods.Period.DAY)]
    timed = [p for p, mine in limits.items() if LimitName.MINUTES_DAY in mine]
    seated = {p: flows.seated_seconds(player_id=p, start=day_start, end=now) for p in timed}
    for player_id, player_limits in limits.items():
        row = per_player.get(player_id, {})
        for name, value in player_limits.items():
            counts[name][0] += 1
            if name == LimitName.MINUTES_DAY:
                at = seated.get(player_id, 0) >= value * 60
            else:
                measure, period = CHIP_LIMITS[name]
                staked = -(row.get(f"{period}_stakes") or 0)
                returned = row.get(f"{period}_returns") or 0
                at = (staked if measure == "stakes" else staked - returned) >= value
            counts[name][1] += int(at)
    return {name: (pair[0], pair[1]) for name, pair in counts.items()}
