"""What the kind of table decides when a round starts and ends (docs/tables.md "Lifecycle" for ring tables).

Play asks the table's policy, and never hard-codes a kind of table: the chips a point is worth in a round,
how a tie for the top score is broken, what becomes of a seat at the deal and after the round, and whether and
when the next round is dealt. A ring table is the only kind today (`RingTablePolicy`); a tournament table
supplies its own (the PCR of its level, the multi-table tie-break keys, busting instead of unseating, waiting for
the tournament instead of dealing again) and `policy_for` picks it.

The decisions are pure (plain values in, a decision out); `release` is the one that acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings

from tournaments.live import dispatch
from tournaments.live.models import Game, Round, Seat, SeatStatus, Table
from tournaments.live.policy_types import AfterRound, TablePolicy
from tournaments.live.seats import cash_out
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.tournament.models import (
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStage,
    TournamentStatus,
)

__all__ = ["RING", "AfterRound", "OneTableTournamentPolicy", "RingTablePolicy", "TablePolicy", "policy_for"]


class RingTablePolicy:
    """A ring table: chips are the players' own, anyone may come and go between rounds (docs/tables.md
    "Lifecycle")."""

    ready_statuses: tuple[str, ...] = (SeatStatus.ACTIVE, SeatStatus.SITTING_OUT)
    settles_chips = True
    min_players = 2

    instant_rounds = False
    deals_only_when_scheduled = False

    def round_pcr(self, table: Table, round_: Round) -> int:
        return table.pcr * table.multiplier

    def settlement_record(self, table: Table, round_: Round) -> dict[str, Any]:
        return {"table_pcr": table.pcr, "multiplier": table.multiplier}

    def tie_break_keys(self, *, result: Mapping[str, Any]) -> Mapping[str, tuple[Any, ...]] | None:
        return None  # a tie for the top score is shared

    def holds_deal(self, *, game: Game, now: datetime) -> bool:
        return False

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        # No chips and no top-up during the pause: unseated (docs/rules.md "Ring tables, clocks and
        # timeouts").
        return stack > 0

    def status_at_deal(self, status: str) -> str:
        return SeatStatus.ACTIVE

    def enough_to_deal(self, players: int) -> bool:
        return players >= self.min_players

    def after_round(self, *, status: str, stack: int) -> AfterRound:
        if status in (SeatStatus.LEAVING, SeatStatus.ABSENT):
            return AfterRound.RELEASED
        if status == SeatStatus.ACTIVE and stack <= 0:
            # Busted: the pause before the next deal is the time to top up (else unseated at the deal).
            return AfterRound.SITS_OUT
        return AfterRound.STAYS

    def is_ready(self, *, status: str, stack: int) -> bool:
        return status in self.ready_statuses and stack > 0

    def next_deal_in(self, *, ready: int) -> float | None:
        if not self.enough_to_deal(ready):
            return None
        return float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table)

    def dealt(self, *, table: Table, round_: Round) -> None:
        return None

    def round_settled(self, *, table: Table, round_id: int) -> None:
        return None  # the next deal is scheduled by `next_deal_in`


RING = RingTablePolicy()


class OneTableTournamentPolicy:
    """The table of a quick game or a sit-and-go (docs/tournaments.md "Lifecycle"): rounds score points, never
    chips, until the prizes; the tournament decides after each round whether and whom to deal next
    (`tournament_progress`), so the table never schedules a deal itself; an absent player stays and keeps
    being auto-played."""

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

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table)  # the stack is empty: only the chair is freed

    def dealt(self, *, table: Table, round_: Round) -> None:
        return None

    def round_settled(self, *, table: Table, round_id: int) -> None:
        dispatch.enqueue(dispatch.ADVANCE_TOURNAMENT, [self.tournament.pk, round_id], 0)


def policy_for(table: Table) -> TablePolicy:
    """The policy of `table`'s kind: a ring table, the table of a one-table tournament, or of a multi-table one."""
    if table.tournament_id is None:
        return RING
    tournament = Tournament.objects.get(pk=table.tournament_id)
    if tournament.kind == TournamentKind.MULTI:
        return MultiTablePolicy(tournament, table)
    return OneTableTournamentPolicy(tournament)
