"""A tournament's event log (`TournamentEvent`): what the lobby's live updates follow, one version at a time."""

from __future__ import annotations

from typing import Any

from tournaments.models import Tournament, TournamentEvent


def record(*, tournament: Tournament, kind: str, data: dict[str, Any] | None = None) -> TournamentEvent:
    """Append an event at the tournament's next version. The caller holds the tournament's row lock (the version
    is read and bumped under it) and the surrounding transaction; the row's `version` is saved here."""
    tournament.version += 1
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    return TournamentEvent.objects.create(
        tournament=tournament, version=tournament.version, kind=kind, data=data or {}
    )
