"""A tournament's event log (`TournamentEvent`): what the lobby's live updates follow, one version at a time.

Each event also announces the tournament's new version to the long-polls of `GET /tournaments/{id}/events/`
(`wakeups.announcement`, a `pg_notify` that PostgreSQL delivers only when the transaction commits) and to the
live room's sockets (`fanout.send_version`, through the channel layer once committed). The kinds that tell players something
(`NOTIFYING`) also send the notifications' task by name once committed (notifications/sources.py)."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from operations import metrics
from tournaments.live import dispatch, fanout, wakeups
from tournaments.tournament.models import Tournament, TournamentEvent

# The events whose players are told (their entrants, the players moved, the prize winners), and the task that
# tells them (notifications.tasks, on its own queue by its route).
NOTIFYING = frozenset({"started", "moved", "finished"})
NOTIFY_TASK = "notifications.tournament_event"


def record(*, tournament: Tournament, kind: str, data: dict[str, Any] | None = None) -> TournamentEvent:
    """Append an event at the tournament's next version. The caller holds the tournament's row lock (the version
    is read and bumped under it) and the surrounding transaction; the row's `version` is saved here."""
    tournament.version += 1
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    event = TournamentEvent.objects.create(
        tournament=tournament, version=tournament.version, kind=kind, data=data or {}
    )
    version = tournament.version

    def committed() -> None:
        # One callback: the metric and the sockets' wake-up (fanout.py) go with the commit, or neither.
        metrics.tournament_event(kind=kind)
        fanout.send_version(topic=fanout.tournament_topic(tournament.pk), version=version)

    transaction.on_commit(committed)
    if kind in NOTIFYING:
        dispatch.enqueue(NOTIFY_TASK, [event.pk], 0)
    notice = wakeups.announcement(tournament_id=tournament.pk, version=tournament.version)
    if notice is not None:
        with connection.cursor() as cursor:
            cursor.execute(*notice)
    return event
