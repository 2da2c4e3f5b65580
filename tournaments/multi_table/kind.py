"""The multi-table kind as the shared tournament code and live play see it (`tournament.kinds`), registered
when the app is ready (`TournamentsConfig.ready`)."""

from __future__ import annotations

from django.contrib.auth.models import User

from ledger.models import Transfer
from tournaments.live import TablePolicy
from tournaments.live.models import Table
from tournaments.multi_table import finish, progress
from tournaments.multi_table.late_entry import late_entry as enter_late
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.multi_table.start import refuse_while_starting, start_multi
from tournaments.tournament import events, kinds
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentKind


def table_policy(tournament: Tournament, table: Table) -> TablePolicy:
    return MultiTablePolicy(tournament, table)


def late_entry(tournament: Tournament, user: User) -> TournamentEntry:
    return enter_late(tournament=tournament, user=user)


def paused(tournament: Tournament) -> None:
    events.record(tournament=tournament, kind="paused")


def resumed(tournament: Tournament) -> None:
    # Every table waiting with no deal scheduled is dealt (each deal decides for itself).
    progress.resume_tables(tournament)
    events.record(tournament=tournament, kind="resumed")


def cancelled_before_start(tournament: Tournament, refunded: int) -> None:
    events.record(tournament=tournament, kind="cancelled", data={"reason": "admin", "refunded": refunded})


def cancel_running(tournament: Tournament) -> list[Transfer]:
    refuse_while_starting(tournament)  # 409 while a batched start seats its tables (nothing kept)
    return [t for t in finish.cancel_running(tournament=tournament) if isinstance(t, Transfer)]


KIND = kinds.Kind(
    name=TournamentKind.MULTI,
    table_policy=table_policy,
    start=start_multi,
    starts_when_full=False,
    late_entry=late_entry,
    paused=paused,
    resumed=resumed,
    cancelled_before_start=cancelled_before_start,
    cancel_running=cancel_running,
)


def register() -> None:
    kinds.register(KIND)
