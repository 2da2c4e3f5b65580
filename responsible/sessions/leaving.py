"""Leaving every ring table of a player at the round's end (a reality check answered "leave", the daily time
limit reached): live play's own `leave`, seat by seat. Tournament tables are not left: a tournament goes on."""

from __future__ import annotations

from django.contrib.auth.models import User

from api.errors import ServiceError
from tournaments.live import leave_table
from tournaments.live.models import SEATED_STATUSES, Seat, SeatStatus


def ring_table_ids(*, player_id: int) -> list[int]:
    """The ring tables where the player holds a seat not already leaving."""
    return list(
        Seat.objects.filter(
            player_id=player_id,
            status__in=[s for s in SEATED_STATUSES if s != SeatStatus.LEAVING],
            table__practice=False,
            table__tournament__isnull=True,
        )
        .order_by("table_id")
        .values_list("table_id", flat=True)
    )


def leave_ring_tables(*, user: User) -> list[int]:
    """Leave each ring table (cash out now, or `leaving` until the round ends); returns the tables left."""
    left = []
    for table_id in ring_table_ids(player_id=user.pk):
        try:
            leave_table(user=user, table_id=table_id)
        except ServiceError:  # the seat went meanwhile (the round ended, the table closed)
            continue
        left.append(table_id)
    return left
