"""Freeing a seat: the one way chips leave a table for the wallet, used by leaving, closing and play alike."""

from __future__ import annotations

from django.utils import timezone

from ledger import services as ledger
from ledger.models import Account, TransferKind
from tournaments.models import Seat, SeatStatus, Table


def cash_out(*, seat: Seat, table: Table) -> None:
    """Stack back to the wallet and free the chair. Caller holds the table lock."""
    account = Account.objects.select_for_update().get(pk=seat.stack_account_id)
    if account.balance > 0:
        ledger.move_chips(
            source=account,
            destination=ledger.get_wallet(user=seat.player),
            amount=account.balance,
            kind=TransferKind.CASH_OUT,
            idempotency_key=f"seat:{seat.pk}:cash_out",
            reason=f"cash-out at table {table.pk}",
            table_id=table.pk,
            posted_by_system="tournaments.cash_out",
        )
    seat.status = SeatStatus.LEFT
    seat.left_at = timezone.now()
    seat.save(update_fields=["status", "left_at"])
