"""The lobby's version (`GET /api/v1/lobby/version/`): a short digest of what the lobby lists — the public ring
tables with their seats and status, the tournaments not over with their status, version and entrants — that
changes whenever any of it does. The client asks for it with `If-None-Match` every few seconds and re-reads the
lists only when it changed (docs/web.md "The lobby updates by itself").

The digest is a handful of grouped counts (never a row per table or per entrant) and is kept in the cache for
`RAMINO_LOBBY_DIGEST_SECONDS` [1]: however many lobbies are open, each web process computes it at most once
a second."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Sum

from tournaments.live.models import Seat, SeatStatus, Table
from tournaments.tournament.models import LIVE_ENTRY_STATUSES, Tournament, TournamentEntry, TournamentStatus

CACHE_KEY = "ramino:lobby:digest"
NOT_OVER = (
    TournamentStatus.SCHEDULED,
    TournamentStatus.REGISTERING,
    TournamentStatus.RUNNING,
    TournamentStatus.PAUSED,
)


def _facts() -> list[Any]:
    listed = Table.objects.filter(private=False, practice=False, tournament__isnull=True)
    tables = list(listed.values("status").annotate(n=Count("pk"), last=Max("pk")).order_by("status"))
    seats = (
        Seat.objects.filter(table__private=False, table__practice=False, table__tournament__isnull=True)
        .exclude(status=SeatStatus.LEFT)
        .aggregate(n=Count("pk"), last=Max("pk"))
    )
    tournaments = list(
        Tournament.objects.values("status")
        .annotate(n=Count("pk"), last=Max("pk"), versions=Sum("version"))
        .order_by("status")
    )
    # Entrants of the tournaments not over (registering and unregistering move these; their versions do not).
    entries = TournamentEntry.objects.filter(
        tournament__status__in=NOT_OVER, status__in=LIVE_ENTRY_STATUSES
    ).aggregate(n=Count("pk"), last=Max("pk"))
    return [tables, seats, tournaments, entries]


def lobby_version() -> str:
    """The digest (16 hex digits) of the lobby's lists as they are now (at most the cache's age old)."""
    seconds = float(getattr(settings, "RAMINO_LOBBY_DIGEST_SECONDS", 1.0))
    if seconds > 0:
        cached = cache.get(CACHE_KEY)
        if cached is not None:
            return str(cached)
    text = json.dumps(_facts(), sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if seconds > 0:
        cache.set(CACHE_KEY, digest, seconds)
    return digest
