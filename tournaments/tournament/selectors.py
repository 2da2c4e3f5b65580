"""Reads of tournaments for the API and the admin: the list, one tournament, standings, tables, the payout
report. Nothing here reads a hand, a deck or a stock: standings and tables show totals, seats and places."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, QuerySet, Sum
from django.db.models.functions import Coalesce

from ledger.models import Account, AccountKind, Entry, Transfer, TransferKind
from tournaments.errors import NotFound, PlayCode
from tournaments.live.models import Game, Seat, SeatStatus, Table
from tournaments.tournament import payouts as payouts_rules
from tournaments.tournament.entry_payments import entry_bounty
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    ONE_TABLE_KINDS,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)


def tournaments(
    *,
    kind: str | None = None,
    statuses: Sequence[str] = (),
    game: str | None = None,
    registered_by: User | AnonymousUser | None = None,
) -> QuerySet[Tournament]:
    """Newest first. Plain rows: a page's counts are read by `tournament_rows`, for that page only (the list's
    count never joins the entries). `registered_by`: only those where that player has a live entry (none for
    an anonymous caller)."""
    found = Tournament.objects.order_by("-id")
    if registered_by is not None:
        if not registered_by.is_authenticated:
            return found.none()
        found = found.filter(
            pk__in=TournamentEntry.objects.filter(
                player_id=registered_by.pk, status__in=LIVE_ENTRY_STATUSES
            ).values("tournament_id")
        )
    else:
        # A private tournament is listed to no one (docs/rules.md "Entry rules"): its entrants find it in their own.
        found = found.filter(private=False)
    if kind:
        found = found.filter(kind=kind)
    if statuses:
        found = found.filter(status__in=list(statuses))
    if game:
        found = found.filter(game=game)
    return found


def tournament_for(*, tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise NotFound("No such tournament.", code=PlayCode.TOURNAMENT_NOT_FOUND)
    return found


def _entry_statuses(user: User | AnonymousUser, ids: list[int]) -> dict[int, tuple[str, int | None]]:
    """The caller's live entry's status, and its table while playing, in each tournament of `ids` that has
    one."""
    if not user.is_authenticated or not ids:
        return {}
    return {
        tournament_id: (status, table_id if status == EntryStatus.PLAYING else None)
        for tournament_id, status, table_id in TournamentEntry.objects.filter(
            tournament_id__in=ids, player_id=user.pk, status__in=LIVE_ENTRY_STATUSES
        ).values_list("tournament_id", "status", "table_id")
    }


def prize_pool(tournament: Tournament, entrants: int, reentries: int = 0) -> int:
    """The buy-ins (a re-entry is one more; less the bounties of a knockout) plus any guarantee shortfall
    (docs/tournaments.md "Prizes"), plus the rebuys and add-ons paid (docs/rules.md "Rebuys and the add-on"):
    what is or will be paid out."""
    buy_in = tournament.buy_in - entry_bounty(tournament)
    return max((entrants + reentries) * buy_in, tournament.guarantee) + int(tournament.rebuys_pool or 0)


@dataclass(frozen=True)
class TournamentRow:
    """A tournament with what its row adds (TournamentSerializer renders it): its live entries and re-entries,
    and the status of the caller's live entry in it, if any."""

    tournament: Tournament
    entrants: int
    reentries: int
    entry_status: str | None
    my_table: int | None = None

    @property
    def prize_pool(self) -> int:
        return prize_pool(self.tournament, self.entrants, self.reentries)

    @property
    def level(self) -> int | None:
        """Multi: the level of the structure being played — the most advanced table's, the last level once
        the tables are past it (it lasts to the end: `levels`)."""
        if self.tournament.kind != TournamentKind.MULTI:
            return None
        return min(self.tournament.level, max(1, len(self.tournament.pcr_schedule or [])))

    @property
    def registered(self) -> bool:
        return self.entry_status is not None

    @property
    def error(self) -> str | None:
        return self.tournament.error or None

    @property
    def levels(self) -> list[Level]:
        """Multi: each level of the schedule with its PCR and rounds (the last level lasts until the end)."""
        t = self.tournament
        if t.kind != TournamentKind.MULTI or not t.rounds_per_level:
            return []
        return [
            Level(level=i + 1, pcr=pcr, rounds=t.rounds_per_level) for i, pcr in enumerate(t.pcr_schedule)
        ]

    @property
    def payout_table(self) -> list[PlaceAmount]:
        """What each paid place gets from the prize pool as it stands (payouts.place_amounts): the places
        the entrants can fill (at least one), first place taking what rounding leaves."""
        percents = list(self.tournament.payouts or [100])
        places = max(1, min(len(percents), self.entrants + self.reentries))
        amounts = payouts_rules.place_amounts(self.prize_pool, percents, places)
        # First place takes the shares of the places nobody can fill (place_amounts): its percent says so, so
        # that one entrant reads 100 % of the pool, not 70 % beside the whole pool.
        shares = percents[:places]
        shares[0] += sum(percents[places:])
        return [
            PlaceAmount(place=i + 1, percent=shares[i], amount=amount) for i, amount in enumerate(amounts)
        ]

    @property
    def late_registration_open(self) -> bool:
        """Multi: a running tournament still taking late registrations (and re-entries) at its level."""
        t = self.tournament
        return (
            t.kind == TournamentKind.MULTI
            and t.status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED)
            and t.level <= t.late_registration_levels
        )


@dataclass(frozen=True)
class Level:
    level: int
    pcr: int
    rounds: int


@dataclass(frozen=True)
class PlaceAmount:
    place: int
    percent: int
    amount: int


def tournament_rows(*, items: list[Tournament], user: User | AnonymousUser) -> list[TournamentRow]:
    """The rows of `items` (a page), in one more statement whatever their number: the caller's entries (the
    entrants and re-entries are the rows' counters, `tournament.counters`)."""
    ids = [t.pk for t in items]
    mine = _entry_statuses(user, ids)
    return [
        TournamentRow(
            t,
            t.entrants,
            t.reentries,
            entry_status=mine[t.pk][0] if t.pk in mine else None,
            my_table=mine[t.pk][1] if t.pk in mine else None,
        )
        for t in items
    ]


def tournament_row(*, tournament: Tournament, user: User | AnonymousUser) -> TournamentRow:
    return tournament_rows(items=[tournament], user=user)[0]


def open_for_registration(*, limit: int) -> list[TournamentRow]:
    """The next `limit` tournaments taking registrations (the landing page): multi-table ones by their start,
    soonest first, then those that start when full, newest first; with their entrants, for no one in
    particular."""
    found = Tournament.objects.filter(status=TournamentStatus.REGISTERING, private=False).order_by(
        F("starts_at").asc(nulls_last=True), "-id"
    )
    return tournament_rows(items=list(found[:limit]), user=AnonymousUser())


@dataclass(frozen=True)
class Standing:
    """A row of the standings (StandingSerializer): `total` at one table, `chips` at several."""

    place: int | None
    username: str
    status: str
    total: int | None
    tiebreak_total: int | None
    chips: int | None
    table: int | None
    prize: int
    # Multi: the bounty on the player's head, the bounties paid to them, their rebuys and add-on
    # (docs/rules.md "Progressive knockout", "Rebuys and the add-on").
    bounty: int = 0
    bounties_won: int = 0
    rebuys: int = 0
    addon: bool = False


def standing_of(*, tournament: Tournament, username: str) -> list[Standing]:
    """One player's row of a one-table tournament's `standings` (a table's few players), or none."""
    return [row for row in standings(tournament=tournament) if row.username == username]


def standings(*, tournament: Tournament) -> list[Standing]:
    """Players still in first (highest total first), then by place (docs/api.md "Tournaments")."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES)
        .select_related("player")
        .order_by("registered_at", "pk")
    )
    one_table = tournament.kind in ONE_TABLE_KINDS
    still_in = (EntryStatus.REGISTERED, EntryStatus.PLAYING)

    def order(e: TournamentEntry) -> tuple[Any, ...]:
        if e.status in still_in:
            return (0, -e.total, -e.tiebreak_total)
        return (1, e.place or 0)

    return [
        Standing(
            place=e.place,
            username=e.player.get_username(),
            status=e.status,
            total=e.total if one_table else None,
            tiebreak_total=e.tiebreak_total if e.in_tiebreak else None,
            chips=None,
            table=e.table_id if e.status == EntryStatus.PLAYING else None,
            prize=e.prize,
        )
        for e in sorted(entries, key=order)
    ]


@dataclass(frozen=True)
class TableSeat:
    """A player at a tournament's table (TournamentSeatSerializer); `chips` null at one table, where the seats
    hold points (the standings' totals)."""

    username: str
    seat: int
    chips: int | None
    status: str
    bounty: int = 0  # multi: the bounty on the player's head (docs/rules.md "Progressive knockout")


@dataclass(frozen=True)
class TournamentTable:
    """A tournament's table as the lobby shows it (TournamentTableSerializer); `level` and `pcr` multi only."""

    table: int
    game: int | None
    status: str
    players: list[TableSeat]
    level: int | None
    pcr: int | None


def tables(*, tournament: Tournament) -> list[TournamentTable]:
    found = []
    for table in Table.objects.filter(tournament=tournament).order_by("pk"):
        game = Game.objects.filter(table=table).only("pk", "status").first()
        seats = (
            Seat.objects.filter(table=table)
            .exclude(status=SeatStatus.LEFT)
            .select_related("player")
            .order_by("number")
        )
        found.append(
            TournamentTable(
                table=table.pk,
                game=game.pk if game is not None else None,
                status=table.status,
                players=[
                    TableSeat(username=s.player.get_username(), seat=s.number, chips=None, status=s.status)
                    for s in seats
                ],
                level=None,
                pcr=None,
            )
        )
    return found


@dataclass(frozen=True)
class Prize:
    place: int | None
    username: str
    amount: int
    transfer: int


@dataclass(frozen=True)
class PayoutReport:
    """What came in and what was paid (PayoutReportSerializer)."""

    entrants: int
    buy_ins: int
    fees: int
    guarantee_paid: int
    prize_pool: int
    prizes: list[Prize]


def payouts(*, tournament: Tournament) -> PayoutReport:
    """Staff: what came in and what was paid, read from the ledger in a few aggregate statements (their number
    and size do not grow with the entrants but for the prize rows). A re-entry counts as one more entrant and
    buy-in (multi)."""
    pool_id = tournament.pool_account_id
    money = Entry.objects.filter(
        transfer__tournament_id=tournament.pk,
        transfer__kind__in=[
            TransferKind.TOURNAMENT_BUY_IN,
            TransferKind.REFUND,
            TransferKind.GUARANTEE,
            TransferKind.PAYOUT,
        ],
    )
    buy_ins = fees = guarantee = 0
    for total in (
        money.exclude(account__kind=AccountKind.WALLET)
        .values("transfer__kind", "account_id")
        .annotate(amount=Sum("amount"))
        .order_by()
    ):
        kind, amount = total["transfer__kind"], int(total["amount"])
        if kind in (TransferKind.TOURNAMENT_BUY_IN, TransferKind.REFUND):
            if total["account_id"] == pool_id:
                buy_ins += amount
            else:
                fees += amount
        elif kind == TransferKind.GUARANTEE and total["account_id"] == pool_id:
            guarantee += amount
    paid = list(
        money.filter(transfer__kind=TransferKind.PAYOUT, account__kind=AccountKind.WALLET, amount__gt=0)
        .order_by("transfer_id", "id")
        .values("account__user_id", "account__user__username", "amount", "transfer_id")
    )
    places = dict(
        TournamentEntry.objects.filter(
            tournament=tournament,
            status__in=LIVE_ENTRY_STATUSES,
            player_id__in={p["account__user_id"] for p in paid},
        ).values_list("player_id", "place")
    )
    rows = [
        Prize(
            place=places.get(p["account__user_id"]),
            username=p["account__user__username"] or "",
            amount=p["amount"],
            transfer=p["transfer_id"],
        )
        for p in paid
    ]
    rows.sort(key=lambda r: (r.place or 0, r.username))
    counted = TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES).aggregate(
        entries=Count("pk"), reentries=Coalesce(Sum("reentries"), 0)
    )
    return PayoutReport(
        entrants=int(counted["entries"]) + int(counted["reentries"]),
        buy_ins=buy_ins,
        fees=fees,
        guarantee_paid=guarantee,
        prize_pool=buy_ins + guarantee,
        prizes=rows,
    )


@dataclass(frozen=True)
class Leg:
    account: int
    username: str | None
    amount: int


@dataclass(frozen=True)
class TransferLegs:
    """A transfer with its legs in posting order (CancelTransferSerializer)."""

    id: int
    kind: str
    legs: list[Leg]


def transfer_legs(transfer: Transfer) -> TransferLegs:
    return TransferLegs(
        id=transfer.pk,
        kind=transfer.kind,
        legs=[
            Leg(
                account=e.account_id,
                username=e.account.user.get_username() if e.account.user else None,
                amount=e.amount,
            )
            for e in transfer.entries.select_related("account__user").order_by("id")
        ],
    )


@dataclass(frozen=True)
class Cancelled:
    """What cancelling answers (CancelSerializer): the tournament now and the transfers it made."""

    tournament: TournamentRow
    transfers: list[TransferLegs]


def pool_balance(tournament: Tournament) -> int:
    if tournament.pool_account_id is None:
        return 0
    return Account.objects.get(pk=tournament.pool_account_id).balance
