"""Reads of tournaments for the API and the admin: the list, one tournament, standings, tables, the payout
report. Nothing here reads a hand, a deck or a stock: standings and tables show totals, seats and places."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import Coalesce

from ledger.models import Account, AccountKind, Entry, Transfer, TransferKind
from tournaments.errors import NotFound, PlayCode
from tournaments.live.models import Game, Seat, SeatStatus, Table
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    ONE_TABLE_KINDS,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
)


def tournaments(
    *, kind: str | None = None, statuses: Sequence[str] = (), game: str | None = None
) -> QuerySet[Tournament]:
    """Newest first. Plain rows: a page's counts are read by `tournament_rows`, for that page only (the list's
    count never joins the entries)."""
    found = Tournament.objects.order_by("-id")
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


def _entry_statuses(user: User | AnonymousUser, ids: list[int]) -> dict[int, str]:
    """The caller's live entry's status in each tournament of `ids` that has one."""
    if not user.is_authenticated or not ids:
        return {}
    return dict(
        TournamentEntry.objects.filter(
            tournament_id__in=ids, player_id=user.pk, status__in=LIVE_ENTRY_STATUSES
        ).values_list("tournament_id", "status")
    )


def prize_pool(tournament: Tournament, entrants: int, reentries: int = 0) -> int:
    """The buy-ins (a re-entry is one more) plus any guarantee shortfall (docs/tournaments.md "Prizes"): what
    is or will be paid out."""
    return max((entrants + reentries) * tournament.buy_in, tournament.guarantee)


def _counts(ids: list[int]) -> dict[int, tuple[int, int]]:
    """Live entries and re-entries of each tournament of `ids`, in one grouped statement."""
    if not ids:
        return {}
    found = (
        TournamentEntry.objects.filter(tournament_id__in=ids, status__in=LIVE_ENTRY_STATUSES)
        .values("tournament_id")
        .annotate(entries=Count("pk"), reentries=Coalesce(Sum("reentries"), 0))
        .order_by()
    )
    return {c["tournament_id"]: (int(c["entries"]), int(c["reentries"])) for c in found}


def tournament_rows(*, items: list[Tournament], user: User | AnonymousUser) -> list[dict[str, Any]]:
    """The rows of `items` (a page), in two more statements whatever their number: the counts, the caller's
    entries."""
    ids = [t.pk for t in items]
    counts = _counts(ids)
    mine = _entry_statuses(user, ids)
    return [_row(t, mine.get(t.pk), *counts.get(t.pk, (0, 0))) for t in items]


def _row(t: Tournament, entry_status: str | None, entrants: int, reentries: int) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "kind": t.kind,
        "game": t.game,
        "options": t.options,
        "status": t.status,
        "buy_in": t.buy_in,
        "fee": t.fee,
        "guarantee": t.guarantee,
        "starting_stack": t.starting_stack,
        "seats": t.seats,
        "pcr_schedule": t.pcr_schedule,
        "rounds_per_level": t.rounds_per_level,
        "multiplier": t.multiplier,
        "target_score": t.target_score,
        "rounds": t.rounds,
        "tiebreak_rounds": t.tiebreak_rounds,
        "min_entrants": t.min_entrants,
        "max_entrants": t.max_entrants,
        "starts_at": t.starts_at,
        "registration_opens_at": t.registration_opens_at,
        "late_registration_levels": t.late_registration_levels,
        "reentry": t.reentry,
        "payouts": t.payouts,
        "entrants": entrants,
        "prize_pool": prize_pool(t, entrants, reentries),
        "level": t.level if t.kind == TournamentKind.MULTI else None,
        "registered": entry_status is not None,
        "entry_status": entry_status,
        "stage": t.stage,
        "tiebreaks_played": t.tiebreaks_played,
        "started_at": t.started_at,
        "finished_at": t.finished_at,
        "error": t.error or None,
        "start_failures": t.start_failures,
        "version": t.version,
    }


def tournament_data(*, tournament: Tournament, user: User | AnonymousUser) -> dict[str, Any]:
    return tournament_rows(items=[tournament], user=user)[0]


def entry_data(entry: TournamentEntry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "username": entry.player.get_username(),
        "status": entry.status,
        "registered_at": entry.registered_at,
    }


def standings(*, tournament: Tournament) -> list[dict[str, Any]]:
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
        {
            "place": e.place,
            "username": e.player.get_username(),
            "status": e.status,
            "total": e.total if one_table else None,
            "tiebreak_total": e.tiebreak_total if e.in_tiebreak else None,
            "chips": None,
            "table": e.table_id if e.status == EntryStatus.PLAYING else None,
            "prize": e.prize,
        }
        for e in sorted(entries, key=order)
    ]


def tables(*, tournament: Tournament) -> list[dict[str, Any]]:
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
            {
                "table": table.pk,
                "game": game.pk if game is not None else None,
                "status": table.status,
                # At one table the seats hold points, not chips (the standings' totals).
                "players": [
                    {"username": s.player.get_username(), "seat": s.number, "chips": None, "status": s.status}
                    for s in seats
                ],
                "level": None,
                "pcr": None,
            }
        )
    return found


def payouts(*, tournament: Tournament) -> dict[str, Any]:
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
        {
            "place": places.get(p["account__user_id"]),
            "username": p["account__user__username"] or "",
            "amount": p["amount"],
            "transfer": p["transfer_id"],
        }
        for p in paid
    ]
    rows.sort(key=lambda r: (r["place"] or 0, r["username"]))
    counted = TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES).aggregate(
        entries=Count("pk"), reentries=Coalesce(Sum("reentries"), 0)
    )
    return {
        "entrants": int(counted["entries"]) + int(counted["reentries"]),
        "buy_ins": buy_ins,
        "fees": fees,
        "guarantee_paid": guarantee,
        "prize_pool": buy_ins + guarantee,
        "prizes": rows,
    }


def transfer_data(transfer: Transfer) -> dict[str, Any]:
    return {
        "id": transfer.pk,
        "kind": transfer.kind,
        "legs": [
            {
                "account": e.account_id,
                "username": e.account.user.get_username() if e.account.user else None,
                "amount": e.amount,
            }
            for e in transfer.entries.select_related("account__user").order_by("id")
        ],
    }


def pool_balance(tournament: Tournament) -> int:
    if tournament.pool_account_id is None:
        return 0
    return Account.objects.get(pk=tournament.pool_account_id).balance
