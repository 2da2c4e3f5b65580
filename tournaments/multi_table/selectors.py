"""Reads of a multi-table tournament for the lobby (docs/api.md "Tournaments"): its standings with chips and
tables, its open tables with their players, levels and PCRs, and its event log — each a database page at a time,
in a fixed number of queries whatever the entrant count (20,000 entrants never make one response or one list).

Chips are the seat stacks' ledger balances (`TournamentEntry.seat` → `Seat.stack_account.balance`): public at
a tournament as at a ring table. Nothing here reads a hand, a deck or a stock."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BigIntegerField,
    Case,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from ledger.models import AccountKind, Entry, TransferKind, tournament_chip_type
from tournaments.errors import NotFound, PlayCode
from tournaments.live.models import Seat, SeatStatus, Table, TableStatus
from tournaments.multi_table.planning.levels import level_of, pcr_for
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)
from tournaments.tournament.selectors import Standing, TableSeat, TournamentTable

# The most events one answer carries (the client asks again from `next_after`).
EVENTS_PAGE = 500


class Counted:
    """A query to paginate whose count is read by another, cheaper query (the page's query joins seats, accounts
    and users to sort; counting needs none of them). Django's paginator asks `count()` and slices."""

    ordered = True

    def __init__(self, rows: QuerySet[Any, Any], count: QuerySet[Any, Any] | int) -> None:
        self.rows = rows
        self.counted = count

    def count(self) -> int:
        return self.counted if isinstance(self.counted, int) else self.counted.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: Any) -> Any:
        return self.rows[index]


# --- standings ------------------------------------------------------------------------------------------------

_STILL_IN = Q(status__in=[EntryStatus.REGISTERED, EntryStatus.PLAYING])


def standings(*, tournament: Tournament) -> Counted | Segments:
    """Every live entry as a standings row, players still in first by chips (highest first; ties in seating
    order), then by place;
    a query to be paginated (one statement per page; the count is the row's `entrants`). `chips` is the seat's stack while
    playing, what it held when the tournament ended for a player still in at its end (the stack retired to the
    mint then: the winner's chips, not 0), 0 once busted, null before a seat is given.

    While the tournament runs (or is paused) the pages come from two bounded queries (`running_standings`);
    before the start and after the end, from the one query below, which sorts every live entry."""
    if tournament.status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
        return running_standings(tournament=tournament)
    return sorted_standings(tournament=tournament)


# What a standings row reads of an entry (`standing_row`).
STANDING_FIELDS = (
    "place",
    "username",
    "status",
    "chips",
    "table_id",
    "prize",
    "bounty",
    "bounties_won",
    "rebuys",
    "addon",
)


def sorted_standings(*, tournament: Tournament) -> Counted:
    """`standings` as one query sorting every live entry (any status; linear in the entrants)."""
    live = TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES)
    retired = (
        Entry.objects.filter(
            account_id=OuterRef("seat__stack_account_id"), transfer__kind=TransferKind.RETIRE
        )
        .order_by("-pk")
        .values("amount")[:1]
    )
    chips = Case(
        When(status=EntryStatus.PLAYING, then=Coalesce(F("seat__stack_account__balance"), Value(0))),
        When(status=EntryStatus.REGISTERED, then=Value(None)),
        When(
            status=EntryStatus.FINISHED,
            then=Coalesce(F("seat__stack_account__balance"), Value(0))
            - Coalesce(Subquery(retired, output_field=BigIntegerField()), Value(0)),
        ),
        default=Value(0),
        output_field=BigIntegerField(),
    )
    rows = (
        live.annotate(
            out=Case(When(_STILL_IN, then=Value(0)), default=Value(1), output_field=IntegerField()),
            chips=chips,
            username=F("player__username"),
            # Players still in with the same chips: the one whose stack was opened first (seating order).
            seated=Case(
                When(status=EntryStatus.PLAYING, then=F("seat__stack_account_id")), default=Value(None)
            ),
        )
        .order_by(
            "out",
            F("chips").desc(nulls_last=True),
            F("place").asc(nulls_last=True),
            F("seated").asc(nulls_last=True),
            "registered_at",
            "pk",
        )
        .values(*STANDING_FIELDS)
    )
    return Counted(rows, tournament.entrants)  # the row's counter (`tournament.counters`), not a count


def standing_of(*, tournament: Tournament, username: str) -> list[Standing]:
    """One player's standings row (their live entry's, as `standings` writes it), or none: the entry read by the
    tournament and the player's name, whatever the entrants (one statement, no sort of the field)."""
    found = sorted_standings(tournament=tournament).rows.filter(player__username=username)[:1]
    return [standing_row(row) for row in found]


class Segments:
    """A paginated list made of consecutive queries of known lengths (each already ordered): a page reads only
    the queries it overlaps, each with its own LIMIT/OFFSET. Django's paginator asks `count()` and slices."""

    ordered = True

    def __init__(self, parts: Sequence[tuple[QuerySet[Any, Any], int]]) -> None:
        self.parts = [(rows, max(0, count)) for rows, count in parts]

    def count(self) -> int:
        return sum(count for _rows, count in self.parts)

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[Any]:
        start = index.start or 0
        stop = self.count() if index.stop is None else index.stop
        found: list[Any] = []
        offset = 0
        for rows, count in self.parts:
            low, high = max(start - offset, 0), min(stop - offset, count)
            if low < high:
                found.extend(rows[low:high])
            offset += count
        return found


def running_standings(*, tournament: Tournament) -> Segments:
    """The standings of a running (or paused) multi-table tournament in the order of `standings`, from two
    queries whose pages are bounded whatever the entrants (docs/performance.md "The lobby's reads at 20,000
    entrants"): the players still in (no entry is registered but unseated while it runs: a late entrant is
    seated at once), `players_left` of them, by their seat stack's balance, highest first, ties by the stack
    account (seating order), read down the ledger's index of a tournament's stacks by balance and account
    (`ledger_acct_stack_by_balance`: a page reads its own rows even when every stack is equal); then the busted,
    the rest of the `entrants`, by place, read down the entries' index of the busted by place
    (`tourn_entry_busted_by_place`). Counts from the row's counters, not a count."""
    live = TournamentEntry.objects.filter(tournament=tournament)
    playing = (
        live.filter(
            status=EntryStatus.PLAYING,
            seat__stack_account__kind=AccountKind.SEAT_STACK,
            seat__stack_account__chip_type=tournament_chip_type(tournament.pk),
        )
        .annotate(chips=F("seat__stack_account__balance"), username=F("player__username"))
        .order_by(F("seat__stack_account__balance").desc(), "seat__stack_account_id")
        .values(*STANDING_FIELDS)
    )
    busted = (
        live.filter(status=EntryStatus.BUSTED)
        .annotate(chips=Value(0, output_field=BigIntegerField()), username=F("player__username"))
        .order_by(F("place").asc(nulls_last=True), "registered_at", "pk")
        .values(*STANDING_FIELDS)
    )
    still_in = int(tournament.players_left)
    return Segments([(playing, still_in), (busted, int(tournament.entrants) - still_in)])


def standing_row(found: dict[str, Any]) -> Standing:
    """A row of `standings`' page as a standings row."""
    return Standing(
        place=found["place"],
        username=found["username"],
        status=found["status"],
        total=None,
        tiebreak_total=None,
        chips=found["chips"],
        table=found["table_id"] if found["status"] == EntryStatus.PLAYING else None,
        prize=found["prize"],
        bounty=found["bounty"],
        bounties_won=found["bounties_won"],
        rebuys=found["rebuys"],
        addon=found["addon"],
    )


# --- tables ---------------------------------------------------------------------------------------------------


def open_tables(*, tournament: Tournament) -> Counted:
    """The tournament's open tables in id order, each with its game and current round, to paginate: one
    statement a page, counted by the row's `tables_open` (kept with the tables; `counters.check` compares it
    with a count), never a count of 62,500 tables."""
    rows = (
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN)
        .select_related("live_game__current_round")
        .order_by("pk")
    )
    return Counted(rows, tournament.tables_open)


def no_such_table() -> NotFound:
    return NotFound("No such table in this tournament.", code=PlayCode.TABLE_NOT_FOUND)


def table_of(*, tournament: Tournament, table_id: int) -> Table:
    """One table of the tournament, open or not; 404 `table.not_found` for any other."""
    found = (
        Table.objects.filter(tournament=tournament, pk=table_id)
        .select_related("live_game__current_round")
        .first()
    )
    if found is None:
        raise no_such_table()
    return found


def table_rows(*, tournament: Tournament, tables: Sequence[Table]) -> list[TournamentTable]:
    """The lobby's rows of `tables` (from `open_tables` or `table_of`): one more statement for all their seats."""
    seated: dict[int, list[TableSeat]] = {t.pk: [] for t in tables}
    if tables:
        for s in (
            Seat.objects.filter(table_id__in=list(seated))
            .exclude(status=SeatStatus.LEFT)
            .order_by("table_id", "number")
            .annotate(
                bounty=Subquery(TournamentEntry.objects.filter(seat_id=OuterRef("pk")).values("bounty")[:1])
            )
            .values("table_id", "number", "status", "player__username", "stack_account__balance", "bounty")
        ):
            seated[s["table_id"]].append(
                TableSeat(
                    username=s["player__username"],
                    seat=s["number"],
                    chips=s["stack_account__balance"],
                    status=s["status"],
                    bounty=s["bounty"] or 0,
                )
            )
    return [_table_row(tournament, t, seated[t.pk]) for t in tables]


def _table_row(tournament: Tournament, table: Table, players: list[TableSeat]) -> TournamentTable:
    game = getattr(table, "live_game", None)
    round_ = game.current_round if game is not None else None
    # The level of the round in play (or last played): a table's levels count its own rounds
    # (docs/tournaments.md "Multi-table tournaments: seating and places").
    # Past the structure's last level the table plays on at that level (it lasts to the end).
    schedule = tournament.pcr_schedule or [table.pcr]
    level = min(
        level_of(
            round_.number if round_ is not None else 1, rounds_per_level=tournament.rounds_per_level or 1
        ),
        len(schedule),
    )
    return TournamentTable(
        table=table.pk,
        game=game.pk if game is not None else None,
        status=table.status,
        players=players,
        level=level,
        pcr=pcr_for(level, schedule=schedule),
    )


# --- events ---------------------------------------------------------------------------------------------------


def events_after(
    *, tournament_id: int, after: int, limit: int | None = None
) -> tuple[int, list[TournamentEvent]]:
    """The tournament's version now and its first `limit` events after version `after` (the version answered is
    never below the last event's: an event committed between the two reads raises it)."""
    version = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if version is None:
        raise NotFound("No such tournament.", code=PlayCode.TOURNAMENT_NOT_FOUND)
    found = TournamentEvent.objects.filter(tournament_id=tournament_id, version__gt=after).order_by("version")
    events = list(found[: limit or EVENTS_PAGE])
    return max([version, *(e.version for e in events)]), events


@dataclass(frozen=True)
class EventPage:
    """The events after a version (TournamentEventsSerializer): the version now, the events, and the `after`
    of the next call."""

    version: int
    events: list[TournamentEvent]
    after: int

    @property
    def next_after(self) -> int:
        return self.events[-1].version if self.events else self.after
