"""Reads of the integrity job (rounds as `signals.RoundFacts`, seats, thresholds) and of its flags."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Min, QuerySet, Sum

from integrity.models import Flag
from integrity.signals import Payment, RoundFacts, Thresholds
from ledger.models import SITE_CHIPS, AccountKind, Entry, Transfer, TransferKind
from tournaments.live.models import MoveLog, Round, Seat

SETTLEMENT_KINDS = (TransferKind.SETTLEMENT, TransferKind.BONUS_SETTLEMENT)
# The moves soft play reads (signals.feed_offers): the rest of the log is not loaded.
FEED_MOVES = ("draw", "discard", "end_round")


def thresholds() -> Thresholds:
    return Thresholds(
        dumping_min_rounds=settings.RAMINO_INTEGRITY_DUMPING_MIN_ROUNDS,
        dumping_min_net_chips=settings.RAMINO_INTEGRITY_DUMPING_MIN_NET_CHIPS,
        dumping_min_one_sided=settings.RAMINO_INTEGRITY_DUMPING_MIN_ONE_SIDED,
        dumping_min_z=settings.RAMINO_INTEGRITY_DUMPING_MIN_Z,
        dumping_min_timeout_rounds=settings.RAMINO_INTEGRITY_DUMPING_MIN_TIMEOUT_ROUNDS,
        soft_min_offers=settings.RAMINO_INTEGRITY_SOFT_MIN_OFFERS,
        soft_min_ratio=settings.RAMINO_INTEGRITY_SOFT_MIN_RATIO,
        soft_min_z=settings.RAMINO_INTEGRITY_SOFT_MIN_Z,
        pair_min_private_tables=settings.RAMINO_INTEGRITY_PAIR_MIN_PRIVATE_TABLES,
        pair_min_share=settings.RAMINO_INTEGRITY_PAIR_MIN_SHARE,
        address_min_accounts=settings.RAMINO_INTEGRITY_ADDRESS_MIN_ACCOUNTS,
        farm_new_account_days=settings.RAMINO_INTEGRITY_FARM_NEW_ACCOUNT_DAYS,
        farm_min_accounts=settings.RAMINO_INTEGRITY_FARM_MIN_ACCOUNTS,
        farm_min_chips=settings.RAMINO_INTEGRITY_FARM_MIN_CHIPS,
        farm_min_share=settings.RAMINO_INTEGRITY_FARM_MIN_SHARE,
        farm_min_grant_share=settings.RAMINO_INTEGRITY_FARM_MIN_GRANT_SHARE,
        farm_max_rounds=settings.RAMINO_INTEGRITY_FARM_MAX_ROUNDS,
    )


def _settlements() -> QuerySet[Transfer]:
    # Ring tables settle site chips; a tournament's tables settle its own chips (or points only).
    return Transfer.objects.filter(kind__in=SETTLEMENT_KINDS, chip_type=SITE_CHIPS, round_id__isnull=False)


def settlement_batch(*, after: int, limit: int, cutoff: datetime) -> tuple[list[RoundFacts], int]:
    """The rounds whose first settlement transfer comes after transfer `after` (at most `limit` transfers,
    none younger than `cutoff`), and the last transfer id read. A round's bonus settlement is read with it,
    and a round is read once: in the batch holding its first transfer."""
    batch = list(
        _settlements()
        .filter(pk__gt=after, created_at__lte=cutoff)
        .order_by("pk")
        .values_list("pk", "round_id")[:limit]
    )
    if not batch:
        return [], after
    last = batch[-1][0]
    candidates = {int(round_id) for _, round_id in batch if round_id is not None}
    first_of = dict(
        _settlements()
        .filter(round_id__in=candidates)
        .values("round_id")
        .annotate(first=Min("pk"))
        .values_list("round_id", "first")
    )
    round_ids = sorted(r for r in candidates if after < first_of[r] <= last)
    return load_rounds(round_ids), last


def load_rounds(round_ids: Sequence[int]) -> list[RoundFacts]:
    """The settled rounds `round_ids` (their table, players, payments, settlement transfers, timeouts, feeds)."""
    if not round_ids:
        return []
    transfers: dict[int, list[int]] = {}
    for pk, round_id in _settlements().filter(round_id__in=round_ids).values_list("pk", "round_id"):
        if round_id is not None:
            transfers.setdefault(round_id, []).append(pk)
    timed_out: dict[int, set[str]] = {}
    for round_id, player in (
        MoveLog.objects.filter(round_id__in=round_ids, server_played=True)
        .values_list("round_id", "player")
        .distinct()
    ):
        timed_out.setdefault(round_id, set()).add(player)
    moves: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for round_id, player, move in (
        MoveLog.objects.filter(round_id__in=round_ids, move__type__in=FEED_MOVES)
        .order_by("game_id", "version")
        .values_list("round_id", "player", "move")
    ):
        moves.setdefault(round_id, []).append((player, move))
    rows = list(
        Round.objects.filter(pk__in=round_ids, settled=True)
        .order_by("pk")
        .values(
            "pk",
            "players",
            "transfers",
            "started_at",
            "game__table_id",
            "game__table__private",
            "game__table__game",
        )
    )
    joined = dict(
        get_user_model()
        .objects.filter(username__in={str(p) for row in rows for p in row["players"]})
        .values_list("username", "date_joined")
    )
    young = timedelta(days=settings.RAMINO_INTEGRITY_FARM_NEW_ACCOUNT_DAYS)
    return [
        RoundFacts(
            round_id=row["pk"],
            table_id=row["game__table_id"],
            game=row["game__table__game"],
            private=row["game__table__private"],
            players=tuple(row["players"]),
            payments=tuple(
                Payment(payer=str(t["from"]), payee=str(t["to"]), amount=int(t["amount"]))
                for t in row["transfers"] or []
            ),
            transfer_ids=tuple(transfers.get(row["pk"], ())),
            timed_out=frozenset(timed_out.get(row["pk"], ())),
            moves=tuple(moves.get(row["pk"], ())),
            new_players=frozenset(
                str(p) for p in row["players"] if p in joined and row["started_at"] - joined[p] <= young
            ),
        )
        for row in rows
    ]


def new_seats(*, after: int, cutoff: datetime) -> tuple[set[int], int]:
    """The tables where somebody sat down after seat `after` (none younger than `cutoff`), and the last seat id."""
    rows = list(
        Seat.objects.filter(pk__gt=after, sat_at__lte=cutoff)
        .exclude(address="")
        .values_list("pk", "table_id")
    )
    last = max((pk for pk, _ in rows), default=after)
    return {table_id for _, table_id in rows}, last


def table_addresses(table_id: int) -> list[tuple[str, str]]:
    """(username, address) of every seat ever taken at the table."""
    return list(
        Seat.objects.filter(table_id=table_id).exclude(address="").values_list("player__username", "address")
    )


def table_payments(table_id: int, players: Iterable[str]) -> list[dict[str, Any]]:
    """The chips `players` paid each other at the table's settled rounds: `[{from, to, chips}]`."""
    among = set(players)
    paid: dict[tuple[str, str], int] = {}
    for transfers in Round.objects.filter(game__table_id=table_id, settled=True).values_list(
        "transfers", flat=True
    ):
        for t in transfers or []:
            payer, payee = str(t["from"]), str(t["to"])
            if payer in among and payee in among and payer != payee:
                paid[(payer, payee)] = paid.get((payer, payee), 0) + int(t["amount"])
    return [
        {"from": a, "to": b, "chips": c} for (a, b), c in sorted(paid.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def granted(usernames: Iterable[str]) -> dict[str, int]:
    """The chips the house granted each player (welcome chips and daily top-ups, those reversed left out)."""
    rows = (
        Entry.objects.filter(
            transfer__kind=TransferKind.GRANT,
            account__kind=AccountKind.WALLET,
            account__user__username__in=list(usernames),
            amount__gt=0,
            transfer__reversed_by__isnull=True,
        )
        .values("account__user__username")
        .annotate(chips=Sum("amount"))
        .values_list("account__user__username", "chips")
    )
    return {str(name): int(chips) for name, chips in rows}


def private_table_counts(usernames: Iterable[str]) -> dict[str, int]:
    """How many private tables each player ever sat at."""
    return dict(
        Seat.objects.filter(player__username__in=list(usernames), table__private=True)
        .values("player__username")
        .annotate(tables=Count("table_id", distinct=True))
        .values_list("player__username", "tables")
    )


def flag_list(*, status: str | None = None, kind: str | None = None) -> QuerySet[Flag]:
    flags = Flag.objects.select_related("decided_by").order_by("-created_at", "-id")
    if status:
        flags = flags.filter(status=status)
    if kind:
        flags = flags.filter(kind=kind)
    return flags
