"""The audit pages' reads: the ledger's selectors joined with the tables they name (the ledger refers to
tables, rounds and tournaments only by id). Finished rounds only ever show their settlement; nothing here
reads a round's hands, stock, deck or salt."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Max, QuerySet, Sum

from ledger import selectors as ledger
from ledger.models import SITE_CHIPS, Account, AccountKind, Entry, Transfer, TransferKind
from tournaments.deals.models import Deal
from tournaments.live.models import Round, Seat, Table
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

SETTLEMENT_KINDS = (TransferKind.SETTLEMENT, TransferKind.BONUS_SETTLEMENT)
# A chart past this many points says no more than one of this many.
MAX_CHART_POINTS = 600


def player(*, username: str) -> AbstractBaseUser | None:
    return get_user_model().objects.filter(username=username).first()


# --------------------------------------------------------------------------------------------- a player


@dataclass
class Holding:
    account: Account
    seat: Seat | None


@dataclass
class ChipFlow:
    holdings: list[Holding]
    wallet: int
    at_tables: int
    # Site chips paid into tournaments still running (buy-ins and fees not refunded): held in an entry, not lost.
    in_tournaments: int = 0
    # (time, wallet balance) and (time, wallet + seat stacks + open tournament entries) after each transfer,
    # oldest first: a buy-in or a tournament entry moves chips and leaves the total where it was.
    wallet_series: list[tuple[datetime, int]] = field(default_factory=list)
    total_series: list[tuple[datetime, int]] = field(default_factory=list)
    # table id -> {"buy_in", "settlement", "cash_out", ...}: the player's seat-stack legs by transfer kind
    per_table: dict[int, dict[str, int]] = field(default_factory=dict)


# Transfers that only move a player's chips between their own holdings (wallet, seat, tournament entry).
MOVES = (TransferKind.BUY_IN, TransferKind.CASH_OUT, TransferKind.TOURNAMENT_BUY_IN, TransferKind.REFUND)


def chip_flow(*, user: AbstractBaseUser) -> ChipFlow:
    """The player's site chips across the wallet, every seat stack and every tournament entry, over their whole
    history. A tournament entry holds what was paid for it (buy-in and fee) until a refund takes it back or the
    tournament ends (its prize, if any, is a payout to the wallet); a multi-table tournament's own chips are
    another chip type and are left out."""
    accounts = list(ledger.player_accounts(user=user))
    seats = {
        seat.stack_account_id: seat
        for seat in Seat.objects.filter(stack_account__in=accounts).select_related("table")
    }
    holdings = [Holding(account=account, seat=seats.get(account.pk)) for account in accounts]
    site = [a for a in accounts if a.chip_type == SITE_CHIPS]
    flow = ChipFlow(
        holdings=holdings,
        wallet=sum(a.balance for a in site if a.kind == AccountKind.WALLET),
        at_tables=sum(a.balance for a in site if a.kind == AccountKind.SEAT_STACK),
    )
    wallets = {a.pk for a in site if a.kind == AccountKind.WALLET}
    site_ids = {a.pk for a in site}
    balances: dict[int, int] = {}
    stakes: dict[int, int] = defaultdict(int)
    # When each tournament the player entered let go of its entries: its end, or its last transfer (prizes and
    # refunds posted as it ends) if later.
    ended = (
        Tournament.objects.filter(
            entries__player_id=user.pk, status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED]
        )
        .exclude(finished_at__isnull=True)
        .values_list("pk", "finished_at")
        .distinct()
    )
    last = dict(
        Entry.objects.filter(transfer__tournament_id__in=[pk for pk, _at in ended])
        .values("transfer__tournament_id")
        .annotate(at=Max("created_at"))
        .values_list("transfer__tournament_id", "at")
    )
    ends: dict[int, datetime] = {}
    for pk, at in ended:
        if at is not None:
            later = last.get(pk)
            ends[pk] = max(at, later) if later is not None else at
    rows = (
        ledger.player_entries(user=user)
        .filter(account__chip_type=SITE_CHIPS)
        .values_list(
            "transfer_id",
            "account_id",
            "amount",
            "balance_after",
            "created_at",
            "transfer__kind",
            "transfer__tournament_id",
        )
    )
    pending: tuple[int, datetime] | None = None

    def point(at: datetime) -> None:
        flow.wallet_series.append((at, sum(balances.get(pk, 0) for pk in wallets)))
        flow.total_series.append((at, sum(balances.values()) + sum(stakes.values())))

    def close_stakes(before: datetime | None) -> None:
        # A tournament that ended lets go of its entry (what was not refunded or won is spent).
        for tournament_id, stake in list(stakes.items()):
            ended = ends.get(tournament_id)
            if stake and ended is not None and (before is None or ended < before):
                stakes[tournament_id] = 0
                point(ended)

    # One point per transfer, after all its legs: a buy-in moves chips from the wallet to a stack in two
    # entries, and the total must not dip between them.
    for transfer_id, account_id, amount, balance_after, created_at, kind, tournament_id in rows.iterator(
        chunk_size=2000
    ):
        if pending is not None and pending[0] != transfer_id:
            point(pending[1])
            pending = None
        if pending is None:
            close_stakes(created_at)
        if account_id not in site_ids:
            continue
        balances[account_id] = balance_after
        if tournament_id is not None and account_id in wallets:
            if kind == TransferKind.TOURNAMENT_BUY_IN:
                stakes[tournament_id] -= amount
            elif kind == TransferKind.REFUND:
                stakes[tournament_id] = max(0, stakes[tournament_id] - amount)
        pending = (transfer_id, created_at)
    if pending is not None:
        point(pending[1])
    close_stakes(None)
    flow.in_tournaments = sum(stakes.values())
    flow.wallet_series = _thin(flow.wallet_series)
    flow.total_series = _thin(flow.total_series)
    per_table: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    legs = (
        Entry.objects.filter(account__in=[a for a in accounts if a.kind == AccountKind.SEAT_STACK])
        .values("transfer__table_id", "transfer__kind")
        .annotate(chips=Sum("amount"))
        .order_by("transfer__table_id")
    )
    for leg in legs:
        if leg["transfer__table_id"] is not None:
            per_table[leg["transfer__table_id"]][leg["transfer__kind"]] += int(leg["chips"])
    flow.per_table = {table: dict(kinds) for table, kinds in per_table.items()}
    return flow


def _thin(points: list[tuple[datetime, int]]) -> list[tuple[datetime, int]]:
    if len(points) <= MAX_CHART_POINTS:
        return points
    step = len(points) / MAX_CHART_POINTS
    kept = [points[int(i * step)] for i in range(MAX_CHART_POINTS)]
    return [*kept, points[-1]]


def settled_result(kinds: dict[str, int]) -> int:
    """A player's result at a table: what the settlements (and their reversals) moved on their stacks."""
    return sum(chips for kind, chips in kinds.items() if kind in (*SETTLEMENT_KINDS, TransferKind.REVERSAL))


# ---------------------------------------------------------------------------------------------- a round


@dataclass
class SettlementRow:
    player: str
    seat_number: int | None
    seat: Seat | None
    stack: int | None
    score: int | None
    difference: int | None = None
    owed: int | None = None
    capped_at_own_stack: bool = False
    payable: int | None = None
    paid: int = 0
    kept: int | None = None
    received: int = 0
    capped_shares: list[str] = field(default_factory=list)
    ledger_net: int = 0
    winner: bool = False


@dataclass
class RoundSettlement:
    round: Round
    table: Table
    transfers: list[Transfer]
    computation: dict[str, Any]
    rows: list[SettlementRow]
    payments: list[tuple[str, str, int]]


def round_settlement(*, round_id: int) -> RoundSettlement | None:
    """A round with its settlement: the computation stored with the ledger transfer, one row per player,
    and the legs the ledger holds. A running round shows no scores (they are not final)."""
    round_ = Round.objects.select_related("game__table").filter(pk=round_id).first()
    if round_ is None:
        return None
    table = round_.game.table
    transfers = list(ledger.transfer_list().filter(round_id=round_.pk))
    seats = {
        seat.player.get_username(): seat
        for seat in Seat.objects.filter(table=table, stack_account__entries__transfer__in=transfers)
        .select_related("player")
        .distinct()
    }
    main = next((t for t in transfers if t.kind == TransferKind.SETTLEMENT), None)
    computation = main.computation if main is not None else {}
    over = round_.ended_at is not None
    scores = (round_.scores or {}) if over else {}
    winners = set(computation.get("winners", []))
    rows: dict[str, SettlementRow] = {
        name: SettlementRow(
            player=name,
            seat_number=round_.seat_numbers.get(name),
            seat=seats.get(name),
            stack=round_.stacks.get(name),
            score=scores.get(name) if over else None,
            winner=name in winners,
        )
        for name in round_.players
    }
    for line in computation.get("payers", []):
        row = rows.get(line["player"])
        if row is None:
            continue
        row.difference, row.owed, row.payable = line["difference"], line["owed"], line["payable"]
        row.capped_at_own_stack = bool(line.get("capped_at_own_stack"))
        row.paid, row.kept = line["paid"], line["kept"]
        for share in line.get("shares", []):
            if share["payee"] in rows:
                rows[share["payee"]].received += share["paid"]
            if share.get("capped_at_winner_stack"):
                row.capped_shares.append(share["payee"])
    for transfer in transfers:
        if transfer.kind not in (*SETTLEMENT_KINDS, TransferKind.REVERSAL):
            continue
        for entry in transfer.entries.all():
            owner = entry.account.user.get_username() if entry.account.user else None
            if owner in rows:
                rows[owner].ledger_net += entry.amount
    payments = [
        (str(a), str(b), int(c)) for a, b, c in computation.get("transfers", []) if isinstance(c, int)
    ]
    return RoundSettlement(
        round=round_,
        table=table,
        transfers=transfers,
        computation=computation,
        rows=list(rows.values()),
        payments=payments,
    )


# ---------------------------------------------------------------------------------------------- a table


@dataclass
class TableAudit:
    table: Table
    seats: list[Seat]
    rounds: list[Round]
    players: list[str]
    paid: dict[tuple[str, str], int]
    standings: list[tuple[str, int]]


def table_audit(*, table_id: int) -> TableAudit | None:
    """A table's sittings, rounds, who paid whom in its settlements (reversed ones left out) and each
    player's result there, from the ledger's legs."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = list(Seat.objects.filter(table=table).select_related("player", "stack_account").order_by("id"))
    rounds = list(Round.objects.filter(game__table=table).order_by("number"))
    paid: dict[tuple[str, str], int] = defaultdict(int)
    settlements = Transfer.objects.filter(
        table_id=table.pk, kind__in=SETTLEMENT_KINDS, reversed_by__isnull=True
    ).values_list("computation", flat=True)
    for computation in settlements:
        for payer, payee, chips in computation.get("transfers", []):
            paid[(payer, payee)] += chips
    results = (
        Entry.objects.filter(
            account__kind=AccountKind.SEAT_STACK,
            transfer__table_id=table.pk,
            transfer__kind__in=(*SETTLEMENT_KINDS, TransferKind.REVERSAL),
        )
        .values("account__user__username")
        .annotate(chips=Sum("amount"))
    )
    standings = sorted(
        ((row["account__user__username"], int(row["chips"])) for row in results), key=lambda r: (-r[1], r[0])
    )
    players: list[str] = []
    for seat in seats:
        name = seat.player.get_username()
        if name not in players:
            players.append(name)
    return TableAudit(
        table=table, seats=seats, rounds=rounds, players=players, paid=dict(paid), standings=standings
    )


def recent_rounds(*, limit: int) -> QuerySet[Round]:
    return (
        Round.objects.filter(ended_at__isnull=False)
        .select_related("game")
        .order_by("-ended_at", "-id")[:limit]
    )


# -------------------------------------------------------------------------------------------- a transfer


def transfer_detail(*, transfer_id: int) -> tuple[Transfer, dict[int, Seat]] | None:
    transfer = ledger.transfer_list().filter(pk=transfer_id).first()
    if transfer is None:
        return None
    accounts = [entry.account_id for entry in transfer.entries.all()]
    seats = {
        seat.stack_account_id: seat
        for seat in Seat.objects.filter(stack_account_id__in=accounts)
        if seat.stack_account_id is not None
    }
    return transfer, seats


# ------------------------------------------------------------------------------------------ a tournament


@dataclass
class PayoutReport:
    """A tournament's chips as the ledger holds them, by player and by kind (buy-ins, fees, payouts,
    refunds), built from transfers' `tournament_id`; `places` adds each entrant's place once the tournament has
    placed them (username -> place)."""

    tournament_id: int
    transfers: list[Transfer]
    by_player: dict[str, dict[str, int]]
    standings: list[tuple[str, int]]
    places: dict[str, int] = field(default_factory=dict)
    # The tournament's status, and why its scheduled start failed ("" if it did not; docs/tournaments.md).
    status: str = ""
    error: str = ""
    tournament: Tournament | None = None
    # (player, chips, transfer) of each refund, oldest first: a cancelled tournament's buy-ins and fees back.
    refunds: list[tuple[str, int, Transfer]] = field(default_factory=list)
    entrants: int = 0

    @property
    def cancelled(self) -> bool:
        return self.status == TournamentStatus.CANCELLED

    @property
    def rows(self) -> list[tuple[str, int | None, dict[str, int]]]:
        """(player, place or None, chips by kind), placed players first by place."""
        rows = [(name, self.places.get(name), kinds) for name, kinds in self.by_player.items()]
        return sorted(rows, key=lambda r: (r[1] is None, r[1] or 0, r[0]))


def payout_report(*, tournament_id: int) -> PayoutReport:
    transfers = list(ledger.transfer_list().filter(tournament_id=tournament_id))
    by_player: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for transfer in transfers:
        for entry in transfer.entries.all():
            if entry.account.user is not None:
                by_player[entry.account.user.get_username()][transfer.kind] += entry.amount
    payouts = {name: kinds.get(TransferKind.PAYOUT, 0) for name, kinds in by_player.items()}
    standings = sorted(payouts.items(), key=lambda r: (-r[1], r[0]))
    places = {
        name: int(place)
        for name, place in TournamentEntry.objects.filter(
            tournament_id=tournament_id, place__isnull=False
        ).values_list("player__username", "place")
        if place is not None
    }
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    refunds = [
        (entry.account.user.get_username(), entry.amount, transfer)
        for transfer in transfers
        if transfer.kind == TransferKind.REFUND
        for entry in transfer.entries.all()
        if entry.account.user is not None and entry.amount > 0
    ]
    return PayoutReport(
        tournament=tournament,
        refunds=refunds,
        entrants=tournament.entries.count() if tournament is not None else 0,
        status=tournament.status if tournament is not None else "",
        error=tournament.error if tournament is not None else "",
        tournament_id=tournament_id,
        transfers=transfers,
        by_player={name: dict(kinds) for name, kinds in by_player.items()},
        standings=standings,
        places=places,
    )


# ------------------------------------------------------------------------------------------ tournaments


def tournament_list(*, search: str = "", status: str = "") -> QuerySet[Tournament]:
    """Tournaments, newest first, by a part of their name and their status, each with its entrant count."""
    found = Tournament.objects.annotate(entrant_count=Count("entries")).order_by("-id")
    if search:
        found = found.filter(name__icontains=search)
    if status:
        found = found.filter(status=status)
    return found


def deals(*, tournament_id: int) -> list[Any]:
    """A tournament's final-table deals, newest first, each with its computation by player (`rows`): chips,
    both amounts, the amount offered, each place's chance and the player's answer."""
    found = list(Deal.objects.filter(tournament_id=tournament_id).select_related("proposer").order_by("-id"))
    for deal in found:
        c = deal.computation
        deal.rows = [  # type: ignore[attr-defined]
            {
                "name": name,
                "chips": c.get("stacks", {}).get(name, 0),
                "icm": c.get("icm", {}).get(name, 0),
                "chip_count": c.get("chip_count", {}).get(name, 0),
                "offered": deal.amounts.get(name, 0),
                "chances": c.get("place_chances", {}).get(name, []),
                "answer": deal.answers.get(name),
            }
            for name in deal.players
        ]
    return found
