"""The only way chips move: `post_transfer` and the helpers built on it.

Every posting is one atomic block that locks the accounts it touches in primary-key order (so two
postings over the same accounts can never deadlock), checks balances under the lock, writes the
transfer and its entries, and updates the cached balances. Postings are idempotent by key: the same key
with the same content returns the first transfer; the same key with other content is a conflict.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ledger.errors import AlreadyReversed, IdempotencyConflict, InsufficientFunds, InvalidTransfer
from ledger.models import (
    SITE_CHIPS,
    Account,
    AccountKind,
    Entry,
    ReconciliationRun,
    Transfer,
    TransferKind,
)
from ledger.selectors import reconcile

HOUSE_KINDS = (AccountKind.HOUSE_CASHIER, AccountKind.HOUSE_FEES, AccountKind.TOURNAMENT_MINT)
MAX_KEY_LENGTH = 255

Leg = tuple[Account, int]


@dataclass(frozen=True)
class _Spec:
    kind: str
    chip_type: str
    amounts: dict[int, int]  # account id -> signed amount
    accounts: dict[int, Account]
    idempotency_key: str
    fingerprint: str
    reason: str
    causes: dict[str, int | None]
    computation: dict[str, Any]
    reverses_id: int | None


# --- accounts ---------------------------------------------------------------------------------------


def get_wallet(*, user: AbstractBaseUser, chip_type: str = SITE_CHIPS) -> Account:
    """The user's wallet for the chip type, created empty on first use."""
    account, _ = Account.objects.get_or_create(kind=AccountKind.WALLET, chip_type=chip_type, user=user)
    return account


def get_house_account(*, kind: str, chip_type: str = SITE_CHIPS) -> Account:
    """The house's cashier, fee or mint account for the chip type."""
    if kind not in HOUSE_KINDS:
        raise InvalidTransfer(
            f"{kind!r} is not a house account kind.", details={"kind": kind, "allowed": list(HOUSE_KINDS)}
        )
    account, _ = Account.objects.get_or_create(kind=kind, chip_type=chip_type, reference="")
    return account


def open_account(
    *, kind: str, chip_type: str, reference: str, user: AbstractBaseUser | None = None
) -> Account:
    """Get or create a non-wallet account named by (kind, chip_type, reference), e.g. a seat stack."""
    if kind not in AccountKind.values or kind == AccountKind.WALLET:
        raise InvalidTransfer(f"Cannot open an account of kind {kind!r}; use get_wallet for wallets.")
    account, _ = Account.objects.get_or_create(
        kind=kind, chip_type=chip_type, reference=reference, defaults={"user": user}
    )
    return account


# --- postings ---------------------------------------------------------------------------------------


def post_transfer(
    *,
    kind: str,
    legs: Sequence[Leg],
    idempotency_key: str,
    reason: str = "",
    table_id: int | None = None,
    round_id: int | None = None,
    tournament_id: int | None = None,
    entry_id: int | None = None,
    computation: dict[str, Any] | None = None,
    posted_by: AbstractBaseUser | None = None,
    posted_by_system: str = "",
    reverses: Transfer | None = None,
) -> Transfer:
    """Post one balanced transfer of one chip type; see the module docstring for the guarantees.

    `legs` are (account, signed amount): positive credits the account. On success the Account objects
    passed in carry their new balances.
    """
    spec = _validate(
        kind=kind,
        legs=legs,
        idempotency_key=idempotency_key,
        reason=reason,
        causes={
            "table_id": table_id,
            "round_id": round_id,
            "tournament_id": tournament_id,
            "entry_id": entry_id,
        },
        computation=computation,
        reverses=reverses,
    )
    existing = _find_by_key(spec.idempotency_key)
    if existing is not None:
        return _replay(existing, spec)
    try:
        with transaction.atomic():
            transfer, balances = _post_locked(spec, posted_by=posted_by, posted_by_system=posted_by_system)
    except IntegrityError:
        # Another connection committed the same key between our lookup and our insert.
        existing = _find_by_key(spec.idempotency_key)
        if existing is None:
            raise
        return _replay(existing, spec)
    for account_id, balance in balances.items():
        spec.accounts[account_id].balance = balance
    return transfer


def move_chips(
    *,
    source: Account,
    destination: Account,
    amount: int,
    kind: str,
    idempotency_key: str,
    reason: str = "",
    table_id: int | None = None,
    round_id: int | None = None,
    tournament_id: int | None = None,
    entry_id: int | None = None,
    computation: dict[str, Any] | None = None,
    posted_by: AbstractBaseUser | None = None,
    posted_by_system: str = "",
) -> Transfer:
    """Move `amount` (> 0) chips from `source` to `destination` as a two-leg transfer."""
    if not _is_int(amount) or amount <= 0:
        raise InvalidTransfer("The amount must be a positive integer.", details={"amount": repr(amount)})
    return post_transfer(
        kind=kind,
        legs=[(source, -amount), (destination, amount)],
        idempotency_key=idempotency_key,
        reason=reason,
        table_id=table_id,
        round_id=round_id,
        tournament_id=tournament_id,
        entry_id=entry_id,
        computation=computation,
        posted_by=posted_by,
        posted_by_system=posted_by_system,
    )


def reverse_transfer(
    *,
    transfer: Transfer,
    posted_by: AbstractBaseUser | None = None,
    reason: str = "",
    posted_by_system: str = "",
) -> Transfer:
    """Post the exact opposite of `transfer`, linked to it. A transfer is reversed at most once."""
    if transfer.kind == TransferKind.REVERSAL:
        raise InvalidTransfer(
            "A reversal cannot be reversed; post a new transfer instead.", details={"transfer": transfer.pk}
        )
    if Transfer.objects.filter(reverses_id=transfer.pk).exists():
        raise AlreadyReversed(details={"transfer": transfer.pk})
    entries = list(transfer.entries.select_related("account").order_by("id"))
    return post_transfer(
        kind=TransferKind.REVERSAL,
        legs=[(entry.account, -entry.amount) for entry in entries],
        idempotency_key=f"reversal:{transfer.pk}",
        reason=reason or f"reversal of transfer #{transfer.pk}",
        table_id=transfer.table_id,
        round_id=transfer.round_id,
        tournament_id=transfer.tournament_id,
        entry_id=transfer.entry_id,
        computation={"reverses": transfer.pk},
        posted_by=posted_by,
        posted_by_system=posted_by_system,
        reverses=transfer,
    )


def adjust_wallet(
    *,
    user: AbstractBaseUser,
    amount: int,
    reason: str,
    idempotency_key: str,
    posted_by: AbstractBaseUser | None,
) -> Transfer:
    """An admin's credit (amount > 0) or debit (amount < 0) of a user's site wallet against the cashier."""
    if not _is_int(amount) or amount == 0:
        raise InvalidTransfer("The amount must be a non-zero integer.", details={"amount": repr(amount)})
    wallet = get_wallet(user=user)
    cashier = get_house_account(kind=AccountKind.HOUSE_CASHIER)
    return post_transfer(
        kind=TransferKind.ADJUSTMENT,
        legs=[(wallet, amount), (cashier, -amount)],
        idempotency_key=idempotency_key,
        reason=reason,
        computation={"username": user.get_username(), "amount": amount},
        posted_by=posted_by,
    )


# --- reconciliation ---------------------------------------------------------------------------------


def run_reconciliation(*, trigger: str = "task") -> ReconciliationRun:
    """Reconcile the whole ledger and record the result."""
    started = timezone.now()
    report = reconcile()
    return ReconciliationRun.objects.create(
        started_at=started,
        finished_at=timezone.now(),
        ok=report.ok,
        accounts=report.accounts,
        transfers=report.transfers,
        totals=report.totals,
        problems=report.problems,
        trigger=trigger,
    )


# --- internals --------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(
    *,
    kind: str,
    legs: Sequence[Leg],
    idempotency_key: str,
    reason: str,
    causes: dict[str, int | None],
    computation: dict[str, Any] | None,
    reverses: Transfer | None,
) -> _Spec:
    if kind not in TransferKind.values:
        raise InvalidTransfer(f"Unknown transfer kind {kind!r}.", details={"kind": kind})
    if not isinstance(idempotency_key, str) or not idempotency_key or len(idempotency_key) > MAX_KEY_LENGTH:
        raise InvalidTransfer(
            f"The idempotency key must be a non-empty string of at most {MAX_KEY_LENGTH} chars."
        )
    if not isinstance(reason, str):
        raise InvalidTransfer("The reason must be a string.")
    for name, value in causes.items():
        if value is not None and not _is_int(value):
            raise InvalidTransfer(f"{name} must be an integer or None.", details={name: repr(value)})
    if len(legs) < 2:
        raise InvalidTransfer("A transfer needs at least two legs.", details={"legs": len(legs)})
    amounts: dict[int, int] = {}
    accounts: dict[int, Account] = {}
    chip_types: set[str] = set()
    for leg in legs:
        account, amount = leg
        if not isinstance(account, Account) or account.pk is None:
            raise InvalidTransfer("Every leg names a saved Account.")
        if not _is_int(amount) or amount == 0:
            raise InvalidTransfer(
                "Every leg's amount is a non-zero integer.",
                details={"account": account.pk, "amount": repr(amount)},
            )
        if account.pk in amounts:
            raise InvalidTransfer("An account appears in two legs.", details={"account": account.pk})
        amounts[account.pk] = amount
        accounts[account.pk] = account
        chip_types.add(account.chip_type)
    if len(chip_types) != 1:
        raise InvalidTransfer(
            "A transfer moves one chip type only.", details={"chip_types": sorted(chip_types)}
        )
    total = sum(amounts.values())
    if total != 0:
        raise InvalidTransfer("The legs do not sum to zero.", details={"sum": total})
    chip_type = chip_types.pop()
    if reverses is not None and reverses.chip_type != chip_type:
        raise InvalidTransfer("A reversal moves the chip type of what it reverses.")
    computation = {} if computation is None else computation
    try:
        canonical_computation = json.dumps(computation, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidTransfer(
            "The computation must be JSON-serialisable.", details={"error": str(exc)}
        ) from exc
    content = {
        "kind": kind,
        "chip_type": chip_type,
        "legs": sorted(amounts.items()),
        "reason": reason,
        "causes": causes,
        "reverses": reverses.pk if reverses is not None else None,
    }
    digest = hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
    digest.update(canonical_computation.encode())
    return _Spec(
        kind=kind,
        chip_type=chip_type,
        amounts=amounts,
        accounts=accounts,
        idempotency_key=idempotency_key,
        fingerprint=digest.hexdigest(),
        reason=reason,
        causes=causes,
        computation=computation,
        reverses_id=reverses.pk if reverses is not None else None,
    )


def _write_balances(accounts: list[Account]) -> None:
    # One portable UPDATE ... CASE; QuerySet.bulk_update builds the same statement at several times the
    # Python cost, which is most of a posting's overhead.
    table = connection.ops.quote_name(Account._meta.db_table)
    cases = " ".join("WHEN %s THEN CAST(%s AS BIGINT)" for _ in accounts)
    placeholders = ", ".join("%s" for _ in accounts)
    params: list[int] = []
    for account in accounts:
        params += [account.pk, account.balance]
    params += [account.pk for account in accounts]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET balance = CASE id {cases} END WHERE id IN ({placeholders})", params
        )


def _find_by_key(key: str) -> tuple[int, str] | None:
    # Only what the replay check needs: most postings find nothing, and this runs on every one of them.
    return Transfer.objects.filter(idempotency_key=key).values_list("id", "fingerprint").first()


def _replay(existing: tuple[int, str], spec: _Spec) -> Transfer:
    transfer_id, fingerprint = existing
    if fingerprint != spec.fingerprint:
        raise IdempotencyConflict(details={"idempotency_key": spec.idempotency_key, "transfer": transfer_id})
    return Transfer.objects.get(pk=transfer_id)


def _post_locked(
    spec: _Spec, *, posted_by: AbstractBaseUser | None, posted_by_system: str
) -> tuple[Transfer, dict[int, int]]:
    ids = sorted(spec.amounts)
    locked = list(Account.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    if len(locked) != len(ids):
        missing = sorted(set(ids) - {a.pk for a in locked})
        raise InvalidTransfer("Unknown account.", details={"accounts": missing})
    for account in locked:
        amount = spec.amounts[account.pk]
        if account.chip_type != spec.chip_type:
            raise InvalidTransfer("A transfer moves one chip type only.", details={"account": account.pk})
        new_balance = account.balance + amount
        if new_balance < 0 and not account.may_go_negative:
            raise InsufficientFunds(
                details={"account": account.pk, "balance": account.balance, "amount": amount}
            )
        account.balance = new_balance
    # Taken under the locks, so an account's entries are in time order as well as in id order.
    now = timezone.now()
    transfer = Transfer.objects.create(
        kind=spec.kind,
        chip_type=spec.chip_type,
        idempotency_key=spec.idempotency_key,
        fingerprint=spec.fingerprint,
        reason=spec.reason,
        computation=spec.computation,
        posted_by_id=posted_by.pk if posted_by is not None else None,
        posted_by_system=posted_by_system,
        reverses_id=spec.reverses_id,
        created_at=now,
        **spec.causes,
    )
    Entry.objects.bulk_create(
        [
            Entry(
                transfer=transfer,
                account_id=account.pk,
                amount=spec.amounts[account.pk],
                balance_after=account.balance,
                created_at=now,
            )
            for account in locked
        ]
    )
    _write_balances(locked)
    return transfer, {account.pk: account.balance for account in locked}
