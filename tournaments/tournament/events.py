"""A tournament's event log (`TournamentEvent`): what the lobby's live updates follow, one version at a time.

Each event also announces the tournament's new version to the long-polls of `GET /tournaments/{id}/events/`
(`wakeups.announcement`, a `pg_notify` that PostgreSQL delivers only when the transaction commits) and to the
live room's sockets (`fanout.version_on_commit`, through the channel layer on commit)."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from operations import metrics
from tournaments.live import fanout, wakeups
from tournaments.tournament.models import Tournament, TournamentEvent


def record(*, tournament: Tournament, kind: str, data: dict[str, Any] | None = None) -> TournamentEvent:
    """Append an event at the tournament's next version. The caller holds the tournament's row lock (the version
    is read and bumped under it) and the surrounding transaction; the row's `version` is saved here."""
    tournament.version += 1
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    event = TournamentEvent.objects.create(
        tournament=tournament, version=tournament.version, kind=kind, data=data or {}
    )
    transaction.on_commit(lambda: metrics.tournament_event(kind=kind))
    notice = wakeups.announcement(tournament_id=tournament.pk, version=tournament.version)
    if notice is not None:
        with connection.cursor() as cursor:
            cursor.execute(*notice)
    fanout.version_on_commit(topic=fanout.tournament_topic(tournament.pk), version=tournament.version)
    return event
