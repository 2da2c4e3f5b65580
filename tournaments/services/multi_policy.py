"""The table of a multi-table tournament (RULES §5 "Multi-table tournament"): every round settles chips by the
PCR of the table's level (the level counted in that table's rounds), a tie for the top score broken by the
round's melded-and-built value and then by who went out, a seat stays whatever its chips (busting is the
tournament's job, `multi_progress`), and the table never schedules its own next deal: each settled round sends
the tournament's job (`tournaments.table_round_over`), which busts, balances and deals again. In round-for-round
play (the bubble) a table deals only the synchronized round it has not played yet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.models import Round, Seat, SeatStatus, Table, Tournament, TournamentStatus
from tournaments.services import dispatch, engine_io
from tournaments.services.levels import level_of, pcr_for
from tournaments.services.policy_types import AfterRound
from tournaments.services.seats import cash_out


def level_pcr(tournament: Tournament, round_number: int) -> tuple[int, int]:
    """(level, PCR of that level) of a table's round `round_number` (before the multiplier)."""
    level = level_of(round_number, rounds_per_level=int(tournament.rounds_per_level or 1))
    schedule = [int(p) for p in tournament.pcr_schedule or []] or [1]
    return level, pcr_for(level, schedule=schedule)


class MultiTablePolicy:
    ready_statuses: tuple[str, ...] = (SeatStatus.ACTIVE, SeatStatus.ABSENT)
    settles_chips = True
    deals_only_when_scheduled = True

    def __init__(self, tournament: Tournament, table: Table) -> None:
        self.tournament = tournament
        self.table = table
        self.instant_rounds = bool(tournament.instant_rounds)

    def round_pcr(self, table: Table, round_: Round) -> int:
        return level_pcr(self.tournament, round_.number)[1] * self.tournament.multiplier

    def settlement_record(self, table: Table, round_: Round) -> dict[str, Any]:
        level, pcr = level_pcr(self.tournament, round_.number)
        return {
            "tournament": self.tournament.pk,
            "level": level,
            "level_pcr": pcr,
            "multiplier": self.tournament.multiplier,
        }

    def tie_break_keys(self, *, result: Mapping[str, Any]) -> Mapping[str, tuple[Any, ...]] | None:
        # RULES §5: first the higher melded-and-built value of the round, then the player who went out.
        melded = engine_io.melded_values(result, engine_io.build_rules(self.table.game, self.table.options))
        out = engine_io.went_out(result)
        return {player: (value, 1 if player == out else 0) for player, value in melded.items()}

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        # Until the job of the round before has run, nobody is released (its busts are the job's).
        return stack > 0 or self.table.awaiting_job

    def status_at_deal(self, status: str) -> str:
        # An absent player stays absent (auto-played) until they come back (RULES §5 "Clocks").
        return SeatStatus.ABSENT if status == SeatStatus.ABSENT else SeatStatus.ACTIVE

    def enough_to_deal(self, players: int) -> bool:
        if self.tournament.status != TournamentStatus.RUNNING or players < 2 or self.table.awaiting_job:
            return False
        # Round-for-round: only the synchronized round this table has not dealt yet.
        return (
            not self.tournament.round_for_round or self.table.played_sync_round < self.tournament.sync_round
        )

    def after_round(self, *, status: str, stack: int) -> AfterRound:
        return AfterRound.STAYS  # a seat without chips is busted by the tournament's job

    def is_ready(self, *, status: str, stack: int) -> bool:
        return status in self.ready_statuses and stack > 0

    def next_deal_in(self, *, ready: int) -> float | None:
        return None  # the tournament's job schedules the next deal

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table)  # any tournament chips go back to the mint

    def dealt(self, *, table: Table, round_: Round) -> None:
        if self.tournament.round_for_round and table.played_sync_round != self.tournament.sync_round:
            table.played_sync_round = self.tournament.sync_round
            Table.objects.filter(pk=table.pk).update(played_sync_round=table.played_sync_round)

    def round_settled(self, *, table: Table, round_id: int) -> None:
        # No deal before the job (`awaiting_job`): another table's job may send this one a deal meanwhile.
        table.awaiting_job = True
        Table.objects.filter(pk=table.pk).update(awaiting_job=True)
        dispatch.enqueue(dispatch.TABLE_ROUND_OVER, [self.tournament.pk, table.pk, round_id], 0)
