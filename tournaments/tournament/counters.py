"""The tournament row's constant-cost counters (docs/tournaments.md "Counters on the tournament's row"): `entrants` (live entries:
registered, playing, busted, finished) and `reentries`, beside the runtime's `players_left`. Each is changed by
one `UPDATE ... SET n = n + k` in the transaction that changes the entries, so the list, registration and
the lobby read them instead of counting entries; `check` compares them with a count (the reconciliation)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

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
    """Every counter that disagrees with a count of the entries (all tournaments, or `tournament_ids`): the
    entrants and re-entries of every tournament, and the players left of a running multi-table one."""
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
        "counted_entrants",
        "counted_reentries",
        "counted_playing",
    )
    problems: list[Mismatch] = []
    for row in rows:
        pairs = [("entrants", "counted_entrants"), ("reentries", "counted_reentries")]
        if row["kind"] == TournamentKind.MULTI and row["status"] in (
            TournamentStatus.RUNNING,
            TournamentStatus.PAUSED,
        ):
            pairs.append(("players_left", "counted_playing"))
        for kept, counted in pairs:
            if int(row[kept]) != int(row[counted]):
                problems.append(
                    Mismatch(
                        tournament=row["pk"], counter=kept, kept=int(row[kept]), counted=int(row[counted])
                    )
                )
    return problems
