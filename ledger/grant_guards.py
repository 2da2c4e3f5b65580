"""Refusals other apps add to a house grant (the daily top-up): responsible play's break (docs/rules.md "Responsible
play"). Responsible play registers its guard when it is ready (`responsible/apps.py`), so that the ledger, below
it, imports nothing of it (tests/test_architecture.py: no app-level cycle)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

# A guard raises the API error that refuses the grant, or returns: (user, now) -> None.
GrantGuard = Callable[..., None]
_guards: list[GrantGuard] = []


def register_grant_guard(guard: GrantGuard) -> None:
    if guard not in _guards:
        _guards.append(guard)


def refuse_grant(*, user: Any, now: datetime | None) -> None:
    """Each registered guard's refusal of a grant to `user`."""
    for guard in _guards:
        guard(user=user, now=now)
