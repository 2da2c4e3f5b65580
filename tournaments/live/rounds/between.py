"""A game between rounds: scheduling the next deal, and winding a closed table down."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.utils import timezone

from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Round, Seat, Table, TableStatus
from tournaments.live.storage.events import add_event, store_game, store_games
from tournaments.live.tables import policy as table_policy
from tournaments.live.tables.policy import TablePolicy
from tournaments.live.tables.seats import cash_out


def schedule_round_start_if_ready(*, game: Game, table: Table) -> None:
    """Caller holds the table and game locks."""
    if game.status != GameStatus.WAITING:
        return
    policy = table_policy.policy_for(table)
    # The seats `policy.is_ready` counts, counted by the database.
    ready = Seat.objects.filter(
        table=table,
        status__in=policy.ready_statuses,
        stack_account__balance__gt=0,
    ).count()
    if schedule_round_start(game=game, table=table, wait=policy.next_deal_in(ready=ready)):
        game.save(update_fields=["next_round_at", "updated_at"])


def schedule_round_start(*, game: Game, table: Table, wait: float | None) -> bool:
    """Set `next_round_at` and enqueue the start in `wait` seconds (the table's policy's `next_deal_in`; None:
    no deal) when none is scheduled yet. True when it did (the caller stores the game row)."""
    if wait is None:
        return False
    now = timezone.now()
    if game.next_round_at is not None and game.next_round_at > now:
        return False  # already scheduled
    game.next_round_at = now + timedelta(seconds=wait)
    dispatch.enqueue(dispatch.START_ROUND, [game.pk], wait, queue=dispatch.queue_for(table))
    return True


def wind_down(*, game: Game, table: Table) -> None:
    """A closed table between rounds: every seat cashed out, the game closed for good. Caller holds the
    table's and the game's locks; the game has no round running."""
    seats = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=SEATED_STATUSES)
        .select_related("player")
        .order_by("pk")
    )
    policy: TablePolicy | None = None
    for seat in seats:
        # Whatever the kind of table, closing it gives every stack back (where its policy sends it).
        policy = policy or table_policy.policy_for(table)
        cash_out(seat=seat, table=table, policy=policy)
    if game.status != GameStatus.CLOSED:
        close_game(game=game, table=table, round_=None)
        store_game(game)


def close_game(*, game: Game, table: Table, round_: Round | None) -> None:
    """The game over for good (its table closed or out of service, every seat cashed out); the caller stores
    the game row."""
    game.status = GameStatus.CLOSED
    game.next_round_at = None
    if table.status == TableStatus.ERROR:
        add_event(game, round_, "table_error", {"table": table.pk, "error": table.error})
    else:
        add_event(game, round_, "table_closed", {"table": table.pk})


def close_games(games: Sequence[tuple[Game, Table]]) -> None:
    """Closed tables' games, wound down (every seat freed), closed for good in one batch: `close_game` for each
    not closed yet, stored in one write (`store_games`)."""
    closing = [game for game, _ in games if game.status != GameStatus.CLOSED]
    for game, table in games:
        if game.status == GameStatus.CLOSED:
            continue
        game.status = GameStatus.CLOSED
        game.next_round_at = None
        if table.status == TableStatus.ERROR:
            add_event(game, None, "table_error", {"table": table.pk, "error": table.error})
        else:
            add_event(game, None, "table_closed", {"table": table.pk})
    store_games(closing)
