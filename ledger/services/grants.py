"""The house grant of a play-money site: welcome chips on registration and a daily top-up to a floor.

The policy is one row admins edit (`ledger.models.GrantPolicy`; off unless configured). Every grant is a
`grant` transfer from the house cashier to the player's wallet through `postings`, under a key derived from
its cause, so it is posted at most once whatever retries or races:

- welcome chips: `grant:welcome:<user id>`, posted by the registration service in the transaction that
  creates the user (a player never exists without them, and a failed registration leaves none);
- the daily top-up: `grant:daily:<user id>:<UTC date>`, claimed by the player (`POST /wallet/top-up/`); it
  brings the player's chips up to the floor, once per UTC day, only when they hold less than the floor: their
  chips are the wallet's and those of their stacks at tables (a stack sat down with is still theirs).

Granted chips are held for public tables until played through (`GrantPolicy.play_through_rounds`): live play
reads the hold when a player buys in at a private table (`tournaments.live.tables.grant_hold`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from ledger import grant_guards
from ledger.errors import (
    GrantAboveFloor,
    GrantAlreadyClaimed,
    GrantGuest,
    GrantNotAvailable,
    IdempotencyConflict,
)
from ledger.guests import is_guest
from ledger.models import Account, AccountKind, GrantPolicy, Transfer, TransferKind
from ledger.selectors import (
    chips_held,
    daily_grant_key,
    grant_policy,
    next_utc_midnight,
    utc_date,
    welcome_grant_key,
)
from ledger.services import accounts, postings

SYSTEM = "house grant"


def configure(
    *,
    enabled: bool,
    welcome_chips: int = 0,
    daily_floor: int = 0,
    play_through_rounds: int = 20,
    play_through_opponents: int = 3,
) -> GrantPolicy:
    """Set the grant policy (the one row), validated as the admin's form validates it (`load_demo`, tests;
    admins edit it in the Django admin)."""
    values = {
        "enabled": enabled,
        "welcome_chips": welcome_chips,
        "daily_floor": daily_floor,
        "play_through_rounds": play_through_rounds,
        "play_through_opponents": play_through_opponents,
    }
    GrantPolicy(id=GrantPolicy.SINGLETON_ID, **values).full_clean(validate_unique=False)
    row, _ = GrantPolicy.objects.update_or_create(id=GrantPolicy.SINGLETON_ID, defaults=values)
    return row


def post_welcome_grant(*, user: AbstractBaseUser) -> Transfer | None:
    """The new player's welcome chips, if the policy grants any; None when it does not. Call it inside the
    transaction that creates the user (the registration service does). A guest gets none."""
    current = grant_policy()
    if not current.welcome_on or is_guest(user=user):
        return None
    amount = current.welcome_chips
    return postings.move_chips(
        source=accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER),
        destination=accounts.get_wallet(user=user),
        amount=amount,
        kind=TransferKind.GRANT,
        idempotency_key=welcome_grant_key(user_id=int(user.pk)),
        reason="welcome chips",
        computation={"grant": "welcome", "chips": amount},
        posted_by_system=SYSTEM,
    )


@dataclass(frozen=True)
class TopUp:
    """A claimed daily top-up: its transfer and the wallet's balance after it."""

    transfer: Transfer
    balance: int


def claim_daily_top_up(*, user: AbstractBaseUser, now: datetime | None = None) -> TopUp:
    """Bring the player's chips up to the policy's floor: once per UTC day, only below the floor. The chips are
    the wallet's and the player's stacks at tables (`selectors.chips_held`): sitting down with them first
    does not make a player poorer.

    Refusals change nothing: `GrantGuest` (a guest of the demo: guests play without chips), `OnBreak` (the
    player is on a cool-off or a self-exclusion),
    `GrantNotAvailable` (the site grants no top-up), `GrantAlreadyClaimed` (one
    was posted today; the details name it and when the next may be claimed), `GrantAboveFloor` (the player
    holds at least the floor). The wallet is locked while the amount is computed, so a buy-in at the same
    moment cannot make the top-up overshoot the floor; two claims at once post one transfer (the key)."""
    now = now or timezone.now()
    day = utc_date(now)
    key = daily_grant_key(user_id=int(user.pk), day=day)
    if is_guest(user=user):
        raise GrantGuest()
    # No grant during a cool-off or a self-exclusion (docs/rules.md "Responsible play"): 403 `player.on_break`.
    grant_guards.refuse_grant(user=user, now=now)
    current = grant_policy()
    if not current.top_up_on:
        raise GrantNotAvailable()
    with transaction.atomic():
        wallet = accounts.get_wallet(user=user)
        # The wallet's row lock first: a second claim waits here for the first to commit, then finds its key.
        in_wallet = Account.objects.select_for_update().values_list("balance", flat=True).get(pk=wallet.pk)
        # The stacks too: a buy-in or a cash-out moves chips between the wallet (locked) and a stack, so
        # the sum read here is either all before it or all after it.
        balance = chips_held(user=user)
        claimed = Transfer.objects.filter(idempotency_key=key).values_list("pk", flat=True).first()
        if claimed is not None:
            raise _already_claimed(claimed, now)
        floor = current.daily_floor
        if balance >= floor:
            raise GrantAboveFloor(
                details={"balance": balance, "at_tables": balance - in_wallet, "floor": floor}
            )
        try:
            transfer = postings.move_chips(
                source=accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER),
                destination=wallet,
                amount=floor - balance,
                kind=TransferKind.GRANT,
                idempotency_key=key,
                reason=f"daily top-up to {floor}",
                computation={
                    "grant": "daily",
                    "day": day.isoformat(),
                    "balance": balance,
                    "at_tables": balance - in_wallet,
                    "floor": floor,
                },
                posted_by_system=SYSTEM,
            )
        except IdempotencyConflict as conflict:
            # Another claim of the same day committed between our look-up and our posting (no row lock
            # serialises them on every database): this one is the second.
            raise _already_claimed(conflict.details.get("transfer"), now) from None
        after = Account.objects.values_list("balance", flat=True).get(pk=wallet.pk)
    return TopUp(transfer=transfer, balance=after)


def _already_claimed(transfer_id: int | None, now: datetime) -> GrantAlreadyClaimed:
    return GrantAlreadyClaimed(
        details={
            "transfer": transfer_id,
            "next_at": next_utc_midnight(now).isoformat().replace("+00:00", "Z"),
        }
    )
