"""Purging the demo's guests once nobody can play as them any more (docs/operations.md "Guests").

A guest (`accounts.services.create_guest`) has no password: only the token the demo handed out plays as it.
Once that token has expired (or was revoked at logout), nobody can ever act as the guest again, so the job
`tournaments.purge_guests` (hourly, `CELERY_BEAT_SCHEDULE`) closes the account for good:

- its practice tables still open end (the player leaves, the table closes, as when they start another);
- its tokens (expired ones included) are deleted and the account deactivated (`is_active` off: even a token
  overlooked would no longer authenticate);
- the client addresses its seats recorded (`Seat.address`, for the integrity job) are cleared: the one
  thing about a guest that names a person's connection.

The user row itself stays, under the guest's name: the move log and the game events are append-only (database
triggers refuse an UPDATE or DELETE) and reference the user and the name, and the rounds, their replays and
every seat keep them, so the rounds stay for the record. The name is a neutral one already ("Guest " and six
random characters, which the player never chose); kept on the row, it stays reserved, so a new guest can
never draw it and be taken for the player of those rounds. A guest holds no chips (`grant.guest`,
`table.guest`, `tournament.guest`), so no ledger row is touched."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from knox.models import AuthToken

from accounts.selectors import is_guest
from accounts.usernames import GUEST_PREFIX
from tournaments.live.models import Seat
from tournaments.practice.services import earlier_tables, end_practice

# Guests purged per run: an hourly job stays short whatever the backlog (the next run takes the rest).
BATCH = 500
# A guest younger than this is left alone whatever its tokens say (the demo makes the guest and its token in
# one transaction: this only keeps a clock skew from mattering).
GRACE = timedelta(minutes=10)


@dataclass(frozen=True)
class Purged:
    guests: int
    tables: int


def expired_guests(*, now: datetime, limit: int = BATCH) -> list[Any]:
    """Active guests, older than `GRACE`, holding no token valid at `now`, oldest first."""
    valid = AuthToken.objects.filter(user=OuterRef("pk"), expiry__gt=now)
    candidates = (
        get_user_model()
        .objects.filter(username__startswith=GUEST_PREFIX, is_active=True, date_joined__lte=now - GRACE)
        .exclude(Exists(valid))
        .order_by("pk")[:limit]
    )
    return [user for user in candidates if is_guest(user=user)]


def purge_guest(*, user: Any) -> int:
    """Close one guest's account for good (module docstring); the number of practice tables ended."""
    tables = earlier_tables(player=user)
    for table_id in tables:
        end_practice(player=user, table_id=table_id)
    with transaction.atomic():
        AuthToken.objects.filter(user=user).delete()
        Seat.objects.filter(player=user).exclude(address="").update(address="")
        user.is_active = False
        user.last_login = None
        user.save(update_fields=["is_active", "last_login"])
    return len(tables)


def purge_guests(*, now: datetime | None = None, limit: int = BATCH) -> Purged:
    """Purge every guest whose tokens have all expired (at most `limit` a run)."""
    now = now or timezone.now()
    guests = expired_guests(now=now, limit=limit)
    tables = sum(purge_guest(user=user) for user in guests)
    return Purged(guests=len(guests), tables=tables)
