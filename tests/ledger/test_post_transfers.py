"""Several transfers in one call (`postings.post_transfers`): each posted as `post_transfer` posts it, in order
(each checked against the balances its predecessors left), each with its own key's replay or conflict; every
account locked at once."""

from __future__ import annotations

import pytest
from django.db import transaction

from ledger.errors import IdempotencyConflict, InsufficientFunds
from ledger.models import Account, AccountKind, Entry, Transfer, TransferKind
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user

pytestmark = pytest.mark.django_db


def _stack(reference: str) -> Account:
    return accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference=reference, user=make_user()
    )


def _buy_in(source: Account, destination: Account, amount: int, key: str) -> postings.Posting:
    return postings.Posting(
        kind=TransferKind.BUY_IN, legs=[(source, -amount), (destination, amount)], idempotency_key=key
    )


def test_each_transfer_is_posted_in_turn_on_the_balances_before_it() -> None:
    wallet = funded_wallet(make_user(), 100)
    first, second = _stack("s:1"), _stack("s:2")
    posted = postings.post_transfers([_buy_in(wallet, first, 60, "k:1"), _buy_in(wallet, second, 40, "k:2")])
    assert [t.idempotency_key for t in posted] == ["k:1", "k:2"] and posted[0].pk < posted[1].pk
    assert (wallet.balance, first.balance, second.balance) == (0, 60, 40)
    after = Entry.objects.filter(account=wallet).order_by("pk").values_list("balance_after", flat=True)
    assert list(after) == [100, 40, 0]
    assert_reconciled()


def test_one_overdraft_refuses_the_call_and_nothing_of_it_stays() -> None:
    wallet = funded_wallet(make_user(), 100)
    first, second = _stack("s:1"), _stack("s:2")
    with pytest.raises(InsufficientFunds), transaction.atomic():  # the caller's transaction, rolled back
        postings.post_transfers([_buy_in(wallet, first, 60, "k:1"), _buy_in(wallet, second, 60, "k:2")])
    assert not Transfer.objects.filter(idempotency_key__in=["k:1", "k:2"]).exists()
    wallet.refresh_from_db()
    assert wallet.balance == 100
    assert_reconciled()


def test_a_key_already_posted_replays_and_the_others_post() -> None:
    wallet = funded_wallet(make_user(), 100)
    first, second = _stack("s:1"), _stack("s:2")
    done = postings.post_transfer(
        kind=TransferKind.BUY_IN, legs=[(wallet, -60), (first, 60)], idempotency_key="k:1"
    )
    posted = postings.post_transfers([_buy_in(wallet, first, 60, "k:1"), _buy_in(wallet, second, 40, "k:2")])
    assert posted[0].pk == done.pk
    for account in (wallet, first, second):
        account.refresh_from_db()
    assert (wallet.balance, first.balance, second.balance) == (0, 60, 40)
    with pytest.raises(IdempotencyConflict):
        postings.post_transfers([_buy_in(wallet, second, 1, "k:2")])
    assert postings.post_transfers([]) == []
    assert_reconciled()
