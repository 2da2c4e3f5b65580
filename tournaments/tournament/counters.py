"""The tournament row's constant-cost counters (docs/tournaments.md "Counters on the tournament's row"): `entrants` (live entries:
registered, playing, busted, finished) and `reentries`, beside the runtime's `players_left` and `tables_open`.
Each is changed by one `UPDATE ... SET n = n + k` in the transaction that changes the entries (or the tables),
so the list, registration and the lobby read them instead of counting; `check` compares them with a count, and
every recorded reconciliation run reports what it finds (`problems`, registered in tournaments/apps.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from tournaments.live.models import Table, TableStatus
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    EntryStatus,
    Tournament,
    TournamentKind,
    TournamentStatus,
)


def add(tournament: Tournament, *, entrants: int = 0, reentries: int = 0) -> None:
    """Change the counters by the given amounts (one statement) and on the instance alike."""
    Tournament.objects.filter(pk=tournament.pk).update(
        entrants=F("entrants") + entrants, reentries=F("reentries") + reentries
    )
    tournament.entrants += entrants
    tournament.reentries += reentries


@dataclass(frozen=True)
class Mismatch:
    tournament: int
    counter: str
    kept: int
    counted: int


def check(*, tournament_ids: list[int] | None = None) -> list[Mismatch]:
    """Every counter that disagrees with a count (all tournaments, or `tournament_ids`): the entrants and
    re-entries of every tournament, the open tables of every multi-table one (the lobby's tables page counts
    them so) and the players left of a running multi-table one."""
    found = Tournament.objects.all()
    if tournament_ids is not None:
        found = found.filter(pk__in=tournament_ids)
    rows = found.annotate(
        counted_entrants=Count("entries", filter=Q(entries__status__in=LIVE_ENTRY_STATUSES)),
        counted_reentries=Coalesce(
            Sum("entries__reentries", filter=Q(entries__status__in=LIVE_ENTRY_STATUSES)), 0
        ),
        counted_playing=Count("entries", filter=Q(entries__status=EntryStatus.PLAYING)),
    ).values(
        "pk",
        "kind",
        "status",
        "entrants",
        "reentries",
        "players_left",
        "tables_open",
        "counted_entrants",
        "counted_reentries",
        "counted_playing",
    )
    # The open tables in a query of their own: as a subquery beside the entries' aggregate, Django groups by it,
    # and PostgreSQL ran it once per entry (three tournaments of 250,000 entrants: more than 13 minutes).
    tables = Table.objects.filter(status=TableStatus.OPEN, tournament__isnull=False)
    if tournament_ids is not None:
        tables = tables.filter(tournament_id__in=tournament_ids)
    open_tables = dict(
        tables.order_by().values("tournament").annotate(n=Count("pk")).values_list("tournament", "n")
    )
    problems: list[Mismatch] = []
    for row in rows:
        pairs = [("entrants", "counted_entrants"), ("reentries", "counted_reentries")]
        if row["kind"] == TournamentKind.MULTI:
            row["counted_tables"] = open_tables.get(row["pk"], 0)
            pairs.append(("tables_open", "counted_tables"))
            if row["status"] in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
                pairs.append(("players_left", "counted_playing"))
        for kept, counted in pairs:
            if int(row[kept]) != int(row[counted]):
                problems.append(
                    Mismatch(
                        tournament=row["pk"], counter=kept, kept=int(row[kept]), counted=int(row[counted])
                    )
                )
    return problems


def problems() -> list[dict[str, Any]]:
    """`check` of every tournament as the reconciliation's problems (`ledger.services.reconciliation`)."""
    return [
        {
            "code": "tournament.counter_mismatch",
            "message": (
                f"Tournament #{found.tournament} keeps {found.counter} = {found.kept} but counts {found.counted}."
            ),
            "tournament": found.tournament,
            "counter": found.counter,
            "kept": found.kept,
            "counted": found.counted,
        }
        for found in check()
    ]
