"""An admin's actions on a tournament (API.md; the Django admin calls these too): start, pause, resume, cancel.
Cancelling follows RULES §5: before the start every buy-in and fee is refunded; while running the unpaid pool
is split among the players still in (`payouts.cancel_split`)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ledger.models import Transfer
from tournaments.live import dispatch
from tournaments.live.models import Seat
from tournaments.multi_table import finish, progress
from tournaments.single_table.progress import close_tables, pay_cancellation
from tournaments.single_table.task_names import ADVANCE_TOURNAMENT
from tournaments.tournament import events, payouts
from tournaments.tournament.models import EntryStatus, Tournament, TournamentKind, TournamentStatus
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
        if tournament.kind == TournamentKind.MULTI:
            events.record(tournament=tournament, kind="paused")
        return tournament


def resume(*, tournament_id: int) -> Tournament:
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        move_to(tournament, TournamentStatus.RUNNING)
        tournament.save(update_fields=["status"])
        if tournament.kind == TournamentKind.MULTI:
            # Every table waiting with no deal scheduled is dealt (each deal decides for itself).
            progress.resume_tables(tournament)
            events.record(tournament=tournament, kind="resumed")
            return tournament
        # The job decides again from the rounds played: the next deal, a tie-breaker, or the end.
        dispatch.enqueue(ADVANCE_TOURNAMENT, [tournament.pk, None], 0)
        return tournament


def refund_everyone(tournament: Tournament) -> list[Transfer]:
    """Before the start: every live entry's buy-in and fee back (entries `refunded`). The caller holds the
    tournament's lock and has moved it to cancelled."""
    transfers: list[Transfer] = []
    for entry in live_entries(tournament):
        transfer = refund(tournament=tournament, entry=entry, status=EntryStatus.REFUNDED)
        if transfer is not None:
            transfers.append(transfer)
    return transfers


def cancel(*, tournament_id: int) -> tuple[Tournament, list[Transfer]]:
    """Cancel; answers the transfers it posted."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        before_start = tournament.status in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        move_to(tournament, TournamentStatus.CANCELLED)
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        transfers: list[Transfer] = []
        if before_start:
            transfers = refund_everyone(tournament)
            if tournament.kind == TournamentKind.MULTI:
                events.record(
                    tournament=tournament,
                    kind="cancelled",
                    data={"reason": "admin", "refunded": len(transfers)},
                )
            return tournament, transfers
        if tournament.kind == TournamentKind.MULTI:
            transfers += [t for t in finish.cancel_running(tournament=tournament) if isinstance(t, Transfer)]
            return tournament, transfers
        still_in = {
            e.player.get_username(): e for e in live_entries(tournament) if e.status == EntryStatus.PLAYING
        }
        seat_numbers = dict(
            Seat.objects.filter(table__tournament=tournament).values_list("player__username", "number")
        )
        seat_order = sorted(still_in, key=lambda p: (seat_numbers.get(p, 0), p))
        # At one table a player's weight is their total (RULES §5 speaks of the chips of a multi-table one).
        weights = {p: e.total for p, e in still_in.items()}
        shares, transfer = pay_cancellation(
            tournament=tournament, weights=weights, seat_order=seat_order, entries=still_in
        )
        if transfer is not None:
            transfers.append(transfer)
        places = payouts.place_by_totals({p: e.total for p, e in still_in.items()})
        for player, entry in still_in.items():
            entry.place = places[player]
            entry.prize = shares[player]
            entry.status = EntryStatus.FINISHED
            entry.save(update_fields=["place", "prize", "status"])
        close_tables(tournament)
        return tournament, transfers
