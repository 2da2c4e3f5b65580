"""The verification's check where chips are staked (`responsible.stakes.refuse_stake`): with
`RAMINO_VERIFY_DAYS` set, an account not verified that many days after registration plays practice tables only
(docs/rules.md "Responsible play"). Nothing is read while the setting is off."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from responsible.verification import selectors
from responsible.verification.errors import Unverified


def refuse_if_unverified(*, user: AbstractBaseUser, now: datetime | None = None) -> None:
    days = selectors.verify_days()
    if not days:
        return
    verify_by = user.date_joined + timedelta(days=days)  # type: ignore[attr-defined]
    if (now or timezone.now()) < verify_by or selectors.is_verified(player_id=int(user.pk)):
        return
    raise Unverified(
        details={
            "verify_by": verify_by.astimezone(UTC).isoformat().replace("+00:00", "Z"),
            "verify_days": days,
        }
    )
