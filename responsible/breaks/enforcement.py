"""What a break does at once (docs/rules.md "Responsible play"), through the paths players use themselves:

- a seat at a ring table is left (`tables.leave`): at once between rounds, else marked `leaving` and released at
  the round's end, its chips back to the wallet;
- a registration in a tournament not yet started is refunded (`registration.unregister`: buy-in and fee);
- a seat in a running tournament is marked absent: the server plays its turns by the clock (auto-play), so
  nothing is forfeited, and the player cannot come back to play them until the break ends.

Each step is its own transaction and asks again under its locks, so running it twice, or the sweep after a crash,
does nothing more. History, the wallet and cash-outs are untouched."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from api.errors import ServiceError
from responsible.breaks import selectors
from responsible.breaks.models import Break
from tournaments.live import leave_table, rearm_clock_now_if_turn
from tournaments.live.models import Game, Seat, SeatStatus, Table
from tournaments.tournament import registration
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentStatus

logger = logging.getLogger(__name__)

NOT_STARTED = (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
UNDER_WAY = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)
# A ring seat still to leave (a `leaving` one is already on its way out).
STAYING = (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.SITTING_OUT)


@dataclass(frozen=True)
class Enforced:
    seats_left: int
    refunds: int
    auto_played: int


def _ring_seats(player_id: int) -> Q:
    return Q(player_id=player_id, status__in=STAYING, table__tournament__isnull=True, table__practice=False)


def _tournament_seats(player_id: int) -> Q:
    return Q(player_id=player_id, status=SeatStatus.ACTIVE, table__tournament__status__in=UNDER_WAY)


def _entries(player_id: int) -> Q:
    return Q(player_id=player_id, status=EntryStatus.REGISTERED, tournament__status__in=NOT_STARTED)


def _auto_play(*, table_id: int, player_id: int) -> bool:
    """The player's seat at a running tournament's table marked absent (the clock plays it at once)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        game = Game.objects.select_for_update().get(table=table)
        seat = (
            Seat.objects.select_for_update(of=("self",))
            .filter(table=table, player_id=player_id, status=SeatStatus.ACTIVE)
            .select_related("player")
            .first()
        )
        if seat is None:
            return False
        seat.status = SeatStatus.ABSENT
        seat.save(update_fields=["status"])
        rearm_clock_now_if_turn(game=game, table=table, username=seat.player.get_username())
        return True


def enforce(*, player_id: int, now: datetime | None = None) -> Enforced:
    """Leave the player's ring seats, refund their registrations in tournaments not yet started, and hand their
    running tournaments' seats to the clock, if they are on a break (else nothing)."""
    now = now or timezone.now()
    if not selectors.is_on_break(player_id, now=now):
        return Enforced(0, 0, 0)
    user = get_user_model().objects.get(pk=player_id)
    left = refunds = played = 0
    for table_id in Seat.objects.filter(_ring_seats(player_id)).values_list("table_id", flat=True).distinct():
        try:
            leave_table(user=user, table_id=table_id)
            left += 1
        except ServiceError as refused:  # already gone, or the table closed meanwhile
            logger.info("break: seat at table %s not left: %s", table_id, refused.code)
    for tournament_id in TournamentEntry.objects.filter(_entries(player_id)).values_list(
        "tournament_id", flat=True
    ):
        try:
            registration.unregister(user=user, tournament_id=tournament_id)
            refunds += 1
        except ServiceError as refused:  # started meanwhile: then it is played on by the clock
            logger.info("break: entry into tournament %s not refunded: %s", tournament_id, refused.code)
    # After the refunds: a tournament that started meanwhile is played on by the clock.
    for table_id in (
        Seat.objects.filter(_tournament_seats(player_id)).values_list("table_id", flat=True).distinct()
    ):
        played += _auto_play(table_id=table_id, player_id=player_id)
    Break.objects.filter(selectors.active(now=now), player_id=player_id, enforced_at__isnull=True).update(
        enforced_at=now
    )
    return Enforced(left, refunds, played)


def sweep(*, now: datetime | None = None) -> int:
    """Enforce every break in force whose player still holds a ring seat, a registration in a tournament not yet
    started, or an active seat in a running one (a stake that raced the break, a crash before `enforce` ran);
    the number of players dealt with. The beat's job, every minute."""
    now = now or timezone.now()
    on_break = Break.objects.filter(selectors.active(now=now)).values("player_id")
    ring = Seat.objects.filter(
        player_id__in=on_break, status__in=STAYING, table__tournament__isnull=True, table__practice=False
    )
    playing = Seat.objects.filter(
        player_id__in=on_break, status=SeatStatus.ACTIVE, table__tournament__status__in=UNDER_WAY
    )
    entries = TournamentEntry.objects.filter(
        player_id__in=on_break, status=EntryStatus.REGISTERED, tournament__status__in=NOT_STARTED
    )
    players = {
        *ring.values_list("player_id", flat=True),
        *playing.values_list("player_id", flat=True),
        *entries.values_list("player_id", flat=True),
    }
    for player_id in sorted(players):
        enforce(player_id=player_id, now=now)
    return len(players)
