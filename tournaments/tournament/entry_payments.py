"""What an entry into a tournament pays (docs/api.md "Tournaments"): `buy_in` to the prize pool and `fee` to
the house, as the legs of one balanced transfer; a refund is the same legs reversed (the house gives the fee
back). In a progressive knockout the entry's bounty (`entry_bounty`) goes to the tournament's bounty account
instead of the pool (docs/rules.md "Progressive knockout")."""

from __future__ import annotations

from ledger.models import SITE_CHIPS, Account, AccountKind
from ledger.services import accounts
from tournaments.tournament.models import Tournament, TournamentKind


def pool_account(tournament: Tournament) -> Account:
    assert tournament.pool_account_id is not None  # created with the tournament
    return Account.objects.get(pk=tournament.pool_account_id)


def entry_bounty(tournament: Tournament) -> int:
    """The bounty each entry (and re-entry) of a progressive knockout carries: floor(buy_in * bounty_share / 100)
    (0 when off, and in every kind but the multi-table one)."""
    if tournament.kind != TournamentKind.MULTI:
        return 0
    return tournament.buy_in * int(tournament.bounty_share or 0) // 100


def bounty_account(tournament: Tournament) -> Account:
    """The site-chip account holding the tournament's bounties (opened on first use)."""
    return accounts.open_account(
        kind=AccountKind.PRIZE_POOL, chip_type=SITE_CHIPS, reference=f"tournament:{tournament.pk}:bounties"
    )


def entry_legs(tournament: Tournament, wallet: Account, sign: int) -> list[tuple[Account, int]]:
    bounty = entry_bounty(tournament)
    legs = [
        (wallet, -sign * (tournament.buy_in + tournament.fee)),
        (pool_account(tournament), sign * (tournament.buy_in - bounty)),
        *([(bounty_account(tournament), sign * bounty)] if bounty else []),
        (accounts.get_house_account(kind=AccountKind.HOUSE_FEES), sign * tournament.fee),
    ]
    return [(account, amount) for account, amount in legs if amount]
