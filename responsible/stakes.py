"""Responsible play's checks of every stake (docs/rules.md, "Responsible play"), registered as the one gate of
`ledger/stakes.py` (a buy-in or top-up at a ring table, a tournament entry, a late registration or re-entry; later a
rebuy or an add-on).

Each call site calls `refuse_stake` inside its own atomic block, before it posts the transfer, so a refusal raises
an API error and changes nothing. A zero amount (a freeroll's entry) still passes the gate: a break or a time limit
refuses new seats and registrations whatever they cost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.stakes import StakeKind
from responsible.breaks.gate import refuse_if_on_break
from responsible.limits import services as limits
from responsible.verification.gate import refuse_if_unverified

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def refuse_stake(*, user: AbstractBaseUser, amount: int, kind: StakeKind) -> None:
    """Raise the API error that refuses this stake, or return when it may go ahead.

    The checks (breaks and exclusions, verification, limits) are added by the responsible-play folders."""
    # The cheap refusals first; the limits lock the player's wallet row and read the period's stakes.
    refuse_if_on_break(user=user)
    refuse_if_unverified(user=user)
    limits.refuse_if_over(user=user, amount=amount)
