"""Starting and ending practice tables (docs/tables.md "Practice tables")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ledger.models import SITE_CHIPS, AccountKind
from ledger.services import accounts
from tournaments.live import dispatch, table_settings, tables
from tournaments.live.models import SEATED_STATUSES, Game, Seat, SeatStatus, Table, TableStatus
from tournaments.live.policy_types import StackedDeal
from tournaments.practice.bots import bot_users
from tournaments.practice.models import PracticeTable

__all__ = ["StackedDeal", "end_practice", "start_practice"]


def start_practice(
    *,
    player: Any,
    game: str,
    bots: int,
    level: str,
    deal: StackedDeal | None = None,
    options: dict[str, Any] | None = None,
    demo: bool = False,
) -> Table:
    """A practice table of `game` for `player` against `bots` bots of strength `level`, its first round dealt
    about a second from now. The player's earlier practice tables end (one at a time). `deal` stacks the first
    round (a guided round); `options` are the preset's and the clocks' options as at any table (validated the
    same way: `table_settings.validate`)."""
    checked = table_settings.validate(
        game=game,
        options=dict(options or {}),
        seats=bots + 1,
        pcr=1,
        min_buy_in=1,
        max_buy_in=1,
        multiplier=1,
    )
    for table_id in earlier_tables(player=player):
        end_practice(player=player, table_id=table_id)
    robots = bot_users(bots)
    with transaction.atomic():
        table = Table.objects.create(
            game=checked.game,
            options=checked.options,
            seats=checked.seats,
            # Points only: pcr and buy-ins are never used at a practice table.
            pcr=1,
            min_buy_in=1,
            max_buy_in=1,
            multiplier=1,
            created_by=player,
            practice=True,
        )
        PracticeTable.objects.create(
            table=table,
            player=player,
            level=level,
            first_deal=None if deal is None else {"deck": list(deal.deck), "dealer": deal.dealer},
            demo=demo,
        )
        game_row = Game.objects.create(table=table)
        for number, user in enumerate([player, *robots]):
            # An empty stack: a seat has one (the ledger's reference of its chips), nothing is ever posted to it.
            account = accounts.open_account(
                kind=AccountKind.SEAT_STACK,
                chip_type=SITE_CHIPS,
                reference=f"practice:{table.pk}:seat:{number}",
                user=user,
            )
            Seat.objects.create(
                table=table, player=user, number=number, stack_account=account, status=SeatStatus.ACTIVE
            )
        delay = float(settings.RAMINO_PRACTICE_FIRST_DEAL_SECONDS)
        game_row.next_round_at = timezone.now() + timedelta(seconds=delay)
        game_row.save(update_fields=["next_round_at", "updated_at"])
        dispatch.enqueue(dispatch.START_ROUND, [game_row.pk], delay)
    return table


def earlier_tables(*, player: Any) -> list[int]:
    return list(
        PracticeTable.objects.filter(player=player, table__status=TableStatus.OPEN)
        .order_by("pk")
        .values_list("table_id", flat=True)
    )


def end_practice(*, player: Any, table_id: int) -> None:
    """The player leaves and the table closes: between rounds at once; during a round the player's seat is
    played out at once (the bots then play on without pausing) and the table closes at the round's end."""
    with transaction.atomic():
        if Seat.objects.filter(table_id=table_id, player=player, status__in=SEATED_STATUSES).exists():
            tables.leave(user=player, table_id=table_id)
        tables.close_table(table_id=table_id)


def close_practice(*, table_id: int) -> None:
    """A practice table whose player's seat was freed closes (the task `tournaments.close_practice`)."""
    table = Table.objects.filter(pk=table_id, practice=True).first()
    if table is None or table.status == TableStatus.CLOSED:
        return
    tables.close_table(table_id=table_id)
