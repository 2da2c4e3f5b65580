"""Starting a one-table tournament (from `tournament.start.start_locked`, its kind's `start`): the guarantee's
shortfall paid into the pool, a table of its own with the entrants seated at random (CSPRNG), and the first
deal scheduled (its dealer drawn at random by the deal)."""

from __future__ import annotations

import secrets

from django.utils import timezone

from ledger.models import SITE_CHIPS, AccountKind
from ledger.services import accounts
from tournaments.live.models import Game, Seat, SeatStatus, Table
from tournaments.single_table import events
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus
from tournaments.tournament.start_common import pay_guarantee, schedule_deal
from tournaments.tournament.status import move_to


def start_one_table(tournament: Tournament, entries: list[TournamentEntry]) -> Table:
    """Start with `entries` (checked against `min_entrants` by the caller, who holds the tournament's lock)."""
    move_to(tournament, TournamentStatus.RUNNING)
    now = timezone.now()
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    pay_guarantee(tournament, entrants=len(entries))
    table = Table.objects.create(
        game=tournament.game,
        options=tournament.options,
        seats=tournament.seats,
        # A one-table tournament scores points, never chips, at its table: pcr and buy-ins are unused.
        pcr=1,
        min_buy_in=1,
        max_buy_in=1,
        multiplier=tournament.multiplier,
        created_by=tournament.created_by,
        tournament=tournament,
    )
    game = Game.objects.create(table=table)
    secrets.SystemRandom().shuffle(entries)
    for number, entry in enumerate(entries):
        account = accounts.open_account(
            kind=AccountKind.SEAT_STACK,
            chip_type=SITE_CHIPS,
            reference=f"tournament:{tournament.pk}:table:{table.pk}:seat:{number}",
            user=entry.player,
        )
        Seat.objects.create(
            table=table, player=entry.player, number=number, stack_account=account, status=SeatStatus.ACTIVE
        )
        entry.status = EntryStatus.PLAYING
        entry.table = table
        entry.save(update_fields=["status", "table"])
    schedule_deal(game)
    events.started(tournament=tournament, entrants=len(entries), table_id=table.pk, game_id=game.pk)
    return table
