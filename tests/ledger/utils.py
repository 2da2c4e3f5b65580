"""Helpers for any test that moves chips: build funded accounts, and assert the ledger reconciles."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model

from ledger.models import Account, AccountKind
from ledger.selectors import ReconciliationReport, reconcile
from ledger.services import accounts, postings

_serial = itertools.count(1)


def assert_reconciled() -> ReconciliationReport:
    """Fail with the reconciliation's problems unless every transfer balances, every cached balance equals
    its entries and every chip type sums to zero. Call it after any test that moves chips."""
    report = reconcile()
    assert report.ok, f"ledger does not reconcile: {report.problems}"
    assert report.problems == []
    assert all(total == 0 for total in report.totals.values()), report.totals
    return report


def make_user(username: str | None = None, **extra: Any) -> Any:
    username = username or f"user{next(_serial)}"
    return get_user_model().objects.create_user(username=username, password="pw-for-tests-1", **extra)


def funded_wallet(user: Any, amount: int, *, chip_type: str = "site") -> Account:
    """The user's wallet credited with `amount` chips from the house cashier (or the tournament mint)."""
    wallet = accounts.get_wallet(user=user, chip_type=chip_type)
    source_kind = AccountKind.HOUSE_CASHIER if chip_type == "site" else AccountKind.TOURNAMENT_MINT
    source = accounts.get_house_account(kind=source_kind, chip_type=chip_type)
    postings.move_chips(
        source=source,
        destination=wallet,
        amount=amount,
        kind="adjustment" if chip_type == "site" else "mint",
        idempotency_key=f"test:fund:{wallet.pk}:{next(_serial)}",
        reason="test funding",
    )
    wallet.refresh_from_db()
    return wallet
