"""A player's play sessions read from their seats (docs/rules.md "Responsible play"): seated stretches at ring and
tournament tables (never practice) with no gap over 15 minutes, and a session's net result from the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, Sum

from ledger.models import Account
from ledger.services import accounts
from responsible.limits import flows
from tournaments.live.models import Seat

GAP = timedelta(minutes=15)
# How far back the seats are read to find where the current session began (a seat still held is always read).
LOOKBACK = timedelta(hours=48)


@dataclass(frozen=True)
class Stretch:
    started_at: datetime
    ended_at: datetime | None  # None while a seat is held

    def end(self, now: datetime) -> datetime:
        return self.ended_at or now


def stretches(*, player_id: int, since: datetime, now: datetime) -> list[Stretch]:
    """The player's seated stretches touching [since, now], gaps of at most 15 minutes joined, in order."""
    seats = (
        Seat.objects.filter(player_id=player_id, table__practice=False, sat_at__lte=now)
        .filter(Q(left_at__isnull=True) | Q(left_at__gte=since))
        .order_by("sat_at")
        .values_list("sat_at", "left_at")
    )
    result: list[list[datetime | None]] = []
    for sat_at, left_at in seats:
        if result:
            last_end = result[-1][1]
            if last_end is None or sat_at - last_end <= GAP:
                if last_end is not None:
                    result[-1][1] = None if left_at is None else max(last_end, left_at)
                continue
        result.append([sat_at, left_at])
    return [Stretch(started_at=s, ended_at=e) for s, e in result if s is not None]


def current_stretch(*, player_id: int, now: datetime) -> Stretch | None:
    """The session going on: a seat held, or the last one left at most 15 minutes ago."""
    found = stretches(player_id=player_id, since=now - LOOKBACK, now=now)
    if not found:
        return None
    last = found[-1]
    if last.ended_at is None or now - last.ended_at <= GAP:
        return last
    return None


def stretch_starting(*, player_id: int, started_at: datetime, now: datetime) -> Stretch | None:
    for stretch in stretches(player_id=player_id, since=started_at, now=now):
        if stretch.started_at <= started_at <= stretch.end(now):
            return stretch
    return None


def net_result(*, player_id: int, user: object, since: datetime, now: datetime) -> int:
    """Chips back minus chips staked since the session began, counting the chips on the ring seats still held
    (tournament chips are not the wallet's: a tournament counts by its entry and its prize)."""
    wallet = accounts.get_wallet(user=user)  # type: ignore[arg-type]
    seen = flows.flows_since(wallet_id=wallet.pk, starts={"session": since}, until=None)["session"]
    on_tables = (
        Account.objects.filter(
            seat__player_id=player_id,
            seat__left_at__isnull=True,
            seat__table__tournament__isnull=True,
            seat__table__practice=False,
        ).aggregate(total=Sum("balance"))["total"]
        or 0
    )
    return seen.returns - seen.stakes + on_tables
