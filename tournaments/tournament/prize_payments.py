"""The pool paid out, whatever the kind of tournament: the prizes at the end (`pay`) and, when a running tournament
is cancelled, the unpaid pool split among the players still in (`pay_cancellation`; docs/tournaments.md
"Lifecycle"). One transfer each through the ledger, under a key named by its cause; the caller holds the
tournament's lock."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.models import Account, TransferKind
from ledger.services import accounts, postings
from tournaments.satellites import services as satellites
from tournaments.tickets import services as tickets
from tournaments.tournament import payouts
from tournaments.tournament.models import Tournament, TournamentEntry


def pay(
    *,
    tournament: Tournament,
    shares: Mapping[str, int],
    entries: Mapping[str, TournamentEntry],
    key: str,
    why: str,
) -> Any:
    """Pay `shares` from the pool to the players' wallets in one transfer (nothing if the pool is empty)."""
    assert tournament.pool_account_id is not None
    pool = Account.objects.select_for_update().get(pk=tournament.pool_account_id)
    assert sum(shares.values()) == pool.balance, "the pool is paid out whole"
    legs = [(accounts.get_wallet(user=entries[p].player), amount) for p, amount in shares.items() if amount]
    if not legs:
        return None
    return postings.post_transfer(
        kind=TransferKind.PAYOUT,
        legs=[(pool, -pool.balance), *legs],
        idempotency_key=key,
        reason=f"{why} of tournament {tournament.pk}",
        tournament_id=tournament.pk,
        computation={"pool": pool.balance, "payouts": tournament.payouts, "shares": dict(shares), "why": why},
        posted_by_system="tournaments.advance",
    )


@dataclass(frozen=True)
class PrizeAdjustment:
    """What a final-table deal changes at the finish: the chips it `paid` from the pool already, and `split`:
    the shares by place of the whole pool → (what the pool pays now, each player's whole prize)."""

    paid: int
    split: Callable[[dict[str, int]], tuple[dict[str, int], dict[str, int]]]


def pay_places(
    *,
    tournament: Tournament,
    places: Mapping[str, int],
    entries: Mapping[str, TournamentEntry],
    registration_order: Sequence[str],
    key: str,
    after_deal: PrizeAdjustment | None = None,
) -> dict[str, int]:
    """The prizes at the end by place: the payout table over the pool, or a satellite's tickets
    (`satellites.services.pay`). Answers each player's prize (a ticket at its face value). Tickets to the
    tournament still held (spares kept for a re-entry) become chips. `after_deal` (a multi-table tournament's
    final-table deal, `deals.services.finish_adjustment`): the pool the places are split from, with what the deal
    already paid added back, and from the shares by place what the pool pays now and each player's whole prize."""
    tickets.convert_at_end(tournament, cancelled=False)
    if satellites.is_satellite(tournament):
        return satellites.pay(
            tournament=tournament,
            places=places,
            entries=entries,
            registration_order=registration_order,
            key=key,
        )
    assert tournament.pool_account_id is not None
    pool = Account.objects.select_for_update().get(pk=tournament.pool_account_id)
    already_paid = after_deal.paid if after_deal is not None else 0
    shares = payouts.split_prizes(
        pool=pool.balance + already_paid,
        payouts=tournament.payouts,
        places=places,
        registration_order=registration_order,
    )
    prizes = shares
    if after_deal is not None:
        shares, prizes = after_deal.split(shares)
    pay(tournament=tournament, shares=shares, entries=entries, key=key, why="prizes")
    return prizes


def pay_cancellation(
    *,
    tournament: Tournament,
    weights: Mapping[str, int],
    seat_order: Sequence[str],
    entries: Mapping[str, TournamentEntry],
) -> tuple[dict[str, int], Any]:
    """A running tournament cancelled (docs/tournaments.md "Lifecycle"): the unpaid pool split among the
    players still in by `prizes.cancel_split` (half equally, half by `weights`) and paid in one transfer.
    Answers the shares and the transfer (None when the pool is empty). Caller holds the tournament's lock."""
    assert tournament.pool_account_id is not None
    pool = Account.objects.select_for_update().get(pk=tournament.pool_account_id).balance
    shares = payouts.cancel_split(pool=pool, weights=weights, seat_order=seat_order)
    transfer = pay(
        tournament=tournament,
        shares=shares,
        entries=entries,
        key=f"tournament:{tournament.pk}:cancel",
        why="cancellation",
    )
    return shares, transfer
