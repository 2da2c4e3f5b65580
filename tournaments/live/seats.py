"""Freeing a seat: the one way chips leave a table, used by leaving, closing and play alike. Site chips go back to
the player's wallet; a multi-table tournament's chips go back to its mint (`multi_seating.retire_stack`), never to
a wallet, whatever releases the seat (a closing table's wind-down included)."""

from __future__ import annotations

from django.utils import timezone

from ledger.models import SITE_CHIPS, Account, TransferKind
from ledger.services import accounts, postings
from tournaments.live.models import Seat, SeatStatus, Table
from tournaments.multi_table.seating import retire_stack


def cash_out(*, seat: Seat, table: Table) -> None:
    """Stack back to the wallet (tournament chips: to the mint) and free the chair. Caller holds the table lock."""
    account = Account.objects.select_for_update().get(pk=seat.stack_account_id)
    if account.chip_type != SITE_CHIPS:
        retire_stack(seat=seat, table=table, account=account)
    elif account.balance > 0:
        postings.move_chips(
            source=account,
            destination=accounts.get_wallet(user=seat.player),
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
