"""A game between rounds: scheduling the next deal, and winding a closed table down."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.models import SEATED_STATUSES, Game, GameStatus, Round, Seat, SeatStatus, Table, TableStatus
from tournaments.services import dispatch
from tournaments.services.game_log import add_event, store_game
from tournaments.services.seats import cash_out


def next_round_delay() -> float:
    return float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)


def schedule_round_start_if_ready(*, game: Game, table: Table, delay: float | None = None) -> None:
    """Caller holds the table and game locks."""
    if game.status != GameStatus.WAITING:
        return
    ready = Seat.objects.filter(
        table=table,
        status__in=(SeatStatus.ACTIVE, SeatStatus.SITTING_OUT),
        stack_account__balance__gt=0,
    ).count()
    if schedule_round_start(game=game, ready=ready, delay=delay):
        game.save(update_fields=["next_round_at", "updated_at"])


def schedule_round_start(*, game: Game, ready: int, delay: float | None = None) -> bool:
    """Set `next_round_at` and enqueue the start when `ready` seats hold chips and none is scheduled yet.
    True when it did (the caller stores the game row)."""
    if ready < 2:
        return False
    now = timezone.now()
    if game.next_round_at is not None and game.next_round_at > now:
        return False  # already scheduled
    wait = next_round_delay() if delay is None else delay
    game.next_round_at = now + timedelta(seconds=wait)
    dispatch.enqueue(dispatch.START_ROUND, [game.pk], wait)
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
    for seat in seats:
        cash_out(seat=seat, table=table)
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
