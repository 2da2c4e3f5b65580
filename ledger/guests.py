"""Who gets no chips: the demo's guests (no welcome chips, no daily top-up). The accounts app decides who is a
guest and registers its test here at start-up (`accounts/apps.py`), so that the ledger, below accounts, imports
nothing of it (tests/test_architecture.py: no app-level cycle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_guest_test: Callable[..., bool] | None = None


def register_guest_test(test: Callable[..., bool]) -> None:
    """`test(user=...)`: whether a user is a guest (accounts.selectors.is_guest)."""
    global _guest_test
    _guest_test = test


def is_guest(*, user: Any) -> bool:
    if _guest_test is None:
        raise RuntimeError("No guest test registered: the accounts app registers it when it is ready.")
    return _guest_test(user=user)
