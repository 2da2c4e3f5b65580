"""Reading a player's age and verification (docs/rules.md "Responsible play")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from responsible.verification.models import DateOfBirth, Verification, VerificationStatus


def age_on(date_of_birth: date, today: date) -> int:
    """Whole years between the date of birth and `today` (born on 29 February: a year older on 1 March)."""
    return (
        today.year
        - date_of_birth.year
        - ((today.month, today.day) < (date_of_birth.month, date_of_birth.day))
    )


def verify_days() -> int:
    return max(0, int(settings.RAMINO_VERIFY_DAYS))


def latest(*, player_id: int) -> Verification | None:
    return (
        Verification.objects.filter(player_id=player_id).select_related("by").order_by("-at", "-pk").first()
    )


def is_verified(*, player_id: int) -> bool:
    row = latest(player_id=player_id)
    return row is not None and row.status == VerificationStatus.VERIFIED


@dataclass(frozen=True)
class VerificationState:
    date_of_birth: date | None
    verified: bool
    verified_at: datetime | None
    document_type: str | None
    # When an account not verified is kept to practice tables (None: the setting is off, or verified).
    verify_by: datetime | None
    practice_only: bool


def state_of(*, user: AbstractBaseUser, now: datetime | None = None) -> VerificationState:
    now = now or timezone.now()
    row = latest(player_id=int(user.pk))
    verified = row is not None and row.status == VerificationStatus.VERIFIED
    born = DateOfBirth.objects.filter(player_id=user.pk).values_list("date_of_birth", flat=True).first()
    days = verify_days()
    verify_by = None
    if days and not verified:
        verify_by = user.date_joined + timedelta(days=days)  # type: ignore[attr-defined]
    return VerificationState(
        date_of_birth=born,
        verified=verified,
        verified_at=row.at if verified and row is not None else None,
        document_type=row.document_type if verified and row is not None else None,
        verify_by=verify_by,
        practice_only=verify_by is not None and now >= verify_by,
    )


def verification_list(*, player: str | None = None) -> QuerySet[Verification]:
    """Every verification record, newest first, for staff (the list and its CSV)."""
    rows = Verification.objects.select_related("player", "by").order_by("-at", "-pk")
    if player:
        rows = rows.filter(player__username=player)
    return rows


def unverified_past_deadline(*, now: datetime | None = None) -> int:
    """Registered players (those who gave a date of birth) kept to practice tables now, their deadline passed
    and their latest record not a verification (0 while the setting is off): the metrics' gauge."""
    days = verify_days()
    if not days:
        return 0
    now = now or timezone.now()
    newest = (
        Verification.objects.filter(player_id=OuterRef("player_id")).order_by("-at", "-pk").values("status")
    )
    return (
        DateOfBirth.objects.filter(
            player__date_joined__lte=now - timedelta(days=days), player__is_active=True
        )
        .annotate(status=Subquery(newest[:1]))
        .filter(Q(status__isnull=True) | ~Q(status=VerificationStatus.VERIFIED))
        .count()
    )
