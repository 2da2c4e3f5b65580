"""Seats of a multi-table tournament: a table opened, an entrant seated with minted chips, moved, released."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Account, AccountKind, Transfer, TransferKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi
from tournaments.live.models import Seat, SeatStatus
from tournaments.live.tables.policy import policy_for
from tournaments.live.tables.seats import cash_out
from tournaments.multi_table import seating
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def test_seat_move_and_release_keep_tournament_chips_off_wallets(make_player: Any, admin_user: Any) -> None:
    tournament = new_multi(admin_user, status=TournamentStatus.RUNNING)
    ann = make_player("ann", chips=1000)
    entry = TournamentEntry.objects.create(tournament=tournament, player=ann)
    first = seating.open_tournament_table(tournament=tournament)
    second = seating.open_tournament_table(tournament=tournament)
    assert first.pcr == 1 and first.min_buy_in == first.max_buy_in == 1000 and first.seats == 4
    assert tournament.tables_open == 2
    seat = seating.seat_entrant(tournament=tournament, entry=entry, table=first, stack=1000, key="k:ann")
    entry.refresh_from_db()
    tournament.refresh_from_db()
    assert entry.status == EntryStatus.PLAYING and entry.seat_id == seat.pk and entry.table_id == first.pk
    assert tournament.players_left == 1
    assert seat.stack_account.chip_type == tournament_chip_type(tournament.pk)
    assert seat.stack_account.user_id == ann.pk and seat.status == SeatStatus.ACTIVE
    assert chips_conserved(tournament) == 1000
    moved = seating.move_entrant(tournament=tournament, entry=entry, destination=second, number=2, key="mv:1")
    seat.refresh_from_db()
    assert seat.status == SeatStatus.LEFT and moved.table_id == second.pk and moved.number == 2
    assert moved.stack_account.balance == 1000 and entry.times_moved == 1
    assert Transfer.objects.get(idempotency_key="mv:1").kind == TransferKind.TRANSFER
    wallet = Account.objects.get(kind=AccountKind.WALLET, user=ann).balance
    cash_out(seat=moved, table=second, policy=policy_for(second))  # its kind's policy: chips to the mint
    assert Account.objects.get(kind=AccountKind.WALLET, user=ann).balance == wallet
    assert Transfer.objects.get(idempotency_key=f"seat:{moved.pk}:retire").kind == TransferKind.RETIRE
    assert chips_conserved(tournament) == 0
    assert Seat.objects.get(pk=moved.pk).status == SeatStatus.LEFT
    assert_reconciled()
