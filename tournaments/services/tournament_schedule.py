"""The multi-table tournaments' clock (the beat job `tournaments.run_tournament_schedule`, every 10 s): a
`scheduled` tournament whose `registration_opens_at` has come starts registering; a `registering` multi-table
tournament whose `starts_at` has come starts (`tournament_start.start_locked`) or, with fewer than
`min_entrants` registered, is cancelled with every buy-in and fee refunded (RULES §5).

One transaction per tournament, its row taken with `SELECT ... FOR UPDATE SKIP LOCKED`: two beat runs at once
never act on the same tournament (the second skips it), and each re-checks the status under the lock, so a run
repeated (or redelivered) does nothing more. A tournament that fails (say, its start raises) is logged and left
for the next run; the others go on."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentKind, TournamentStatus
from tournaments.services import tournament_events
from tournaments.services.tournament_admin import refund_everyone
from tournaments.services.tournament_start import start_locked
from tournaments.services.tournament_status import move_to

logger = logging.getLogger(__name__)

# How many tournaments one run handles per step at most (the next run, 10 s later, takes the rest).
BATCH = 100


def _due_to_open(now: datetime) -> Q:
    return Q(status=TournamentStatus.SCHEDULED, registration_opens_at__lte=now)


def _due_to_start(now: datetime) -> Q:
    return Q(status=TournamentStatus.REGISTERING, kind=TournamentKind.MULTI, starts_at__lte=now)


def _each_locked(due: Q, act: Callable[[Tournament], str]) -> dict[str, int]:
    """`act` on each due tournament, in its own transaction, its row locked (skipped if another run holds it)."""
    counts: dict[str, int] = {}
    ids = list(
        Tournament.objects.filter(due).order_by("starts_at", "pk").values_list("pk", flat=True)[:BATCH]
    )
    for tournament_id in ids:
        try:
            with transaction.atomic():
                tournament = (
                    Tournament.objects.select_for_update(skip_locked=True)
                    .filter(due, pk=tournament_id)
                    .first()
                )
                if tournament is None:
                    continue  # another run holds it, or it moved on since the list was read
                outcome = act(tournament)
        except Exception:
            logger.exception("tournament %s: the schedule failed; the next run tries again", tournament_id)
            outcome = "failed"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def open_registration(tournament: Tournament) -> str:
    """Scheduled → registering (the caller holds the row lock)."""
    move_to(tournament, TournamentStatus.REGISTERING)
    tournament.save(update_fields=["status"])
    tournament_events.record(
        tournament=tournament,
        kind="registration_open",
        data={"starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None},
    )
    return "opened"


def start_or_cancel(tournament: Tournament) -> str:
    """At `starts_at` (the caller holds the row lock): start with the entrants registered, or cancel below the
    minimum, every buy-in and fee refunded."""
    entrants = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count()
    if entrants >= tournament.min_entrants:
        start_locked(tournament)
        return "started"
    move_to(tournament, TournamentStatus.CANCELLED)
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    refunds = refund_everyone(tournament)
    tournament_events.record(
        tournament=tournament,
        kind="cancelled",
        data={
            "reason": "too_few_entrants",
            "entrants": entrants,
            "min_entrants": tournament.min_entrants,
            "refunds": [t.pk for t in refunds],
        },
    )
    return "cancelled"


def run_schedule(*, now: datetime | None = None) -> dict[str, int]:
    """One pass of the clock: how many tournaments were `opened`, `started`, `cancelled` (and `failed`)."""
    now = timezone.now() if now is None else now
    counts = {"opened": 0, "started": 0, "cancelled": 0, "failed": 0}
    for step, act in ((_due_to_open(now), open_registration), (_due_to_start(now), start_or_cancel)):
        for outcome, n in _each_locked(step, act).items():
            counts[outcome] += n
    return counts
