"""Starting a one-table tournament: the guarantee's shortfall paid into the pool, a table of its own with the
entrants seated at random (CSPRNG), and the first deal scheduled (its dealer drawn at random by the deal)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from ledger import services as ledger
from ledger.models import SITE_CHIPS, Account, AccountKind, TransferKind
from tournaments.errors import Conflict, PlayCode
from tournaments.models import (
    EntryStatus,
    Game,
    Seat,
    SeatStatus,
    Table,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from tournaments.services import dispatch
from tournaments.services.tournament_status import move_to


def schedule_deal(game: Game) -> None:
    """The next round dealt after the usual pause (the tournament decided it; the caller holds its lock)."""
    delay = float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)
    game.next_round_at = timezone.now() + timedelta(seconds=delay)
    game.save(update_fields=["next_round_at", "updated_at"])
    dispatch.enqueue(dispatch.START_ROUND, [game.pk], delay)


def start_locked(tournament: Tournament) -> Table:
    """Start now with the entrants registered. Caller holds the tournament's lock."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
        .select_related("player")
        .order_by("registered_at", "pk")
    )
    if len(entries) < tournament.min_entrants:
        raise Conflict(
            f"The tournament needs at least {tournament.min_entrants} entrants to start.",
            code=PlayCode.TOURNAMENT_TOO_FEW_ENTRANTS,
            details={"entrants": len(entries), "min_entrants": tournament.min_entrants},
        )
    move_to(tournament, TournamentStatus.RUNNING)
    now = timezone.now()
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    _pay_guarantee(tournament, entrants=len(entries))
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
        account = ledger.open_account(
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
    return table


def _pay_guarantee(tournament: Tournament, *, entrants: int) -> None:
    shortfall = tournament.guarantee - entrants * tournament.buy_in
    if shortfall <= 0:
        return
    assert tournament.pool_account_id is not None
    ledger.move_chips(
        source=ledger.get_house_account(kind=AccountKind.HOUSE_CASHIER),
        destination=Account.objects.get(pk=tournament.pool_account_id),
        amount=shortfall,
        kind=TransferKind.GUARANTEE,
        idempotency_key=f"tournament:{tournament.pk}:guarantee",
        reason=f"guarantee shortfall of tournament {tournament.pk}",
        tournament_id=tournament.pk,
        computation={"guarantee": tournament.guarantee, "buy_ins": entrants * tournament.buy_in},
        posted_by_system="tournaments.start",
    )
