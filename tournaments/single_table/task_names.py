"""The one-table tournaments' Celery task by its stable name (defined in `tournaments.tasks`, sent through
`live.messaging.dispatch`): the job after each round (`progress.advance`). The name is public: queued messages and the
beat's rows carry it, so it never changes."""

from __future__ import annotations

ADVANCE_TOURNAMENT = "tournaments.advance_tournament"
