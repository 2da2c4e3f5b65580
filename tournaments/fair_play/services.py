"""Recording abandonments, refusing new seats while barred, and staff lifting a bar (docs/rules.md
"Fair play"). Called by live play when a seat becomes absent (`clock_runs`), by `tables.sit` for a new seat and
by tournament registration for a one-table tournament."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournaments.errors import Forbidden, PlayCode
from tournaments.fair_play.models import Abandonment, AbandonmentKind, BarLift
from tournaments.fair_play.selectors import standing_of

__all__ = ["lift_bar", "record_abandonment", "refuse_if_barred"]


def record_abandonment(
    *,
    player_id: int,
    kind: AbandonmentKind,
    table_id: int | None = None,
    tournament_id: int | None = None,
    at: datetime | None = None,
) -> Abandonment:
    return Abandonment.objects.create(
        player_id=player_id,
        kind=kind,
        table_id=table_id,
        tournament_id=tournament_id,
        at=at or timezone.now(),
    )


def refuse_if_barred(*, user: User, now: datetime | None = None) -> None:
    """403 `seat.barred` while `user` is barred from new seats (details: `until`, ISO time, and `reason`)."""
    standing = standing_of(player_id=user.pk, now=now)
    if standing.until is not None:
        # UTC, written as the API writes its times (docs/api.md "Numbers and dates").
        until = standing.until.astimezone(UTC).isoformat().replace("+00:00", "Z")
        raise Forbidden(
            "You left games too often: you cannot take a new seat until %(until)s.",
            params={"until": until},
            code=PlayCode.SEAT_BARRED,
            details={
                "until": until,
                "reason": "abandonment",
                "abandonments": standing.streak,
            },
        )


def lift_bar(*, player_id: int, by: User, now: datetime | None = None) -> BarLift:
    """Staff end `player`'s bar and streak: the abandonments until now no longer count."""
    with transaction.atomic():
        return BarLift.objects.create(player_id=player_id, lifted_by=by, lifted_at=now or timezone.now())
