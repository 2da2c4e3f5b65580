"""What registration does with a date of birth: refuse a minor, then keep the date (docs/rules.md "Responsible
play", "Age and verification"). Responsible play registers both when it is ready (`responsible/apps.py`), so that
accounts, below it, imports nothing of it (tests/test_architecture.py: no app-level cycle)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

_refuse: Callable[[date], None] | None = None
_record: Callable[..., Any] | None = None


def register(*, refuse_underage: Callable[[date], None], record: Callable[..., Any]) -> None:
    """`refuse_underage(date_of_birth)` raises the refusal of a minor; `record(user=, date_of_birth=)` keeps it."""
    global _refuse, _record
    _refuse, _record = refuse_underage, record


def refuse_underage(date_of_birth: date) -> None:
    if _refuse is None:
        raise RuntimeError("No age check registered: the responsible app registers it when it is ready.")
    _refuse(date_of_birth)


def record(*, user: Any, date_of_birth: date) -> None:
    if _record is None:
        raise RuntimeError(
            "No date-of-birth record registered: the responsible app registers it when it is ready."
        )
    _record(user=user, date_of_birth=date_of_birth)
