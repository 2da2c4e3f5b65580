"""An admin's actions on a tournament (docs/api.md "Tournaments"; the Django admin calls these too): start,
pause, resume, cancel. Cancelling follows docs/tournaments.md "Lifecycle": before the start every buy-in and
fee is refunded; while running the unpaid pool is split among the players still in (`payouts.cancel_split`).
What a kind does besides (its events, its tables dealt again, its own cancellation) is its kind's
(`kinds.Kind`)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ledger.models import Transfer
from tournaments.tickets import services as tickets
from tournaments.tournament import kinds
from tournaments.tournament.models import EntryStatus, Tournament, TournamentStatus
from tournaments.tournament.registration import live_entries, refund
from tournaments.tournament.start import start_locked
from tournaments.tournament.status import lock_tournament, move_to


def start(*, tournament_id: int) -> Tournament:
    """Start before it is full, with at least `min_entrants` registered."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        start_locked(tournament)
        return tournament


def pause(*, tournament_id: int) -> Tournament:
    """No new round is dealt (a round in play finishes)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        move_to(tournament, TournamentStatus.PAUSED)
        tournament.save(update_fields=["status"])
        kinds.kind_of(tournament).paused(tournament)
        return tournament


def resume(*, tournament_id: int) -> Tournament:
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        move_to(tournament, TournamentStatus.RUNNING)
        tournament.save(update_fields=["status"])
        kinds.kind_of(tournament).resumed(tournament)
        return tournament


def refund_everyone(tournament: Tournament) -> list[Transfer]:
    """Before the start: every live entry's buy-in and fee back (entries `refunded`). The caller holds the
    tournament's lock and has moved it to cancelled."""
    transfers: list[Transfer] = []
    for entry in live_entries(tournament):
        transfer = refund(tournament=tournament, entry=entry, status=EntryStatus.REFUNDED)
        if transfer is not None:
            transfers.append(transfer)
    # The tickets to it (and to its template's next tournament) still held become chips (docs/rules.md "Tickets").
    tickets.convert_at_end(tournament, cancelled=True)
    return transfers


def cancel(*, tournament_id: int) -> tuple[Tournament, list[Transfer]]:
    """Cancel; answers the transfers it posted."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        before_start = tournament.status in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        move_to(tournament, TournamentStatus.CANCELLED)
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        kind = kinds.kind_of(tournament)
        if before_start:
            transfers = refund_everyone(tournament)
            kind.cancelled_before_start(tournament, len(transfers))
            return tournament, transfers
        transfers = kind.cancel_running(tournament)
        return tournament, transfers + tickets.convert_at_end(tournament, cancelled=True)
