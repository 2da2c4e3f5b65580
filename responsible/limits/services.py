"""Setting a player's limits and checking a stake against them (docs/rules.md "Responsible play").

A new limit or a lower one applies at once; a higher one or a removal applies `RAMINO_LIMIT_RAISE_DAYS` days after
it is asked for and can be withdrawn before then (asking again for the value in force withdraws it; a newer change
of the same limit replaces it). Every change is a row of `LimitChange`, kept with its times.

The check (`refuse_if_over`) runs at the stake gate inside the stake's atomic block, before the transfer. It locks
the player's wallet row first (after the table's or tournament's row the caller holds, before the posting's
accounts, which `postings` locks in key order): two stakes of one player at once are checked one after the
other, each seeing the other's transfer, so racing stakes cannot pass a limit together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from ledger.models import Account
from ledger.services import accounts
from responsible.limits import flows, periods, selectors
from responsible.limits.errors import InvalidLimit, LimitExceeded, NothingPending
from responsible.limits.models import CHIP_LIMITS, MAX_CHIPS, MAX_MINUTES, LimitChange, LimitName

# The refusal's sentence for each limit (msgids: deploy/catalogs.py collects them).
EXCEEDED_MESSAGES = {
    LimitName.STAKES_DAY: N_(
        "This would pass your daily stakes limit of %(value)s chips: %(left)s left today."
    ),
    LimitName.STAKES_WEEK: N_(
        "This would pass your weekly stakes limit of %(value)s chips: %(left)s left this week."
    ),
    LimitName.STAKES_MONTH: N_(
        "This would pass your monthly stakes limit of %(value)s chips: %(left)s left this month."
    ),
    LimitName.LOSS_DAY: N_("This would pass your daily loss limit of %(value)s chips: %(left)s left today."),
    LimitName.LOSS_WEEK: N_(
        "This would pass your weekly loss limit of %(value)s chips: %(left)s left this week."
    ),
    LimitName.LOSS_MONTH: N_(
        "This would pass your monthly loss limit of %(value)s chips: %(left)s left this month."
    ),
    LimitName.MINUTES_DAY: N_(
        "You have played your daily time limit of %(value)s minutes: no new seat or registration today."
    ),
}


def raise_delay() -> timedelta:
    return timedelta(days=settings.RAMINO_LIMIT_RAISE_DAYS)


def _lock_wallet(user: AbstractBaseUser) -> Account:
    wallet = accounts.get_wallet(user=user)
    return Account.objects.select_for_update().get(pk=wallet.pk)


def _valid(limit: str, value: object) -> int | None:
    if limit not in LimitName.values:
        raise InvalidLimit("Unknown limit %(limit)s.", params={"limit": limit}, details={"limit": limit})
    if value is None:
        return None
    ceiling = MAX_MINUTES if limit == LimitName.MINUTES_DAY else MAX_CHIPS
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ceiling:
        raise InvalidLimit(
            "A limit is a whole number from 1 to %(max)s, or null for none.",
            params={"max": ceiling},
            details={"limit": limit, "max": ceiling},
        )
    return value


def set_limits(
    *,
    user: User,
    values: dict[str, int | None],
    now: datetime | None = None,
    by: User | None = None,
) -> list[LimitChange]:
    """Ask for each limit in `values` (None: no limit). Returns the changes recorded (none for a value already in
    force with nothing pending, or already pending)."""
    now = now or timezone.now()
    checked = {limit: _valid(limit, value) for limit, value in values.items()}
    recorded: list[LimitChange] = []
    with transaction.atomic():
        _lock_wallet(user)
        current = selectors.in_force(player_id=user.pk, now=now)
        waiting = selectors.pending(player_id=user.pk, now=now)
        for limit, value in checked.items():
            old = current.get(limit)
            change = waiting.get(limit)
            if change is not None and change.value == value:
                continue  # already asked for
            if change is not None:
                change.withdrawn_at = now
                change.save(update_fields=["withdrawn_at"])
            if value == old:
                continue  # back to the value in force: the pending change (if any) is withdrawn, nothing more
            at_once = old is None or (value is not None and value < old)
            recorded.append(
                LimitChange.objects.create(
                    player=user,
                    limit=limit,
                    value=value,
                    previous=old,
                    requested_at=now,
                    applies_at=now if at_once else now + raise_delay(),
                    requested_by=by or user,
                )
            )
    return recorded


def withdraw(*, user: User, limit: str, now: datetime | None = None) -> LimitChange:
    """Withdraw the pending raise or removal of `limit` (409 `limits.nothing_pending` without one)."""
    now = now or timezone.now()
    _valid(limit, None)
    with transaction.atomic():
        _lock_wallet(user)
        change = selectors.pending(player_id=user.pk, now=now).get(limit)
        if change is None:
            raise NothingPending(details={"limit": limit})
        change.withdrawn_at = now
        change.save(update_fields=["withdrawn_at"])
        return change


@dataclass(frozen=True)
class Usage:
    limit: str
    value: int
    used: int  # chips staked, net loss, or minutes seated in the period so far
    left: int  # what may still be staked (chips) or played (minutes) before the limit
    resets_at: datetime


def usage(
    *, user: AbstractBaseUser, now: datetime | None = None, limits: dict[str, int] | None = None
) -> list[Usage]:
    """How far the player is into each limit in force, in `LimitName` order."""
    now = now or timezone.now()
    limits = selectors.in_force(player_id=user.pk, now=now) if limits is None else limits
    if not limits:
        return []
    chip_limits = {name: CHIP_LIMITS[name] for name in limits if name in CHIP_LIMITS}
    starts = {str(period): periods.bounds(period, now)[0] for _, period in chip_limits.values()}
    wallet = accounts.get_wallet(user=user)
    by_period = flows.flows_since(wallet_id=wallet.pk, starts=starts)
    result = []
    for name in LimitName.values:
        if name not in limits:
            continue
        value = limits[name]
        if name == LimitName.MINUTES_DAY:
            start, end = periods.bounds(periods.Period.DAY, now)
            used = flows.seated_seconds(player_id=user.pk, start=start, end=now) // 60
            result.append(Usage(name, value, used, max(0, value - used), end))
            continue
        measure, period = chip_limits[name]
        seen = by_period[str(period)]
        if measure == "stakes":
            used, left = seen.stakes, max(0, value - seen.stakes)
        else:
            used, left = seen.loss, max(0, value - (seen.stakes - seen.returns))
        result.append(Usage(name, value, used, left, periods.bounds(period, now)[1]))
    return result


def refuse_if_over(*, user: AbstractBaseUser, amount: int, now: datetime | None = None) -> None:
    """Raise `limits.exceeded` when staking `amount` now would pass a limit in force (the daily time limit once
    reached refuses every stake, a free one included); call inside the stake's atomic block."""
    now = now or timezone.now()
    limits = selectors.in_force(player_id=user.pk, now=now)
    if not limits:
        return
    _lock_wallet(user)
    over = [
        row
        for row in usage(user=user, now=now, limits=limits)
        if (row.left <= 0 if row.limit == LimitName.MINUTES_DAY else amount > row.left)
    ]
    if not over:
        return
    row = min(over, key=lambda r: (r.left, LimitName.values.index(r.limit)))
    raise LimitExceeded(
        EXCEEDED_MESSAGES[LimitName(row.limit)],
        params={"value": row.value, "left": row.left},
        details={
            "limit": row.limit,
            "value": row.value,
            "left": row.left,
            "amount": amount,
            "resets_at": row.resets_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        },
    )
