"""The one gate every stake passes (docs/rules.md, "Responsible play"): a buy-in or top-up at a ring table, a
tournament entry, a late registration or re-entry (and, later, a rebuy or an add-on).

Each call site calls `refuse_stake` inside its own atomic block, before it posts the transfer, so a refusal raises
an API error and changes nothing. A zero amount (a freeroll's entry) still passes the gate: a break or a time limit
refuses new seats and registrations whatever they cost. The checks are responsible play's
(`responsible/stakes.py`), registered when that app is ready: the games and the ledger below it import nothing of
it (tests/test_architecture.py: no app-level cycle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import models


class StakeKind(models.TextChoices):
    RING_BUY_IN = "ring_buy_in"
    RING_TOP_UP = "ring_top_up"
    TOURNAMENT_ENTRY = "tournament_entry"
    LATE_ENTRY = "late_entry"
    RE_ENTRY = "re_entry"
    REBUY = "rebuy"
    ADDON = "addon"


_check: Callable[..., None] | None = None


def register_check(check: Callable[..., None]) -> None:
    """`check(user=, amount=, kind=)` raises the API error that refuses a stake (responsible play's)."""
    global _check
    _check = check


def refuse_stake(*, user: Any, amount: int, kind: StakeKind) -> None:
    """Raise the API error that refuses this stake, or return when it may go ahead."""
    if _check is None:
        raise RuntimeError("No stake check registered: the responsible app registers it when it is ready.")
    _check(user=user, amount=amount, kind=kind)
