"""Recording a date of birth at registration (under 18 refused) and staff's verification of an account
(docs/rules.md "Responsible play"). Staff's changes are written to the admin's log."""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from responsible.verification.errors import Underage
from responsible.verification.models import ADULT_AGE, DateOfBirth, Verification, VerificationStatus
from responsible.verification.selectors import age_on

__all__ = ["mark_verified", "record_date_of_birth", "refuse_underage", "withdraw_verification"]


def refuse_underage(date_of_birth: date, *, today: date | None = None) -> None:
    """400 `player.underage` for a date of birth less than 18 years before today (the site's time zone)."""
    if age_on(date_of_birth, today or timezone.localdate()) < ADULT_AGE:
        raise Underage(details={"field": "date_of_birth", "minimum_age": ADULT_AGE})


def record_date_of_birth(*, user: User, date_of_birth: date) -> DateOfBirth:
    """Store the date of birth given at registration (checked: `refuse_underage`), in the registration's
    transaction."""
    refuse_underage(date_of_birth)
    return DateOfBirth.objects.create(player=user, date_of_birth=date_of_birth)


def _record(
    *,
    player: User,
    by: User,
    status: str,
    document_type: str,
    note: str,
    now: datetime | None,
) -> Verification:
    with transaction.atomic():
        row = Verification.objects.create(
            player=player,
            status=status,
            document_type=document_type,
            by=by,
            at=now or timezone.now(),
            note=note,
        )
        LogEntry.objects.log_actions(
            user_id=by.pk,
            queryset=[row],
            action_flag=ADDITION,
            change_message=f"{status} {document_type}".strip() + (f": {note}" if note else ""),
            single_object=True,
        )
    return row


def mark_verified(
    *,
    player: User,
    by: User,
    document_type: str,
    note: str = "",
    now: datetime | None = None,
) -> Verification:
    """Staff checked a document of `document_type` (`DocumentType`): the account is verified. Only the kind of
    document, who and when are kept, never the document."""
    return _record(
        player=player,
        by=by,
        status=VerificationStatus.VERIFIED,
        document_type=document_type,
        note=note,
        now=now,
    )


def withdraw_verification(*, player: User, by: User, note: str, now: datetime | None = None) -> Verification:
    """Staff withdraw the account's verification (with a note why)."""
    return _record(
        player=player, by=by, status=VerificationStatus.WITHDRAWN, document_type="", note=note, now=now
    )
