"""The only way chips move: `post_transfer` and the helpers built on it (moves, reversals, adjustments).

Every posting is atomic: it locks the accounts it touches in primary-key order (so two postings over the
same accounts can never deadlock), checks balances under the lock, writes the transfer and its entries,
and updates the cached balances. On PostgreSQL that is two prepared statements inside the caller's
transaction (every refusal comes before the first write); elsewhere the ORM inside a savepoint. Several
transfers posted in one call (`post_transfers`) lock all their accounts at once. Postings are
idempotent by key: the same key with the same content returns the first transfer; the same key with other
content is a conflict.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from database import rows
from ledger.errors import AlreadyReversed, IdempotencyConflict, InsufficientFunds, InvalidTransfer
from ledger.models import NEGATIVE_ALLOWED_KINDS, Account, AccountKind, Entry, Transfer, TransferKind
from ledger.services import accounts
from ledger.services.shapes import TRANSFER_COLUMNS, Leg, Spec, statements
from ledger.services.shapes import Posting as Posting

# Plain string sets: `TextChoices.values` builds a new list on every access, on the posting path.
_TRANSFER_KINDS = frozenset(str(kind) for kind in TransferKind.values)
_NEGATIVE_ALLOWED = frozenset(str(kind.value) for kind in NEGATIVE_ALLOWED_KINDS)
MAX_KEY_LENGTH = 255


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
    return post_transfers(
        [
            Posting(
                kind=kind,
                legs=legs,
                idempotency_key=idempotency_key,
                reason=reason,
                table_id=table_id,
                round_id=round_id,
                tournament_id=tournament_id,
                entry_id=entry_id,
                computation=computation,
                posted_by_system=posted_by_system,
                reverses=reverses,
            )
        ],
        posted_by=posted_by,
    )[0]


def post_transfers(
    postings: Sequence[Posting], *, posted_by: AbstractBaseUser | None = None
) -> list[Transfer]:
    """Post several transfers in one call, in order, each as `post_transfer` posts it (its own key, its own
    replay or conflict). On PostgreSQL every account they touch is locked at once, in primary-key order."""
    specs = [
        _validate(
            kind=p.kind,
            legs=p.legs,
            idempotency_key=p.idempotency_key,
            reason=p.reason,
            causes={
                "table_id": p.table_id,
                "round_id": p.round_id,
                "tournament_id": p.tournament_id,
                "entry_id": p.entry_id,
            },
            computation=p.computation,
            reverses=p.reverses,
            posted_by_system=p.posted_by_system,
        )
        for p in postings
    ]
    if not specs:
        return []
    if _hand_written():
        if connection.in_atomic_block:
            return _post_pg(specs, posted_by=posted_by)
        with transaction.atomic():
            return _post_pg(specs, posted_by=posted_by)
    return [_post_orm(spec, posted_by=posted_by) for spec in specs]


def _post_orm(spec: Spec, *, posted_by: AbstractBaseUser | None) -> Transfer:
    existing = _find_by_key(spec.idempotency_key)
    if existing is not None:
        return _replay(existing, spec)
    try:
        with transaction.atomic():
            transfer, balances = _post_locked(spec, posted_by=posted_by)
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
    wallet = accounts.get_wallet(user=user)
    cashier = accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER)
    return post_transfer(
        kind=TransferKind.ADJUSTMENT,
        legs=[(wallet, amount), (cashier, -amount)],
        idempotency_key=idempotency_key,
        reason=reason,
        computation={"username": user.get_username(), "amount": amount},
        posted_by=posted_by,
    )


# --- internals ---------------------------------------------------------------------------------------


def _hand_written() -> bool:
    """Whether this database posts through the hand-written statements: PostgreSQL only, where they measured
    well ahead of the ORM (docs/performance.md#hand-written-statements: ledger-post; `make bench-ledger
    BENCH_ARGS=--orm` measures both in one run). Every other database posts through the ORM, which the SQLite
    leg (`make pytest-sqlite`) runs."""
    return connection.vendor == "postgresql"


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
    posted_by_system: str,
) -> Spec:
    if kind not in _TRANSFER_KINDS:
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
    return Spec(
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
        posted_by_system=posted_by_system,
    )


_COMPUTATION_FIELD = Transfer._meta.get_field("computation")
assert isinstance(_COMPUTATION_FIELD, models.Field)


def _post_pg(specs: Sequence[Spec], *, posted_by: AbstractBaseUser | None) -> list[Transfer]:
    """PostgreSQL: prepared statements in the caller's transaction (or one of their own), no savepoint.

    Every account of every transfer is locked first, at once and in primary-key order; then each transfer in
    turn is checked against the balances its predecessors left, so every refusal comes before it writes and
    leaves the caller's transaction usable; then one statement inserts the transfer (ON CONFLICT on the key: a
    key already taken writes nothing), its entries and the new balances. A key already taken, or a refusal,
    looks the key up: the same content replays the first transfer, other content conflicts."""
    every = sorted({account_id for spec in specs for account_id in spec.amounts})
    posted: list[Transfer] = []
    inserted_ids: list[tuple[Transfer, Any]] = []
    with rows.statement_cursor() as cursor:
        # Row locks in primary-key order: two postings over the same accounts queue instead of deadlocking.
        cursor.execute(statements(len(every)).lock, every)
        held = {row[0]: row for row in cursor.fetchall()}
        for spec in specs:
            ids = sorted(spec.amounts)
            found = [held[i] for i in ids if i in held]
            try:
                balances = _checked_balances(spec, ids, found)
            except (InvalidTransfer, InsufficientFunds):
                existing = _find_by_key(spec.idempotency_key)
                if existing is None:
                    raise
                posted.append(_replay(existing, spec))
                continue
            now = timezone.now()
            transfer = _new_transfer(spec, posted_by=posted_by, created_at=now)
            params = _transfer_params(transfer)
            for account_id in ids:
                params += [account_id, balances[account_id]]
            params += ids
            for account_id in ids:
                params += [account_id, spec.amounts[account_id], balances[account_id], now]
            cursor.execute(statements(len(ids)).post, params)
            inserted = cursor.fetchone()
            if inserted is None:
                existing = _find_by_key(spec.idempotency_key)
                assert existing is not None, "ON CONFLICT found the key taken"
                posted.append(_replay(existing, spec))
                continue
            inserted_ids.append((transfer, inserted[0]))
            for account_id, balance in balances.items():
                held[account_id] = (account_id, held[account_id][1], held[account_id][2], balance)
                spec.accounts[account_id].balance = balance
            posted.append(transfer)
    for transfer, transfer_id in inserted_ids:
        rows.mark_saved(transfer, transfer_id)
    return posted


def _new_transfer(spec: Spec, *, posted_by: AbstractBaseUser | None, created_at: Any) -> Transfer:
    """The transfer row `spec` describes (not saved)."""
    return Transfer(
        kind=spec.kind,
        chip_type=spec.chip_type,
        idempotency_key=spec.idempotency_key,
        fingerprint=spec.fingerprint,
        reason=spec.reason,
        computation=spec.computation,
        posted_by_id=posted_by.pk if posted_by is not None else None,
        posted_by_system=spec.posted_by_system,
        reverses_id=spec.reverses_id,
        created_at=created_at,
        **spec.causes,
    )


def _transfer_params(transfer: Transfer) -> list[Any]:
    """The values of `TRANSFER_COLUMNS` for the INSERT of `transfer`."""
    prepared = {
        "computation": _COMPUTATION_FIELD.get_db_prep_save(transfer.computation, connection),
        "created_at": connection.ops.adapt_datetimefield_value(transfer.created_at),
    }
    return [prepared[c] if c in prepared else getattr(transfer, c) for c in TRANSFER_COLUMNS]


def _checked_balances(spec: Spec, ids: list[int], found: Sequence[Sequence[Any]]) -> dict[int, int]:
    """The balances after `spec`, from the locked rows (id, kind, chip type, balance); refuses unknown
    accounts, another chip type and overdrafts."""
    if len(found) != len(ids):
        missing = sorted(set(ids) - {row[0] for row in found})
        raise InvalidTransfer("Unknown account.", details={"accounts": missing})
    balances: dict[int, int] = {}
    for account_id, kind, chip_type, balance in found:
        amount = spec.amounts[account_id]
        if chip_type != spec.chip_type:
            raise InvalidTransfer("A transfer moves one chip type only.", details={"account": account_id})
        if balance + amount < 0 and kind not in _NEGATIVE_ALLOWED:
            # The chips asked for and the chips held, in the message as in the details (a player reads them).
            raise InsufficientFunds(
                "This needs %(needed)s chips; the account holds %(balance)s.",
                params={"needed": -amount, "balance": balance},
                details={"account": account_id, "balance": balance, "amount": amount},
            )
        balances[account_id] = balance + amount
    return balances


def _find_by_key(key: str) -> tuple[int, str] | None:
    """The (id, fingerprint) of the transfer posted under `key`, if any (off the hot path: replays, refusals)."""
    row = Transfer.objects.filter(idempotency_key=key).values_list("pk", "fingerprint").first()
    return (int(row[0]), str(row[1])) if row is not None else None


def _replay(existing: tuple[int, str], spec: Spec) -> Transfer:
    transfer_id, fingerprint = existing
    if fingerprint != spec.fingerprint:
        raise IdempotencyConflict(details={"idempotency_key": spec.idempotency_key, "transfer": transfer_id})
    return Transfer.objects.get(pk=transfer_id)


def _post_locked(spec: Spec, *, posted_by: AbstractBaseUser | None) -> tuple[Transfer, dict[int, int]]:
    """Every database but PostgreSQL: the ORM, inside the savepoint `post_transfer` opens."""
    ids = sorted(spec.amounts)
    # The transfer row first, before any lock: the shorter the locks are held, the more postings a hot
    # account (the cashier, a prize pool) takes per second. A reused key fails here, too.
    transfer = _new_transfer(spec, posted_by=posted_by, created_at=timezone.now())
    transfer.save(force_insert=True)

    # Row locks in primary-key order: two postings over the same accounts queue instead of deadlocking.
    found = list(
        Account.objects.select_for_update()
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", "kind", "chip_type", "balance")
    )
    balances = _checked_balances(spec, ids, found)
    Account.objects.filter(pk__in=ids).update(
        balance=Case(
            *(When(pk=account_id, then=Value(balance)) for account_id, balance in balances.items()),
            output_field=models.BigIntegerField(),
        )
    )
    # Taken under the locks, so an account's entries are in time order as well as in id order.
    created = timezone.now()
    Entry.objects.bulk_create(
        Entry(
            transfer=transfer,
            account_id=account_id,
            amount=spec.amounts[account_id],
            balance_after=balances[account_id],
            created_at=created,
        )
        for account_id in ids
    )
    return transfer, balances
