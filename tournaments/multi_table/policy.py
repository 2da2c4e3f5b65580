"""The table of a multi-table tournament (docs/tournaments.md "Multi-table tournaments: the runtime"): every
round settles chips by the PCR of the table's level (the level counted in that table's rounds), a tie for the
top score broken by the round's melded-and-built value and then by who went out, a seat stays whatever its
chips (busting is the tournament's job, `multi_progress`), and the table never schedules its own next deal:
each settled round sends the tournament's job (`tournaments.table_round_over`), which busts, balances and
deals again. In round-for-round play (the bubble) a table deals only the synchronized round it has not played
yet."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from ledger.models import Account
from tournaments.deals.services import holding_until
from tournaments.live import (
    AfterRound,
    RoundEnd,
    StackedDeal,
    cash_out,
    dispatch,
    melded_values,
    table_settings,
    went_out,
)
from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat, SeatStatus, Table, TableStatus
from tournaments.multi_table import task_names
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.levels import level_of, pcr_for
from tournaments.multi_table.seating import retire_stack
from tournaments.tournament.models import Tournament, TournamentStatus

# How long a deal held for another table's job (`MultiTablePolicy.holds_deal`) waits before it is tried again.
HOLD_SECONDS = 1.0


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
        # docs/tournaments.md "Multi-table tournaments: seating and places": first the higher melded-and-built
        # value of the round, then the player who went out.
        melded = melded_values(result, table_settings.build_rules(self.table.game, self.table.options))
        out = went_out(result)
        return {player: (value, 1 if player == out else 0) for player, value in melded.items()}

    def holds_deal(self, *, game: Game, now: datetime) -> bool:
        """The table is between rounds until it is dealt, so a plan may still take its players
        (docs/tournaments.md "Multi-table tournaments: the runtime": nobody is moved during a round; between
        rounds no two tables differ by more than one). The deal waits while another table's round is over with
        a seat left without chips and its job still to run (that job's plan may take players from this table):
        it is tried again in `HOLD_SECONDS`. And a table the plan would break (more tables than the players
        need, this one among the smallest: the size histogram says so without reading the other tables) is not
        dealt but sent its job, which breaks it (or deals it). A message lost meanwhile is re-sent by the
        sweeper (a deal due, or a table waiting with nothing scheduled). While a final-table deal waits for its
        answers, the deal waits till its time runs out (`deals.services`: its end deals at once)."""
        if self._rebuy_wait_over():
            game.next_round_at = None
            game.save(update_fields=["next_round_at", "updated_at"])
            dispatch.enqueue(task_names.TABLE_ROUND_OVER, [self.tournament.pk, self.table.pk, None], 0)
            return True
        until = holding_until(tournament_id=self.tournament.pk, now=now)
        if until is not None:
            game.next_round_at = until
            game.save(update_fields=["next_round_at", "updated_at"])
            dispatch.enqueue(dispatch.START_ROUND, [game.pk], (until - now).total_seconds())
            return True
        if self._busts_pending_elsewhere():
            game.next_round_at = now + timedelta(seconds=HOLD_SECONDS)
            game.save(update_fields=["next_round_at", "updated_at"])
            dispatch.enqueue(dispatch.START_ROUND, [game.pk], HOLD_SECONDS)
            return True
        if self._to_be_broken():
            game.next_round_at = None
            game.save(update_fields=["next_round_at", "updated_at"])
            dispatch.enqueue(task_names.TABLE_ROUND_OVER, [self.tournament.pk, self.table.pk, None], 0)
            return True
        return False

    def _rebuy_wait_over(self) -> bool:
        """A player busted in the rebuy period who did not rebuy before the deal is out: the deal waits for the
        tournament's job, which busts them (docs/rules.md "Rebuys and the add-on")."""
        return (
            self.tournament.rebuy_levels > 0
            and Seat.objects.filter(
                table=self.table, status__in=SEATED_STATUSES, stack_account__balance__lte=0
            ).exists()
        )

    def _busts_pending_elsewhere(self) -> bool:
        return (
            Seat.objects.filter(
                table__tournament_id=self.tournament.pk,
                table__awaiting_job=True,
                table__status=TableStatus.OPEN,
                status__in=SEATED_STATUSES,
                stack_account__balance__lte=0,
            )
            .exclude(table_id=self.table.pk)
            .exists()
        )

    def _to_be_broken(self) -> bool:
        tournament = self.tournament
        hist = tournament.table_sizes or {}
        if tournament.round_for_round or not table_sizes.consistent(
            hist, tables_open=tournament.tables_open, players_left=tournament.players_left
        ):
            return False  # the release plans every table; an untrusted histogram: the next job's plan
        if tournament.tables_open <= max(1, -(-tournament.players_left // tournament.seats)):
            return False
        size = Seat.objects.filter(table=self.table, status__in=SEATED_STATUSES).count()
        return table_sizes.to_break(
            hist,
            size=size,
            players_left=tournament.players_left,
            tables_open=tournament.tables_open,
            seats=tournament.seats,
        )

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        # Until the job of the round before has run, nobody is released (its busts are the job's).
        return stack > 0 or self.table.awaiting_job

    def status_at_deal(self, status: str) -> str:
        # An absent player stays absent (auto-played) until they come back (docs/tournaments.md "Absent
        # players").
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

    def return_stack(self, *, seat: Seat, table: Table, account: Account) -> None:
        retire_stack(seat=seat, table=table, account=account)  # tournament chips go back to the mint

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table, policy=self)

    def stacked_deal(self, *, table: Table, number: int) -> StackedDeal | None:
        return None

    def seat_freed(self, *, table: Table, seat: Seat) -> None:
        return None

    def dealt(self, *, table: Table, round_: Round) -> None:
        if self.tournament.round_for_round and table.played_sync_round != self.tournament.sync_round:
            table.played_sync_round = self.tournament.sync_round
            Table.objects.filter(pk=table.pk).update(played_sync_round=table.played_sync_round)

    def round_settled(self, *, table: Table, round_id: int) -> None:
        # No deal before the job (`awaiting_job`): another table's job may send this one a deal meanwhile.
        table.awaiting_job = True
        Table.objects.filter(pk=table.pk).update(awaiting_job=True)
        dispatch.enqueue(task_names.TABLE_ROUND_OVER, [self.tournament.pk, table.pk, round_id], 0)
