"""The one-table kinds (a quick game, a sit-and-go) as the shared tournament code and live play see them
(`tournament.kinds`), registered when the app is ready (`TournamentsConfig.ready`)."""

from __future__ import annotations

from ledger.models import Transfer
from tournaments.live import TablePolicy, dispatch
from tournaments.live.models import Table
from tournaments.single_table import events, progress
from tournaments.single_table.policy import OneTableTournamentPolicy
from tournaments.single_table.start import start_one_table
from tournaments.single_table.task_names import ADVANCE_TOURNAMENT
from tournaments.tournament import kinds
from tournaments.tournament.models import ONE_TABLE_KINDS, Tournament


def table_policy(tournament: Tournament, table: Table) -> TablePolicy:
    return OneTableTournamentPolicy(tournament)


def paused(tournament: Tournament) -> None:
    # Its job deals no new round while it is paused (`OneTableTournamentPolicy.enough_to_deal`).
    events.paused(tournament=tournament)


def resumed(tournament: Tournament) -> None:
    # The job decides again from the rounds played: the next deal, a tie-breaker, or the end.
    events.resumed(tournament=tournament)
    dispatch.enqueue(ADVANCE_TOURNAMENT, [tournament.pk, None], 0)


def cancelled_before_start(tournament: Tournament, refunded: int) -> None:
    events.cancelled_before_start(tournament=tournament, refunded=refunded)


def cancel_running(tournament: Tournament) -> list[Transfer]:
    return progress.cancel_running(tournament)


def register() -> None:
    for name in ONE_TABLE_KINDS:
        kinds.register(
            kinds.Kind(
                name=name,
                table_policy=table_policy,
                start=start_one_table,
                starts_when_full=True,
                late_entry=None,
                paused=paused,
                resumed=resumed,
                cancelled_before_start=cancelled_before_start,
                cancel_running=cancel_running,
            )
        )
