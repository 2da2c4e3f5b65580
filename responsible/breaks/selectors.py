"""Reading breaks (docs/rules.md "Responsible play"): whether a player is on one, until when, and the record.

`is_on_break(user)` is the one question the rest of the site asks (the stake gate, the daily grant, and any
marketing notification: none is sent to a player on a break)."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils import timezone

from responsible.breaks.models import REVOCABLE_AFTER_MONTHS, REVOCATION_DAYS, Break, BreakKind


def add_months(moment: datetime, months: int) -> datetime:
    """The same day and time `months` calendar months later (the month's last day when it is shorter)."""
    month = moment.month - 1 + months
    year, month = moment.year + month // 12, month % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def active(*, now: datetime | None = None) -> Q:
    """The condition of a break in force at `now`."""
    now = now or timezone.now()
    return Q(starts_at__lte=now) & (Q(ends_at__isnull=True) | Q(ends_at__gt=now))


def active_breaks(*, player_id: int, now: datetime | None = None) -> list[Break]:
    return list(Break.objects.filter(active(now=now), player_id=player_id).order_by("starts_at", "pk"))


@dataclass(frozen=True)
class BreakState:
    """A player's breaks at one moment: `until` is the latest end among those in force (None while an indefinite
    exclusion stands), `kind` the kind of the one that lasts longest (a self-exclusion when it ties)."""

    on_break: bool
    kind: str | None
    until: datetime | None
    indefinite: bool
    # The indefinite exclusion in force: when it may be revoked, and when an asked revocation applies.
    revocable_at: datetime | None
    revocation_applies_at: datetime | None


def revocable_at(row: Break) -> datetime:
    return add_months(row.starts_at, REVOCABLE_AFTER_MONTHS)


def state_of(*, player_id: int, now: datetime | None = None) -> BreakState:
    now = now or timezone.now()
    rows = active_breaks(player_id=player_id, now=now)
    if not rows:
        return BreakState(False, None, None, False, None, None)
    standing = [r for r in rows if r.ends_at is None]
    if standing:
        row = standing[0]
        return BreakState(True, BreakKind.SELF_EXCLUSION, None, True, revocable_at(row), None)
    longest = max(rows, key=lambda r: (r.ends_at, r.kind == BreakKind.SELF_EXCLUSION))
    revoked = next((r for r in rows if r.indefinite and r.revocation_asked_at is not None), None)
    return BreakState(
        True,
        longest.kind,
        longest.ends_at,
        False,
        None,
        revoked.ends_at if revoked is not None else None,
    )


def is_on_break(user: AbstractBaseUser | int, *, now: datetime | None = None) -> bool:
    """Whether the player (a user or its id) is on a cool-off or a self-exclusion now: one indexed look-up."""
    player_id = user if isinstance(user, int) else int(user.pk)
    return Break.objects.filter(active(now=now), player_id=player_id).exists()


def history(*, player_id: int) -> QuerySet[Break]:
    return (
        Break.objects.filter(player_id=player_id).select_related("applied_by").order_by("-starts_at", "-pk")
    )


def break_list(
    *, player: str | None = None, kind: str | None = None, active_only: bool = False
) -> QuerySet[Break]:
    """Every break, newest first, for staff (the list and its CSV): by username, kind, or only those in force."""
    rows = Break.objects.select_related("player", "applied_by").order_by("-starts_at", "-pk")
    if player:
        rows = rows.filter(player__username=player)
    if kind:
        rows = rows.filter(kind=kind)
    if active_only:
        rows = rows.filter(active())
    return rows


def active_counts(*, now: datetime | None = None) -> dict[tuple[str, bool], int]:
    """How many players are on a break now, by (kind, indefinite): the metrics' gauge. A player on two breaks at
    once counts under each."""
    counts: dict[tuple[str, bool], int] = {}
    rows = Break.objects.filter(active(now=now)).values_list("kind", "indefinite", "ends_at", "player_id")
    seen: set[tuple[str, bool, int]] = set()
    for kind, indefinite, ends_at, player_id in rows:
        key = (kind, bool(indefinite and ends_at is None))
        if (*key, player_id) in seen:
            continue
        seen.add((*key, player_id))
        counts[key] = counts.get(key, 0) + 1
    return counts


def revocation_end(asked_at: datetime) -> datetime:
    return asked_at + timedelta(days=REVOCATION_DAYS)
