"""Starting and ending practice tables (docs/tables.md "Practice tables").

A practice round with no person left in it is dropped, not played out: when its player leaves or goes absent
mid-round, the round stops where it is (never ended, never scored: `ended_at` stays null, no replay) and the
table closes. The player's seat and the bots' open no ledger account (`Seat.stack_account` is null): nothing is
ever staked there."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.errors import Conflict, PlayCode
from tournaments.live import StackedDeal, dispatch, table_settings, wind_down
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus, Table, TableStatus
from tournaments.practice.bots import BotTurn, bot_users, play_bot_move
from tournaments.practice.models import PracticeTable

__all__ = ["StackedDeal", "bot_turn", "close_practice", "end_practice", "start_practice"]


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
    about a second from now. The player's earlier practice table ends (one at a time, kept by the database:
    a start that loses a race with another start of the same player's is refused, 409
    `practice.already_started` naming the winner's table). `deal` stacks the first round (a guided round);
    `options` are the preset's and the clocks' options as at any table (validated the same way:
    `table_settings.validate`)."""
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
    try:
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
            # The unique index on the player's current practice table: a concurrent start that got there
            # first makes this insert fail (on PostgreSQL it waits for that start's commit).
            PracticeTable.objects.create(
                table=table,
                player=player,
                level=level,
                first_deal=None if deal is None else {"deck": list(deal.deck), "dealer": deal.dealer},
                demo=demo,
            )
            game_row = Game.objects.create(table=table)
            # No stack account: nothing is ever staked at a practice table (docs/tables.md "Practice tables").
            Seat.objects.bulk_create(
                [
                    Seat(
                        table=table, player=user, number=number, stack_account=None, status=SeatStatus.ACTIVE
                    )
                    for number, user in enumerate([player, *robots])
                ]
            )
            delay = float(settings.RAMINO_PRACTICE_FIRST_DEAL_SECONDS)
            game_row.next_round_at = timezone.now() + timedelta(seconds=delay)
            game_row.save(update_fields=["next_round_at", "updated_at"])
            dispatch.enqueue(dispatch.START_ROUND, [game_row.pk], delay, queue=dispatch.queue_for(table))
    except IntegrityError:
        winner = earlier_tables(player=player)
        raise Conflict(
            "Another practice table of yours was started at the same moment: play there.",
            code=PlayCode.PRACTICE_ALREADY_STARTED,
            # Null only if that table too has ended meanwhile (a third start): starting again then succeeds.
            details={"table": winner[-1] if winner else None},
        ) from None
    return table


def earlier_tables(*, player: Any) -> list[int]:
    """The player's current practice table (one at most, by the database's unique index), as a list."""
    return list(
        PracticeTable.objects.filter(player=player, current=True)
        .order_by("pk")
        .values_list("table_id", flat=True)
    )


def end_practice(*, player: Any, table_id: int) -> None:
    """The player's practice table ends: its round, if one is running, is dropped (nobody is left to play
    it), every seat is freed and the table closes, at once. Ending an ended table changes nothing."""
    drop_and_close(table_id=table_id)


def close_practice(*, table_id: int) -> None:
    """A practice table whose player is gone closes (the task `tournaments.close_practice`): a running round
    is dropped, not played out."""
    drop_and_close(table_id=table_id)


def drop_and_close(*, table_id: int) -> None:
    """Close the practice table `table_id` now: a running round is dropped where it stands, every seat freed,
    the game closed, and the table no longer its player's current one. Idempotent."""
    with transaction.atomic():
        # Lock order: table, then game (then seats, in `wind_down`).
        table = Table.objects.select_for_update().filter(pk=table_id, practice=True).first()
        if table is None:
            return
        game = Game.objects.select_for_update().get(table=table)
        PracticeTable.objects.filter(table_id=table_id, current=True).update(current=False)
        if table.status != TableStatus.CLOSED:
            table.status = TableStatus.CLOSED
            table.save(update_fields=["status"])
        if game.status == GameStatus.CLOSED:
            return
        if game.status == GameStatus.PLAYING:
            # Dropped: the round is left as it stands, unfinished; every clock or bot message still on its
            # way finds the game closed and does nothing.
            game.status = GameStatus.WAITING
            game.turn_player = ""
            game.turn_started_at = None
            game.turn_deadline = None
            game.claims_deadline = None
            game.clock_due_at = None
        wind_down(game=game, table=table)


def bot_turn(*, game_id: int, version: int) -> bool:
    """The task `tournaments.practice_bot_move`: a bot's turn, or, when the player is gone, the round
    dropped and the table closed. True when a bot played."""
    turn = play_bot_move(game_id=game_id, version=version)
    if turn is BotTurn.DROP:
        table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).first()
        if table_id is not None:
            drop_and_close(table_id=table_id)
    return turn is BotTurn.PLAYED
