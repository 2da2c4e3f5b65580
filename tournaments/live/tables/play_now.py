"""Play now: the server seats the caller at the best open public ring table of a game (and a stake), as the big
rooms' "play now" / "quick seat" do (docs/tables.md "Play now").

The best table, in order (`rank`, pure):
1. only a listed ring table (public, not practice, not a tournament's), open, with a free seat, where nobody sits
   whom the caller blocked or who blocked the caller (`seat_guards.avoided_players`), whose buy-in range holds the
   caller's buy-in (when one is given);
2. first the tables where seated players wait for an opponent (no round running): sitting there starts a deal,
   the most players waiting first; then tables playing a round (the caller plays from the next deal), the fullest
   first; then empty tables; the oldest table (lowest id) breaks ties.

The seat itself is `tables.sit`'s, which holds every gate a seat has (a guest, an abandonment bar, a break, the
stake limits, the wallet, the buy-in range): a refusal there is the caller's and is answered as it is, changing
nothing. A table filled by someone else between the choice and the seat (`table.full`, or closed meanwhile) is
skipped for the next best. A caller already seated at a matching table is answered that table, and no chips move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Q

from tournaments.errors import Conflict, PlayCode, PlayError
from tournaments.live.models import SEATED_STATUSES, GameStatus, Seat, Table, TableStatus
from tournaments.live.tables import seat_guards
from tournaments.live.tables import services as tables

# A sit refused for the table's sake, not the caller's: the next best table is tried.
_TABLE_GONE = {PlayCode.TABLE_FULL, PlayCode.TABLE_CLOSED, PlayCode.TABLE_ERROR}
# At most this many tables are tried when others fill them first.
MAX_TRIES = 5


@dataclass(frozen=True)
class Candidate:
    """An open table as play now weighs it."""

    table_id: int
    seats: int
    seated: int
    round_running: bool
    min_buy_in: int
    max_buy_in: int


def rank(candidates: Iterable[Candidate], *, buy_in: int | None = None) -> list[int]:
    """The ids of the tables worth sitting at, best first (the module's order); full tables and tables whose
    buy-in range leaves out `buy_in` are left out."""

    def fits(c: Candidate) -> bool:
        if c.seated >= c.seats:
            return False
        return buy_in is None or c.min_buy_in <= buy_in <= c.max_buy_in

    def key(c: Candidate) -> tuple[int, int, int]:
        if c.seated and not c.round_running:
            group = 0  # players wait for an opponent: the deal comes at once
        elif c.seated:
            group = 1  # a round is being played: from the next deal
        else:
            group = 2  # nobody there yet
        return (group, -c.seated, c.table_id)

    return [c.table_id for c in sorted((c for c in candidates if fits(c)), key=key)]


def stake_of(table: Table) -> int:
    """A table's stake: the chips a point is worth there (PCR times multiplier)."""
    return table.pcr * table.multiplier


def candidates(*, user: User, game: str, stake: int | None) -> list[Candidate]:
    """The open listed ring tables of `game` (and `stake`) with no player the caller is kept apart from."""
    rows = (
        Table.objects.filter(
            game=game, status=TableStatus.OPEN, private=False, practice=False, tournament__isnull=True
        )
        .annotate(seated=Count("seat_set", filter=Q(seat_set__status__in=SEATED_STATUSES)))
        .select_related("live_game")
        .order_by("id")
    )
    avoided = seat_guards.avoided_players(user=user)
    shunned: set[int] = set()
    if avoided:
        shunned = set(
            Seat.objects.filter(
                table__in=rows, player_id__in=avoided, status__in=SEATED_STATUSES
            ).values_list("table_id", flat=True)
        )
    out = []
    for table in rows:
        if table.pk in shunned or (stake is not None and stake_of(table) != stake):
            continue
        game_row = getattr(table, "live_game", None)
        out.append(
            Candidate(
                table_id=table.pk,
                seats=table.seats,
                seated=table.seated,
                round_running=game_row is not None and game_row.status == GameStatus.PLAYING,
                min_buy_in=table.min_buy_in,
                max_buy_in=table.max_buy_in,
            )
        )
    return out


def _already_seated(*, user: User, game: str, stake: int | None) -> Table | None:
    seats = Seat.objects.filter(
        player=user,
        status__in=SEATED_STATUSES,
        table__game=game,
        table__status=TableStatus.OPEN,
        table__private=False,
        table__practice=False,
        table__tournament__isnull=True,
    ).select_related("table")
    for seat in seats.order_by("-pk"):
        if stake is None or stake_of(seat.table) == stake:
            return seat.table
    return None


@dataclass(frozen=True)
class PlayNow:
    table: Table
    seated_now: bool  # False: the caller already sat at this table, nothing moved


def play_now(
    *, user: User, game: str, stake: int | None = None, buy_in: int | None = None, address: str = ""
) -> PlayNow:
    """Seat `user` at the best open table of `game` (and `stake`); `buy_in` defaults to the table's smallest.
    409 `table.none_open` when no table fits (`details`: game, stake, buy_in)."""
    mine = _already_seated(user=user, game=game, stake=stake)
    if mine is not None:
        return PlayNow(table=mine, seated_now=False)
    order: Sequence[int] = rank(candidates(user=user, game=game, stake=stake), buy_in=buy_in)
    by_id = {t.pk: t for t in Table.objects.filter(pk__in=order[:MAX_TRIES])}
    for table_id in order[:MAX_TRIES]:
        table = by_id[table_id]
        try:
            seat = tables.sit(
                user=user,
                table_id=table_id,
                buy_in=buy_in if buy_in is not None else table.min_buy_in,
                address=address,
            )
        except PlayError as err:
            if err.code in _TABLE_GONE:
                continue
            raise
        return PlayNow(table=seat.table, seated_now=True)
    raise Conflict(
        "No open table has a free seat for this game and stake: try another stake, or wait a moment.",
        code=PlayCode.TABLE_NONE_OPEN,
        details={"game": game, "stake": stake, "buy_in": buy_in},
    )
