"""Reads of the ledger shared by the audit API, the admin, the nightly task and the tests."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Count, F, Prefetch, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce

from ledger.guests import is_guest
from ledger.models import (
    NEGATIVE_ALLOWED_KINDS,
    PLAYER_KINDS,
    SITE_CHIPS,
    Account,
    AccountKind,
    Entry,
    GrantPolicy,
    ReconciliationRun,
    ReconciliationStatus,
    Transfer,
    TransferKind,
)

# Enough to diagnose; a ledger with more problems than this needs a human anyway.
MAX_PROBLEMS_PER_CHECK = 100


@dataclass
class ReconciliationReport:
    ok: bool
    accounts: int
    transfers: int
    total: int
    totals: dict[str, int]
    problems: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class TopUpState:
    """Where a player stands with the daily top-up (`GET /wallet/`'s `top_up`)."""

    OFF = "off"
    AVAILABLE = "available"
    CLAIMED_TODAY = "claimed_today"
    ABOVE_FLOOR = "above_floor"
    GUEST = "guest"  # a guest of the demo: no chips (create an account)
    STATES = (OFF, AVAILABLE, CLAIMED_TODAY, ABOVE_FLOOR, GUEST)


@dataclass(frozen=True)
class TopUp:
    """The daily top-up as the client needs it: `state` (one of `TopUpState.STATES`), whether it may be
    claimed now, the floor it tops up to (None when off) and, once claimed today, when the next may be."""

    state: str
    available: bool
    floor: int | None
    next_at: datetime | None


@dataclass(frozen=True)
class Wallet:
    """A player's wallet (WalletSerializer)."""

    balance: int
    currency: str
    top_up: TopUp | None = None


def grant_policy() -> GrantPolicy:
    """The house grant policy; when admins never configured it, the default (off), unsaved."""
    return GrantPolicy.objects.filter(pk=GrantPolicy.SINGLETON_ID).first() or GrantPolicy()


def welcome_grant_key(*, user_id: int) -> str:
    """The idempotency key of a player's welcome chips."""
    return f"grant:welcome:{user_id}"


def welcome_chips(*, user: AbstractBaseUser) -> int:
    """The welcome chips the house gave the player when they registered (0 when it gave none)."""
    computation = (
        Transfer.objects.filter(idempotency_key=welcome_grant_key(user_id=int(user.pk)))
        .values_list("computation", flat=True)
        .first()
    )
    return int(computation["chips"]) if computation else 0


def daily_grant_key(*, user_id: int, day: date) -> str:
    """The idempotency key of a player's daily top-up on a UTC day: one a day."""
    return f"grant:daily:{user_id}:{day.isoformat()}"


def utc_date(now: datetime) -> date:
    return now.astimezone(UTC).date()


def next_utc_midnight(now: datetime) -> datetime:
    return datetime.combine(utc_date(now) + timedelta(days=1), time.min, tzinfo=UTC)


def top_up(*, user: AbstractBaseUser, balance: int, now: datetime) -> TopUp:
    """The player's daily top-up state at `now`, `balance` being their chips (`chips_held`: the wallet and
    the stacks at tables)."""
    if is_guest(user=user):
        return TopUp(state=TopUpState.GUEST, available=False, floor=None, next_at=None)
    policy = grant_policy()
    if not policy.top_up_on:
        return TopUp(state=TopUpState.OFF, available=False, floor=None, next_at=None)
    key = daily_grant_key(user_id=int(user.pk), day=utc_date(now))
    if Transfer.objects.filter(idempotency_key=key).exists():
        return TopUp(
            state=TopUpState.CLAIMED_TODAY,
            available=False,
            floor=policy.daily_floor,
            next_at=next_utc_midnight(now),
        )
    if balance >= policy.daily_floor:
        return TopUp(state=TopUpState.ABOVE_FLOOR, available=False, floor=policy.daily_floor, next_at=None)
    return TopUp(state=TopUpState.AVAILABLE, available=True, floor=policy.daily_floor, next_at=None)


@dataclass(frozen=True)
class Statement:
    """A page of an account's statement with the balances around it (StatementSerializer): `results` are the
    page's entries, `opening_balance` the balance before the period, `balance_at` the balance at `at`."""

    account: Account
    opening_balance: int
    at: datetime | None
    balance_at: int | None
    next: str | None
    previous: str | None
    results: list[Entry]

    @property
    def balance(self) -> int:
        return self.account.balance


@dataclass(frozen=True)
class ReconciliationResult:
    """The last finished run's result (ReconciliationSerializer): whether transfers were posted since it
    started, and the run queued or running now, if any."""

    run: ReconciliationRun
    stale: bool
    pending: ReconciliationRun | None

    @property
    def total(self) -> int:
        return sum(self.run.totals.values())


def wallet_balance(*, user: AbstractBaseUser, chip_type: str = SITE_CHIPS) -> int:
    """The user's wallet balance; a user who never held chips has 0 (no wallet is created by reading)."""
    balance = (
        Account.objects.filter(kind=AccountKind.WALLET, chip_type=chip_type, user_id=user.pk)
        .values_list("balance", flat=True)
        .first()
    )
    return balance or 0


def chips_held(*, user: AbstractBaseUser) -> int:
    """The player's site chips: their wallet and their stacks at tables (what the daily top-up's floor is
    compared with; a stack cashed out holds 0)."""
    total = Account.objects.filter(
        kind__in=PLAYER_KINDS, chip_type=SITE_CHIPS, user_id=user.pk, balance__gt=0
    ).aggregate(total=Sum("balance"))["total"]
    return int(total or 0)


@dataclass(frozen=True)
class Grant:
    """A grant the player received and that stands (not reversed): when, and how many chips."""

    transfer_id: int
    at: datetime
    chips: int


def grants_received(*, user: AbstractBaseUser) -> list[Grant]:
    """The house grants posted to the player's wallet, oldest first, those reversed left out."""
    rows = (
        Entry.objects.filter(
            transfer__kind=TransferKind.GRANT,
            account__kind=AccountKind.WALLET,
            account__user_id=user.pk,
            amount__gt=0,
            transfer__reversed_by__isnull=True,
        )
        .order_by("transfer_id")
        .values_list("transfer_id", "transfer__created_at", "amount")
    )
    return [Grant(transfer_id=int(pk), at=at, chips=int(amount)) for pk, at, amount in rows]


def wallet_entries(*, user: AbstractBaseUser, chip_type: str = SITE_CHIPS) -> QuerySet[Entry]:
    """The entries of the user's own wallet, each with its transfer: the player's wallet history. Only the
    wallet's own legs: the other side of a transfer (a house account, a seat stack) stays out of it."""
    return Entry.objects.filter(
        account__kind=AccountKind.WALLET, account__chip_type=chip_type, account__user_id=user.pk
    ).select_related("transfer")


def account_list() -> QuerySet[Account]:
    return Account.objects.select_related("user").order_by("id")


def account_entries(
    *, account: Account, start: datetime | None = None, end: datetime | None = None
) -> QuerySet[Entry]:
    """The account's entries in posting order; `balance_after` is the running balance."""
    entries = Entry.objects.filter(account=account).select_related("transfer").order_by("id")
    if start is not None:
        entries = entries.filter(created_at__gte=start)
    if end is not None:
        entries = entries.filter(created_at__lt=end)
    return entries


def balance_at(*, account: Account, at: datetime, inclusive: bool = True) -> int:
    """The account's balance at `at` (after every entry posted at or before it; before it if not inclusive)."""
    lookup = "created_at__lte" if inclusive else "created_at__lt"
    last = (
        Entry.objects.filter(account=account, **{lookup: at})
        .order_by("-id")
        .values_list("balance_after", flat=True)
        .first()
    )
    return last or 0


def transfer_list() -> QuerySet[Transfer]:
    return (
        Transfer.objects.select_related("posted_by", "reversed_by")
        .prefetch_related(
            Prefetch("entries", queryset=Entry.objects.select_related("account__user").order_by("id"))
        )
        .order_by("id")
    )


def transfers_of_player(queryset: QuerySet[Transfer], *, username: str) -> QuerySet[Transfer]:
    """Transfers touching any account owned by the user (wallet, seat stacks)."""
    return queryset.filter(
        id__in=Entry.objects.filter(account__user__username=username).values("transfer_id")
    )


def player_entries(
    *, user: AbstractBaseUser, start: datetime | None = None, end: datetime | None = None
) -> QuerySet[Entry]:
    """Every entry of every account the player owns (PLAYER_KINDS: the wallet and each seat stack) in
    posting order, with its transfer and account: the player's whole chip flow."""
    entries = (
        Entry.objects.filter(account__user_id=user.pk, account__kind__in=PLAYER_KINDS)
        .select_related("transfer", "account")
        .order_by("id")
    )
    if start is not None:
        entries = entries.filter(created_at__gte=start)
    if end is not None:
        entries = entries.filter(created_at__lt=end)
    return entries


def player_accounts(*, user: AbstractBaseUser) -> QuerySet[Account]:
    return Account.objects.filter(user_id=user.pk, kind__in=PLAYER_KINDS).order_by("id")


def reconciliation_history(*, limit: int) -> QuerySet[ReconciliationRun]:
    return ReconciliationRun.objects.select_related("requested_by").order_by("-queued_at", "-id")[:limit]


def latest_reconciliation() -> ReconciliationRun | None:
    """The last finished reconciliation run, the one the on-demand endpoint serves."""
    return (
        ReconciliationRun.objects.filter(status=ReconciliationStatus.FINISHED)
        .order_by("-finished_at", "-id")
        .first()
    )


def pending_reconciliation() -> ReconciliationRun | None:
    return (
        ReconciliationRun.objects.filter(
            status__in=[ReconciliationStatus.QUEUED, ReconciliationStatus.RUNNING]
        )
        .order_by("-id")
        .first()
    )


def ledger_moved_since(instant: datetime) -> bool:
    """Whether any transfer was posted at or after `instant` (an index lookup, not a scan)."""
    return Transfer.objects.filter(created_at__gte=instant).exists()


def reconcile() -> ReconciliationReport:
    """Check the whole ledger: every transfer balanced and of one chip type, every cached balance equal
    to the sum of its entries (and to its last running balance), no forbidden negative balance, and
    every chip type summing to zero over all its accounts (chips are conserved)."""
    problems: list[dict[str, Any]] = []

    unbalanced = (
        Transfer.objects.annotate(total=Coalesce(Sum("entries__amount"), Value(0)), legs=Count("entries"))
        .filter(~Q(total=0) | Q(legs__lt=2))
        .values("id", "total", "legs")
        .order_by("id")[:MAX_PROBLEMS_PER_CHECK]
    )
    for row in unbalanced:
        problems.append(
            {
                "code": "transfer.unbalanced",
                "message": f"Transfer #{row['id']} has {row['legs']} entries summing to {row['total']}.",
                "transfer": row["id"],
                "sum": row["total"],
                "entries": row["legs"],
            }
        )

    mixed = (
        Entry.objects.exclude(account__chip_type=F("transfer__chip_type"))
        .values("id", "transfer_id", "account_id")
        .order_by("id")[:MAX_PROBLEMS_PER_CHECK]
    )
    for leg in mixed:
        problems.append(
            {
                "code": "transfer.mixed_chip_types",
                "message": f"Entry #{leg['id']} of transfer #{leg['transfer_id']} is in another chip type.",
                "transfer": leg["transfer_id"],
                "entry": leg["id"],
                "account": leg["account_id"],
            }
        )

    mismatched = (
        Account.objects.annotate(entries_total=Coalesce(Sum("entries__amount"), Value(0)))
        .exclude(balance=F("entries_total"))
        .values("id", "balance", "entries_total")
        .order_by("id")[:MAX_PROBLEMS_PER_CHECK]
    )
    for row in mismatched:
        problems.append(
            {
                "code": "account.balance_mismatch",
                "message": (
                    f"Account #{row['id']} caches {row['balance']} but its entries sum to {row['entries_total']}."
                ),
                "account": row["id"],
                "balance": row["balance"],
                "entries_total": row["entries_total"],
            }
        )

    for entry_id, account_id, balance_after, running in _running_balance_mismatches():
        problems.append(
            {
                "code": "entry.running_balance_mismatch",
                "message": f"Entry #{entry_id} records balance {balance_after} but the entries up to it sum to {running}.",
                "entry": entry_id,
                "account": account_id,
                "balance_after": balance_after,
                "running": running,
            }
        )

    negative = (
        Account.objects.filter(balance__lt=0)
        .exclude(kind__in=NEGATIVE_ALLOWED_KINDS)
        .values("id", "balance")
        .order_by("id")[:MAX_PROBLEMS_PER_CHECK]
    )
    for neg in negative:
        problems.append(
            {
                "code": "account.negative_balance",
                "message": f"Account #{neg['id']} may not go negative but holds {neg['balance']}.",
                "account": neg["id"],
                "balance": neg["balance"],
            }
        )

    totals = {
        row["chip_type"]: int(row["total"] or 0)
        for row in Account.objects.values("chip_type").annotate(total=Sum("balance")).order_by("chip_type")
    }
    for chip_type, total in totals.items():
        if total != 0:
            problems.append(
                {
                    "code": "chips.not_conserved",
                    "message": f"The accounts of chip type {chip_type!r} sum to {total}, not 0.",
                    "chip_type": chip_type,
                    "total": total,
                }
            )

    return ReconciliationReport(
        ok=not problems,
        accounts=Account.objects.count(),
        transfers=Transfer.objects.count(),
        total=sum(totals.values()),
        totals=totals,
        problems=problems,
    )


def _running_balance_mismatches() -> list[tuple[int, int, int, int]]:
    # Window functions (PostgreSQL, SQLite >= 3.25); entry ids increase in posting order per account
    # because entries are written under the account's row lock.
    entry_table = Entry._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT id, account_id, balance_after, running FROM (
                SELECT id, account_id, balance_after,
                       SUM(amount) OVER (PARTITION BY account_id ORDER BY id) AS running
                FROM {entry_table}
            ) AS e
            WHERE balance_after <> running
            ORDER BY id
            LIMIT {MAX_PROBLEMS_PER_CHECK}
            """
        )
        return [(int(a), int(b), int(c), int(d)) for a, b, c, d in cursor.fetchall()]
