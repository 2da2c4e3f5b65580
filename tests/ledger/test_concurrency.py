"""Real concurrency on PostgreSQL: threads with their own connections post at once."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from ledger.errors import IdempotencyConflict
from ledger.models import Account, AccountKind, Transfer
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _run_threads(count: int, target: Callable[[int], Any]) -> list[Any]:
    results: list[Any] = [None] * count
    errors: list[BaseException] = []
    barrier = threading.Barrier(count)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = target(index)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    assert not any(thread.is_alive() for thread in threads), "a posting thread hung"
    assert not errors, errors
    return results


def test_eight_threads_posting_2000_transfers_through_one_hot_account() -> None:
    threads, per_thread = 8, 250
    # The cashier may go negative, so every interleaving is valid and the final balances are exact;
    # no wallet can run dry either (at most 250 chips out of 10,000 per thread and wallet).
    hot = accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER)
    wallets = [funded_wallet(make_user(), 10_000) for _ in range(16)]
    ids = [w.pk for w in wallets]
    rng = random.Random(2026)
    plans = [
        [(rng.choice(ids), rng.randint(1, 20), rng.random() < 0.5) for _ in range(per_thread)]
        for _ in range(threads)
    ]
    expected: Counter[int] = Counter(
        dict(Account.objects.filter(pk__in=[*ids, hot.pk]).values_list("pk", "balance"))
    )
    for plan in plans:
        for wallet_id, amount, to_hot in plan:
            expected[wallet_id] += -amount if to_hot else amount
            expected[hot.pk] += amount if to_hot else -amount

    def post(index: int) -> int:
        hot_account = Account.objects.get(pk=hot.pk)
        accounts = {a.pk: a for a in Account.objects.filter(pk__in=ids)}
        for n, (wallet_id, amount, to_hot) in enumerate(plans[index]):
            wallet = accounts[wallet_id]
            postings.move_chips(
                source=wallet if to_hot else hot_account,
                destination=hot_account if to_hot else wallet,
                amount=amount,
                kind="adjustment",
                idempotency_key=f"hot:{index}:{n}",
            )
        return len(plans[index])

    assert sum(_run_threads(threads, post)) == threads * per_thread
    balances = dict(Account.objects.filter(pk__in=[*ids, hot.pk]).values_list("pk", "balance"))
    assert balances == dict(expected)
    assert Transfer.objects.filter(idempotency_key__startswith="hot:").count() == threads * per_thread
    assert_reconciled()


def test_the_same_key_from_two_connections_at_once_yields_one_transfer() -> None:
    user = make_user()
    wallet = funded_wallet(user, 1_000)
    stack = accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference="table:5:seat:1", user=user
    )
    for attempt in range(20):

        def post(index: int, attempt: int = attempt) -> int:
            source = Account.objects.get(pk=wallet.pk)
            destination = Account.objects.get(pk=stack.pk)
            return postings.move_chips(
                source=source,
                destination=destination,
                amount=10,
                kind="buy_in",
                idempotency_key=f"race:{attempt}",
            ).pk

        first, second = _run_threads(2, post)
        assert first == second
        assert Transfer.objects.filter(idempotency_key=f"race:{attempt}").count() == 1
    wallet.refresh_from_db()
    assert wallet.balance == 1_000 - 20 * 10
    assert_reconciled()


def test_the_same_key_with_other_content_from_two_connections_posts_once_and_conflicts_once() -> None:
    user = make_user()
    wallet = funded_wallet(user, 1_000)
    stack = accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference="table:5:seat:2", user=user
    )

    def post(index: int) -> str:
        try:
            postings.move_chips(
                source=Account.objects.get(pk=wallet.pk),
                destination=Account.objects.get(pk=stack.pk),
                amount=10 + index,
                kind="buy_in",
                idempotency_key="race:other",
            )
        except IdempotencyConflict:
            return "conflict"
        return "posted"

    assert sorted(_run_threads(2, post)) == ["conflict", "posted"]
    assert Transfer.objects.filter(idempotency_key="race:other").count() == 1
    assert connection.vendor == "postgresql"
    assert_reconciled()
