"""Accounts: a user's wallet, the house's accounts and the other named accounts, opened on first use."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from ledger.errors import InvalidTransfer
from ledger.models import PLAYER_KINDS, SITE_CHIPS, Account, AccountKind

HOUSE_KINDS = (AccountKind.HOUSE_CASHIER, AccountKind.HOUSE_FEES, AccountKind.TOURNAMENT_MINT)


def get_wallet(*, user: AbstractBaseUser, chip_type: str = SITE_CHIPS) -> Account:
    """The user's wallet for the chip type, created empty on first use."""
    account, _ = Account.objects.get_or_create(kind=AccountKind.WALLET, chip_type=chip_type, user=user)
    return account


def get_house_account(*, kind: str, chip_type: str = SITE_CHIPS) -> Account:
    """The house's cashier, fee or mint account for the chip type."""
    if kind not in HOUSE_KINDS:
        raise InvalidTransfer(
            f"{kind!r} is not a house account kind.", details={"kind": kind, "allowed": list(HOUSE_KINDS)}
        )
    account, _ = Account.objects.get_or_create(kind=kind, chip_type=chip_type, reference="")
    return account


def open_account(
    *, kind: str, chip_type: str, reference: str, user: AbstractBaseUser | None = None
) -> Account:
    """Get or create a non-wallet account named by (kind, chip_type, reference), e.g. a seat stack.

    A player's account (a kind in PLAYER_KINDS) names its player, `user`; a house account has none."""
    if kind not in AccountKind.values or kind == AccountKind.WALLET:
        raise InvalidTransfer(f"Cannot open an account of kind {kind!r}; use get_wallet for wallets.")
    if (kind in PLAYER_KINDS) != (user is not None):
        raise InvalidTransfer(
            f"An account of kind {str(kind)!r} "
            + ("names its player." if kind in PLAYER_KINDS else "belongs to no player."),
            details={"kind": kind, "player_kinds": [str(k) for k in PLAYER_KINDS]},
        )
    account, _ = Account.objects.get_or_create(
        kind=kind, chip_type=chip_type, reference=reference, defaults={"user": user}
    )
    if user is not None and account.user_id != user.pk:
        raise InvalidTransfer(
            "This account belongs to another player.", details={"account": account.pk, "reference": reference}
        )
    return account
