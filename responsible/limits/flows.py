"""What a player staked and got back, read from the ledger's transfers (docs/rules.md "Responsible play"), and the
time they sat at ring and tournament tables. Reads only.

Stakes are the wallet's debits by the transfers that commit chips (a ring buy-in or top-up, a tournament entry,
late entry and re-entry: `buy_in` and `tournament_buy_in`); returns are the wallet's credits by the transfers that
bring chips back (`cash_out`, `payout`, `refund`), and the reversal of either counts as a return (undoing a stake
gives its chips back; undoing a return takes them back). House grants and staff adjustments are neither."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, Sum

from ledger.models import Entry, TransferKind
from tournaments.live.models import Seat

STAKE_KINDS = (TransferKind.BUY_IN, TransferKind.TOURNAMENT_BUY_IN)
RETURN_KINDS = (TransferKind.CASH_OUT, TransferKind.PAYOUT, TransferKind.REFUND)


@dataclass(frozen=True)
class Flows:
    stakes: int
    returns: int

    @property
    def loss(self) -> int:
        """The net loss: stakes minus returns when positive, else 0."""
        return max(0, self.stakes - self.returns)


def _stake_filter() -> Q:
    return Q(transfer__kind__in=STAKE_KINDS, amount__lt=0)


def _return_filter() -> Q:
    return Q(transfer__kind__in=RETURN_KINDS, amount__gt=0) | Q(
        transfer__kind=TransferKind.REVERSAL, transfer__reverses__kind__in=(*STAKE_KINDS, *RETURN_KINDS)
    )


def flows_since(
    *, wallet_id: int, starts: dict[str, datetime], until: datetime | None = None
) -> dict[str, Flows]:
    """For each named start, the stakes and returns on the wallet from that instant (to `until`, else now): one
    query, however many periods."""
    if not starts:
        return {}
    rows = Entry.objects.filter(account_id=wallet_id, created_at__gte=min(starts.values()))
    if until is not None:
        rows = rows.filter(created_at__lt=until)
    aggregates = {}
    for name, start in starts.items():
        aggregates[f"{name}__stakes"] = Sum("amount", filter=_stake_filter() & Q(created_at__gte=start))
        aggregates[f"{name}__returns"] = Sum("amount", filter=_return_filter() & Q(created_at__gte=start))
    sums = rows.aggregate(**aggregates)
    return {
        name: Flows(stakes=-(sums[f"{name}__stakes"] or 0), returns=sums[f"{name}__returns"] or 0)
        for name in starts
    }


def seated_intervals(*, player_id: int, start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The player's seats at ring and tournament tables (never practice) overlapping [start, end), clipped to it
    and merged where they overlap (two tables at once count once), in order."""
    seats = (
        Seat.objects.filter(player_id=player_id, table__practice=False, sat_at__lt=end)
        .filter(Q(left_at__isnull=True) | Q(left_at__gt=start))
        .order_by("sat_at")
        .values_list("sat_at", "left_at")
    )
    merged: list[tuple[datetime, datetime]] = []
    for sat_at, left_at in seats:
        first, last = max(sat_at, start), min(left_at or end, end)
        if last <= first:
            continue
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def seated_seconds(*, player_id: int, start: datetime, end: datetime) -> int:
    return int(
        sum(
            (last - first).total_seconds()
            for first, last in seated_intervals(player_id=player_id, start=start, end=end)
        )
    )
