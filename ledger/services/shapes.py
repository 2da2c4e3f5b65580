"""What a posting is made of, for `postings`: the transfers asked for (`Posting`), each checked (`Spec`), and
the hand-written statements PostgreSQL posts them with (built once per number of legs)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from database import rows
from ledger.models import Account, Entry, Transfer

Leg = tuple[Account, int]


@dataclass(frozen=True)
class Spec:
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
    posted_by_system: str


@dataclass(frozen=True)
class Posting:
    """One transfer of `post_transfers`: what `post_transfer` takes."""

    kind: str
    legs: Sequence[Leg]
    idempotency_key: str
    reason: str = ""
    table_id: int | None = None
    round_id: int | None = None
    tournament_id: int | None = None
    entry_id: int | None = None
    computation: dict[str, Any] | None = None
    posted_by_system: str = ""
    reverses: Transfer | None = None


# PostgreSQL's posting is hand-written (docs/performance.md#hand-written-statements: ledger-post): the ORM's
# query building cost several times the database's own work per posting. Every other database, and every
# other path of the ledger, uses the ORM.
TRANSFER_COLUMNS = (
    "kind",
    "chip_type",
    "idempotency_key",
    "fingerprint",
    "reason",
    "table_id",
    "round_id",
    "tournament_id",
    "entry_id",
    "computation",
    "posted_by_id",
    "posted_by_system",
    "reverses_id",
    "created_at",
)


@dataclass(frozen=True)
class _Statements:
    lock: str
    # The transfer, its entries and the new balances in one statement, which writes nothing and returns no
    # row when the idempotency key is taken.
    post: str


@functools.cache
def statements(legs: int) -> _Statements:
    """PostgreSQL's posting statements for a number of legs, built once."""
    # docs/performance.md#hand-written-statements: ledger-post
    # (ORM 2.4 → 0.45 ms client CPU per posting; 6 → 2 round trips).
    account, transfer, entry = (rows.table(m) for m in (Account, Transfer, Entry))
    marks = rows.placeholders(legs)
    cases = " ".join(["WHEN %s THEN CAST(%s AS BIGINT)"] * legs)
    update = f"UPDATE {account} SET balance = CASE id {cases} END WHERE id IN ({marks})"
    return _Statements(
        lock=f"SELECT id, kind, chip_type, balance FROM {account} WHERE id IN ({marks}) ORDER BY id FOR UPDATE",
        post=(
            f"WITH t AS (INSERT INTO {transfer} ({', '.join(TRANSFER_COLUMNS)}) "
            f"VALUES ({', '.join(['%s'] * len(TRANSFER_COLUMNS))}) "
            "ON CONFLICT (idempotency_key) DO NOTHING RETURNING id), "
            f"b AS ({update} AND EXISTS (SELECT 1 FROM t)), "
            f"e AS (INSERT INTO {entry} (transfer_id, account_id, amount, balance_after, created_at) "
            "SELECT t.id, v.account_id, v.amount, v.balance_after, v.created_at FROM t, (VALUES "
            + ", ".join(
                ["(CAST(%s AS BIGINT), CAST(%s AS BIGINT), CAST(%s AS BIGINT), CAST(%s AS TIMESTAMPTZ))"]
                * legs
            )
            + ") AS v (account_id, amount, balance_after, created_at)) "
            "SELECT id FROM t"
        ),
    )
