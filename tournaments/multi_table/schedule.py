"""The multi-table tournaments' clock (the beat job `tournaments.run_tournament_schedule`, every 10 s): a
`scheduled` tournament whose `registration_opens_at` has come starts registering; a `registering` multi-table
tournament whose `starts_at` has come starts (`tournament_start.start_locked`) or, with fewer than
`min_entrants` registered, is cancelled with every buy-in and fee refunded (docs/tournaments.md "The schedule
(beat job)").

One transaction per tournament, its row taken with `SELECT ... FOR UPDATE SKIP LOCKED`: two beat runs at once
never act on the same tournament (the second skips it), and each re-checks the status under the lock, so a run
repeated (or redelivered) does nothing more. A tournament that fails is rolled back and the others go on.

A start that fails is never retried for ever with the entrants' chips held: a transient fault (the database or
the broker away, `database.faults.TRANSIENT_ERRORS`) is counted on the tournament (`start_failures`, `error`) and
left for the next run, at most `RAMINO_TOURNAMENT_START_ATTEMPTS` attempts in all; any other failure, or the
last attempt, cancels the tournament with its reason (`error`), every entry refunded, event `cancelled`
{reason: start_failed}."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from database.faults import TRANSIENT_ERRORS
from tournaments.errors import PlayError
from tournaments.tournament import events
from tournaments.tournament.admin_actions import refund_everyone
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from tournaments.tournament.start import start_locked
from tournaments.tournament.status import move_to

logger = logging.getLogger(__name__)

# How many tournaments one run handles per step at most (the next run, 10 s later, takes the rest).
BATCH = 100


def _due_to_open(now: datetime) -> Q:
    return Q(status=TournamentStatus.SCHEDULED, registration_opens_at__lte=now)


def _due_to_start(now: datetime) -> Q:
    return Q(status=TournamentStatus.REGISTERING, kind=TournamentKind.MULTI, starts_at__lte=now)


def _locked(due: Q, tournament_id: int) -> Tournament | None:
    """The tournament's row locked if it is still due (None: another run holds it, or it moved on)."""
    return Tournament.objects.select_for_update(skip_locked=True).filter(due, pk=tournament_id).first()


def _each_locked(
    due: Q,
    act: Callable[[Tournament], str],
    failed: Callable[[Q, int, Exception], str] | None = None,
) -> dict[str, int]:
    """`act` on each due tournament, in its own transaction, its row locked (skipped if another run holds it).
    A tournament whose `act` raises is rolled back; `failed` (if given) then decides, in a transaction of its
    own, what becomes of it."""
    counts: dict[str, int] = {}
    ids = list(
        Tournament.objects.filter(due).order_by("starts_at", "pk").values_list("pk", flat=True)[:BATCH]
    )
    for tournament_id in ids:
        try:
            with transaction.atomic():
                tournament = _locked(due, tournament_id)
                if tournament is None:
                    continue
                outcome = act(tournament)
        except Exception as exc:
            if failed is None:
                logger.exception(
                    "tournament %s: the schedule failed; the next run tries again", tournament_id
                )
                outcome = "failed"
            else:
                outcome = failed(due, tournament_id, exc)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def open_registration(tournament: Tournament) -> str:
    """Scheduled → registering (the caller holds the row lock)."""
    move_to(tournament, TournamentStatus.REGISTERING)
    tournament.save(update_fields=["status"])
    events.record(
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
    events.record(
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


def failure_reason(exc: Exception) -> str:
    """What a failed start stores and shows: our own validation's code and message, else only the exception's
    type (its message might quote anything; the log has the traceback)."""
    if isinstance(exc, PlayError):
        return f"{exc.code}: {exc.message}"[:500]
    if isinstance(exc, TRANSIENT_ERRORS):
        return f"the database or the message broker was unavailable ({type(exc).__name__})"
    return f"the start raised {type(exc).__name__}"


def start_failed(due: Q, tournament_id: int, exc: Exception) -> str:
    """After a start that raised (rolled back): count the failure and leave a transient one for the next run, or
    cancel the tournament with its reason and refund every entry. Answers `failed` or `cancelled`."""
    reason = failure_reason(exc)
    transient = isinstance(exc, TRANSIENT_ERRORS)
    attempts = int(settings.RAMINO_TOURNAMENT_START_ATTEMPTS)
    try:
        with transaction.atomic():
            tournament = _locked(due, tournament_id)
            if tournament is None:
                return "failed"  # another run has it now
            tournament.start_failures += 1
            tournament.error = reason
            if transient and tournament.start_failures < attempts:
                logger.warning(
                    "tournament %s: start attempt %s of %s failed on a transient fault (%s); the next run "
                    "tries again",
                    tournament_id,
                    tournament.start_failures,
                    attempts,
                    reason,
                    exc_info=exc,
                )
                tournament.save(update_fields=["start_failures", "error"])
                if tournament.start_failures == 1:
                    # One event, so that the entrants' pages (which follow the event log) show the delay.
                    events.record(
                        tournament=tournament,
                        kind="start_failed",
                        data={"error": reason, "attempt": 1, "attempts": attempts, "retrying": True},
                    )
                return "failed"
            logger.error(
                "tournament %s: the start failed (%s) after %s attempt(s); cancelled, every entry refunded",
                tournament_id,
                reason,
                tournament.start_failures,
                exc_info=exc,
            )
            cancel_failed_start(tournament)
            return "cancelled"
    except Exception:
        # Even recording the failure failed (the database still away): nothing changed, the next run tries.
        logger.exception(
            "tournament %s: the start failed and its failure could not be recorded", tournament_id
        )
        return "failed"


def cancel_failed_start(tournament: Tournament) -> None:
    """A start that cannot be made (the caller holds the row lock and has set `error` and `start_failures`):
    cancelled, every buy-in and fee refunded (idempotency keys `tournament:<id>:entry:<e>:refund`), event
    `cancelled` {reason: start_failed, error, attempts, entrants, refunds}."""
    entrants = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count()
    move_to(tournament, TournamentStatus.CANCELLED)
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at", "start_failures", "error"])
    refunds = refund_everyone(tournament)
    events.record(
        tournament=tournament,
        kind="cancelled",
        data={
            "reason": "start_failed",
            "error": tournament.error,
            "attempts": tournament.start_failures,
            "entrants": entrants,
            "refunds": [t.pk for t in refunds],
        },
    )


def run_schedule(*, now: datetime | None = None) -> dict[str, int]:
    """One pass of the clock: how many tournaments were `opened`, `started`, `cancelled` (below the minimum, or
    their start given up) and `failed` (a transient failure left for the next run, or a step that raised)."""
    now = timezone.now() if now is None else now
    counts = {"opened": 0, "started": 0, "cancelled": 0, "failed": 0}
    for outcome, n in _each_locked(_due_to_open(now), open_registration).items():
        counts[outcome] += n
    for outcome, n in _each_locked(_due_to_start(now), start_or_cancel, start_failed).items():
        counts[outcome] += n
    return counts
