"""Helpers for any test that moves chips: build funded accounts, and assert the ledger reconciles."""

from __future__ import annotations

from typing import Any

from ledger.models import Account
from ledger.selectors import ReconciliationReport, reconcile
from tests.factories import UserFactory, WalletFactory


def assert_reconciled() -> ReconciliationReport:
    """Fail with the reconciliation's problems unless every transfer balances, every cached balance equals
    its entries and every chip type sums to zero. Call it after any test that moves chips."""
    report = reconcile()
    assert report.ok, f"ledger does not reconcile: {report.problems}"
    assert report.problems == []
    assert all(total == 0 for total in report.totals.values()), report.totals
    return report


def make_user(username: str | None = None, **extra: Any) -> Any:
    """A user with no chips (tests.factories.UserFactory)."""
    return UserFactory.create(**extra) if username is None else UserFactory.create(username=username, **extra)


def funded_wallet(user: Any, amount: int, *, chip_type: str = "site") -> Account:
    """The user's wallet credited with `amount` chips from the house cashier (or the tournament mint), through
    the ledger (tests.factories.WalletFactory)."""
    return WalletFactory.create(user=user, amount=amount, chip_type=chip_type)
