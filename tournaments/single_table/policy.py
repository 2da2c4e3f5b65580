"""The table of a one-table tournament (a quick game, a sit-and-go; docs/tournaments.md "Lifecycle"): its `TablePolicy`, registered for
both kinds when the app is ready (`single_table.kind`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ledger.models import Account
from tournaments.live import AfterRound, RoundEnd, StackedDeal, cash_out, dispatch, to_wallet
from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat, SeatStatus, Table
from tournaments.single_table import task_names
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStage, TournamentStatus


class OneTableTournamentPolicy:
    """The table of a quick game or a sit-and-go (docs/tournaments.md "Lifecycle"): rounds score points, never chips, until the prizes;
    the tournament decides after each round whether and whom to deal next (`single_table.progress`), so the
    table never schedules a deal itself; an absent player stays and keeps being auto-played."""

    ready_statuses: tuple[str, ...] = (SeatStatus.ACTIVE, SeatStatus.ABSENT)
    settles_chips = False

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.tiebreakers: frozenset[int] = frozenset()
        if tournament.stage == TournamentStage.TIEBREAK:
            self.tiebreakers = frozenset(
                TournamentEntry.objects.filter(tournament=tournament, in_tiebreak=True).values_list(
                    "player_id", flat=True
                )
            )

    instant_rounds = False
    deals_only_when_scheduled = False

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
        return {"tournament": self.tournament.pk}

    def tie_break_keys(self, *, result: Mapping[str, Any]) -> Mapping[str, tuple[Any, ...]] | None:
        return None  # a tie for the top total is the tournament's (tie-breaker rounds)

    def holds_deal(self, *, game: Game, now: datetime) -> bool:
        return False

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        # Tie-breaker rounds are played by the tied players only; everyone else is out.
        return self.tournament.stage == TournamentStage.MAIN or seat.player_id in self.tiebreakers

    def status_at_deal(self, status: str) -> str:
        # An absent player stays absent (auto-played) until they come back (docs/tournaments.md "Absent
        # players").
        return SeatStatus.ABSENT if status == SeatStatus.ABSENT else SeatStatus.ACTIVE

    def enough_to_deal(self, players: int) -> bool:
        # A paused tournament deals no new round, whatever start message was already on its way.
        return self.tournament.status == TournamentStatus.RUNNING and players >= 2

    def after_round(self, *, status: str, stack: int) -> AfterRound:
        return AfterRound.STAYS

    def is_ready(self, *, status: str, stack: int) -> bool:
        return status in self.ready_statuses

    def next_deal_in(self, *, ready: int) -> float | None:
        return None  # the tournament's job schedules the next deal

    def return_stack(self, *, seat: Seat, table: Table, account: Account) -> None:
        to_wallet(seat=seat, table=table, account=account)  # site chips (an empty stack: points only)

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table, policy=self)  # the stack is empty: only the chair is freed

    def stacked_deal(self, *, table: Table, number: int) -> StackedDeal | None:
        return None

    def seat_freed(self, *, table: Table, seat: Seat) -> None:
        return None

    def dealt(self, *, table: Table, round_: Round) -> None:
        return None

    def round_settled(self, *, table: Table, round_id: int) -> None:
        dispatch.enqueue(task_names.ADVANCE_TOURNAMENT, [self.tournament.pk, round_id], 0)
