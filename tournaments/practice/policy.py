"""What a practice table decides (docs/tables.md "Practice tables"): rounds score points and never move chips,
the player's seat and the bots' are dealt in whatever their (empty) stacks, a round is dealt after the pause as at a
ring table while the player is there, and the table closes once the player's seat is freed (they left) or once a
round ends with the player absent (their timeouts)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings

from ledger.models import Account
from tournaments.live import AfterRound, RoundEnd, StackedDeal, cash_out, dispatch
from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat, SeatStatus, Table, TableStatus
from tournaments.practice.models import PracticeTable
from tournaments.practice.task_names import CLOSE_PRACTICE


class PracticeTablePolicy:
    ready_statuses: tuple[str, ...] = (SeatStatus.ACTIVE, SeatStatus.SITTING_OUT)
    # Points only: nothing is at stake, no ledger transfer is ever posted for a practice table.
    settles_chips = False
    instant_rounds = False
    deals_only_when_scheduled = False

    def __init__(self, practice: PracticeTable) -> None:
        self.practice = practice

    def round_end(
        self, *, table: Table, round_: Round, result: Mapping[str, Any], seated: int, settles: bool
    ) -> RoundEnd:
        pairs = [(status, chips) for status in SEATED_STATUSES for chips in (False, True)]
        return RoundEnd(
            fates={(s, c): self.after_round(status=s, stack=int(c)) for s, c in pairs},
            ready=frozenset([(s, c) for s, c in pairs if self.is_ready(status=s, stack=int(c))]),
            waits=[self.next_deal_in(ready=n) for n in range(seated + 1)],
            pcr=self.round_pcr(table, round_) if settles else 0,
            record=self.settlement_record(table, round_) if settles else {},
            tie_keys=self.tie_break_keys(result=result) if settles else None,
            acts_when_settled=True,
        )

    def round_pcr(self, table: Table, round_: Round) -> int:
        return 1  # never used to move chips (`settles_chips`)

    def settlement_record(self, table: Table, round_: Round) -> dict[str, Any]:
        return {"practice": True}

    def tie_break_keys(self, *, result: Mapping[str, Any]) -> Mapping[str, tuple[Any, ...]] | None:
        return None

    def holds_deal(self, *, game: Game, now: datetime) -> bool:
        # The player is gone (a message for a deal was already on its way): no round for the bots alone.
        present = Seat.objects.filter(
            table_id=game.table_id, player_id=self.practice.player_id, status__in=SEATED_STATUSES
        ).exists()
        if not present:
            dispatch.enqueue(CLOSE_PRACTICE, [game.table_id], 0)
        return not present

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        return True  # no chips at a practice table: everyone seated plays

    def status_at_deal(self, status: str) -> str:
        return SeatStatus.ACTIVE

    def enough_to_deal(self, players: int) -> bool:
        return players >= 2

    def after_round(self, *, status: str, stack: int) -> AfterRound:
        # An absent seat stays: a bot is absent only when its moves were lost and its clock played for it (it is
        # dealt in again, active); the player's absence closes the table (`round_settled`).
        return AfterRound.RELEASED if status == SeatStatus.LEAVING else AfterRound.STAYS

    def is_ready(self, *, status: str, stack: int) -> bool:
        return status in self.ready_statuses

    def next_deal_in(self, *, ready: int) -> float | None:
        if not self.enough_to_deal(ready):
            return None
        return float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)

    def return_stack(self, *, seat: Seat, table: Table, account: Account) -> None:
        # A practice seat's stack account is opened empty and nothing is ever posted to it.
        if account.balance != 0:
            raise RuntimeError(f"practice seat {seat.pk} holds {account.balance} chips")

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table, policy=self)

    def stacked_deal(self, *, table: Table, number: int) -> StackedDeal | None:
        deal = self.practice.first_deal
        if number != 1 or not deal:
            return None
        return StackedDeal(deck=tuple(deal["deck"]), dealer=str(deal["dealer"]))

    def seat_freed(self, *, table: Table, seat: Seat) -> None:
        # The player's seat freed at an open table (they left, or were released absent): the table closes.
        if seat.player_id == self.practice.player_id and table.status == TableStatus.OPEN:
            dispatch.enqueue(CLOSE_PRACTICE, [table.pk], 0)

    def dealt(self, *, table: Table, round_: Round) -> None:
        return None

    def round_settled(self, *, table: Table, round_id: int) -> None:
        # The player went away (absent after their timeouts): nobody is left to practise.
        away = Seat.objects.filter(
            table=table, player_id=self.practice.player_id, status=SeatStatus.ABSENT
        ).exists()
        if away and table.status == TableStatus.OPEN:
            dispatch.enqueue(CLOSE_PRACTICE, [table.pk], 0)


def practice_policy(table: Table) -> PracticeTablePolicy:
    return PracticeTablePolicy(PracticeTable.objects.get(table_id=table.pk))
