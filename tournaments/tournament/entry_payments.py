"""What an entry into a tournament pays (docs/api.md "Tournaments"): `buy_in` to the prize pool and `fee` to
the house, as the legs of one balanced transfer; a refund is the same legs reversed (the house gives the fee
back)."""

from __future__ import annotations

from ledger.models import Account, AccountKind
from ledger.services import accounts
from tournaments.tournament.models import Tournament


def pool_account(tournament: Tournament) -> Account:
    assert tournament.pool_account_id is not None  # created with the tournament
    return Account.objects.get(pk=tournament.pool_account_id)


def entry_legs(tournament: Tournament, wallet: Account, sign: int) -> list[tuple[Account, int]]:
    legs = [
        (wallet, -sign * (tournament.buy_in + tournament.fee)),
        (pool_account(tournament), sign * tournament.buy_in),
        (accounts.get_house_account(kind=AccountKind.HOUSE_FEES), sign * tournament.fee),
    ]
    return [(account, amount) for account, amount in legs if amount]
