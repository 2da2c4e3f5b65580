"""An absent tournament player (docs/tournaments.md "Absent players": timed out too often) keeps their seat
and is auto-played; this brings them back to play their own turns again."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from tournaments.errors import Conflict, PlayCode
from tournaments.live import seat_guards
from tournaments.live.models import Game, Seat, SeatStatus, Table
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentKind
from tournaments.tournament.status import lock_tournament


def come_back(*, user: User, tournament_id: int) -> Seat:
    # During a break the server plays the player's turns (docs/rules.md "Responsible play"): 403 `player.on_break`.
    seat_guards.refuse_return(user=user)
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        # Lock order: table, game, then seats (every change to a seat holds the game's lock).
        tables_of = Table.objects.filter(tournament=tournament)
        if tournament.kind == TournamentKind.MULTI:
            # Thousands of tables: only the one the player's entry sits at.
            at = (
                TournamentEntry.objects.filter(tournament=tournament, player=user, status=EntryStatus.PLAYING)
                .values_list("table_id", flat=True)
                .first()
            )
            tables_of = tables_of.filter(pk=at or 0)
        tables = list(tables_of.select_for_update().order_by("pk"))
        for table in tables:
            Game.objects.select_for_update().get(table=table)
        seat = (
            Seat.objects.select_for_update()
            .filter(table__in=tables, player=user)
            .exclude(status=SeatStatus.LEFT)
            .first()
        )
        if seat is None:
            raise Conflict("You have no seat in this tournament.", code=PlayCode.TOURNAMENT_NOT_PLAYING)
        if seat.status == SeatStatus.ABSENT:
            seat.status = SeatStatus.ACTIVE
            seat.timeouts_in_row = 0
            seat.save(update_fields=["status", "timeouts_in_row"])
        return seat
