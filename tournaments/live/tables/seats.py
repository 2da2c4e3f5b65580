"""Freeing a seat: the one way chips leave a table, used by leaving, closing and play alike. Where the stack goes
is the table's policy's to say (`TablePolicy.return_stack`): site chips back to the player's wallet
(`to_wallet`), a multi-table tournament's chips back to its mint, never to a wallet, whatever releases the seat
(a closing table's wind-down included)."""

from __future__ import annotations

from django.utils import timezone

from ledger.models import Account, TransferKind
from ledger.services import accounts, postings
from tournaments.live.models import Seat, SeatStatus, Table
from tournaments.live.tables.policy_types import TablePolicy


def cash_out(*, seat: Seat, table: Table, policy: TablePolicy) -> None:
    """The stack where `policy` sends it (`return_stack`) and the chair freed. Caller holds the table lock."""
    if seat.stack_account_id is not None:  # a practice seat has none: nothing to return
        account = Account.objects.select_for_update().get(pk=seat.stack_account_id)
        policy.return_stack(seat=seat, table=table, account=account)
    seat.status = SeatStatus.LEFT
    seat.left_at = timezone.now()
    seat.save(update_fields=["status", "left_at"])
    policy.seat_freed(table=table, seat=seat)


def to_wallet(*, seat: Seat, table: Table, account: Account) -> None:
    """A stack of site chips back to the player's wallet (a ring table's, a one-table tournament's)."""
    if account.balance > 0:
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
